// What the `system` catalog reads from this server: its nodes, the query manager's queries, and
// the task each query runs on this node. A user sees only their own queries and tasks (admins all).

import type { NodeRow, QueryRow, SystemRuntime, TaskRow } from '../connectors/system/runtime.js';
import type { ManagedQuery } from './managed-query.js';
import type { QueryAccess } from './query-access.js';
import { ROOT_STAGE_ID, rootTaskFigures, rootTaskId, rootTaskState } from './root-stage.js';
import type { StageSnapshot } from './scheduler/stage-snapshot.js';

export class ServerSystemRuntime implements SystemRuntime {
  constructor(
    /** The query manager's queries (read lazily: the manager is built after the catalogs). */
    private readonly listQueries: () => readonly ManagedQuery[],
    /** This node and the nodes it knows. */
    private readonly nodeRows: () => NodeRow[],
    private readonly nodeId: () => string,
    private readonly access: QueryAccess,
  ) {}

  nodes(): NodeRow[] {
    return this.nodeRows();
  }

  queries(user: string): QueryRow[] {
    return this.access.visible(user, this.listQueries()).map((q) => ({
      queryId: q.id,
      state: q.state,
      user: q.session.user,
      source: q.session.source ?? null,
      query: q.sql,
      errorCode: q.error?.errorName ?? null,
      created: q.createTime,
      started: q.executionStartTime ?? null,
      end: q.endTime ?? null,
    }));
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

function remoteTasks(q: ManagedQuery): TaskRow[] {
  const stages = (list: readonly StageSnapshot[]): StageSnapshot[] => list.flatMap((s) => [s, ...stages(s.subStages)]);
  return stages(q.subStages()).flatMap((stage) =>
    stage.tasks.map((t) => ({
      nodeId: typeof t.nodeId === 'string' ? t.nodeId : '',
      taskId: t.taskId,
      stageId: String(stage.fragmentId),
      queryId: q.id,
      state: t.state,
      splits: t.stats.totalSplits,
      completedSplits: t.stats.completedSplits,
      rawInputRows: t.stats.rawInputPositions,
      outputRows: t.stats.outputPositions,
      created: Date.parse(String(t.stats.createTime)),
      end: t.stats.endTime === undefined ? null : Date.parse(String(t.stats.endTime)),
    })),
  );
}
