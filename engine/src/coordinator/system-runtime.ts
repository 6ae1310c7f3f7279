// What the `system` catalog reads from this server: its nodes, the query manager's queries, and
// the task each query runs on this node, and the query history on disk. A user sees only their own
// queries and tasks (admins all).

import type { NodeRow, QueryRow, SystemRuntime, TaskRow } from '../connectors/system/runtime.js';
import type { ManagedQuery } from './managed-query.js';
import type { QueryAccess } from './query-access.js';
import { querySummary, type QuerySummary } from './query-summary.js';
import { ROOT_STAGE_ID, rootTaskFigures, rootTaskId, rootTaskState } from './root-stage.js';
import type { StageSnapshot } from './scheduler/stage-snapshot.js';

export class ServerSystemRuntime implements SystemRuntime {
  constructor(
    /** The query manager's queries (read lazily: the manager is built after the catalogs). */
    private readonly listQueries: () => readonly ManagedQuery[],
    /** The queries of the history on disk (earlier runs', and this run's the manager let go). */
    private readonly listHistory: () => readonly QuerySummary[],
    /** This node and the nodes it knows. */
    private readonly nodeRows: () => NodeRow[],
    private readonly nodeId: () => string,
    private readonly access: QueryAccess,
  ) {}

  nodes(): NodeRow[] {
    return this.nodeRows();
  }

  queries(user: string): QueryRow[] {
    const live = this.listQueries();
    const held = new Set(live.map((q) => q.id));
    const stored = this.listHistory().filter((s) => !held.has(s.queryId) && this.access.mayAccessQueryOf(user, s.user));
    return [...this.access.visible(user, live).map((q) => queryRow(querySummary(q))), ...stored.map(queryRow)];
  }

  /** Each query's root task here, and the tasks of its stages on the cluster as last reported. */
  tasks(user: string): TaskRow[] {
    return this.access.visible(user, this.listQueries()).flatMap((q) => [this.rootTask(q), ...remoteTasks(q)]);
  }

  /** The root stage's task: its own figures, not the query's totals. */
  private rootTask(q: ManagedQuery): TaskRow {
    const root = rootTaskFigures(q);
    return {
      nodeId: this.nodeId(),
      taskId: rootTaskId(q),
      stageId: ROOT_STAGE_ID,
      queryId: q.id,
      state: rootTaskState(q),
      splits: root.totalSplits,
      completedSplits: root.completedSplits,
      rawInputRows: root.sourceRows,
      outputRows: q.buffer?.rowsAdded ?? 0,
      created: q.createTime,
      end: q.endTime ?? null,
    };
  }
}

/** A query held now or one of the history on disk, as a row of system.runtime.queries. */
function queryRow(s: QuerySummary): QueryRow {
  return {
    queryId: s.queryId,
    state: s.state,
    user: s.user,
    source: s.source,
    query: s.query,
    errorCode: s.errorName,
    created: s.createTime,
    started: s.executionStartTime,
    end: s.endTime,
  };
}

function remoteTasks(q: ManagedQuery): TaskRow[] {
  const stages = (list: readonly StageSnapshot[]): StageSnapshot[] => list.flatMap((s) => [s, ...stages(s.subStages)]);
  return stages(q.subStages()).flatMap((stage) =>
    stage.tasks.map((t) => ({
      nodeId: t.nodeId,
      taskId: t.taskId,
      stageId: String(stage.fragmentId),
      queryId: q.id,
      state: t.state,
      splits: t.stats.totalSplits,
      completedSplits: t.stats.completedSplits,
      rawInputRows: t.stats.rawInputPositions,
      outputRows: t.stats.outputPositions,
      created: Date.parse(t.stats.createTime),
      end: t.stats.endTime === undefined ? null : Date.parse(t.stats.endTime),
    })),
  );
}
