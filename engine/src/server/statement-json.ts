// The statement response body (POST /v1/statement and each nextUri) and its `stats`.

import type { ManagedQuery } from '../coordinator/managed-query.js';
import { isAtLeast } from '../coordinator/query-state.js';
import { ROOT_STAGE_ID, isFinalState, rootStageState, rootTaskFigures } from '../coordinator/root-stage.js';
import type { StageSnapshot } from '../coordinator/scheduler/stage-snapshot.js';
import { clientColumnType, variantWireForm } from '../types/variant/variant-client.js';
import { type ColumnJson, columnJson } from './client-column.js';

export type { ColumnJson } from './client-column.js';
import { queryErrorJson, type QueryErrorJson } from './error-json.js';
import { formatToken } from './statement-token.js';

/** A stage in the statement stats: a stage's figures without its tasks (the root's describe the whole query). */
export type StageStatsJson = Omit<StageSnapshot, 'fragmentId' | 'tasks' | 'subStages'> & {
  physicalInputBytes: number;
  subStages: StageStatsJson[];
};

export interface StatementStatsJson {
  state: string;
  queued: boolean;
  scheduled: boolean;
  nodes: number;
  totalSplits: number;
  queuedSplits: number;
  runningSplits: number;
  completedSplits: number;
  cpuTimeMillis: number;
  wallTimeMillis: number;
  queuedTimeMillis: number;
  elapsedTimeMillis: number;
  /** The statement's planning so far (QueryProgress.planningMillis). */
  planningTimeMillis: number;
  processedRows: number;
  processedBytes: number;
  physicalInputBytes: number;
  peakMemoryBytes: number;
  spilledBytes: number;
  progressPercentage: number;
  rootStage: StageStatsJson;
}

export interface StatementResponseJson {
  id: string;
  infoUri: string;
  partialCancelUri?: string;
  nextUri?: string;
  columns?: ColumnJson[];
  data?: unknown[][];
  stats: StatementStatsJson;
  error?: QueryErrorJson;
  warnings: unknown[];
  updateType?: string;
  updateCount?: number;
}

export interface ResponseParts {
  /** Scheme and authority the client used, e.g. http://127.0.0.1:8080. */
  origin: string;
  /** The sequence number of the next response's token; absent in the final response. */
  nextToken?: number;
  /** The query's secret slug, part of every token. */
  slug: string;
  /** The POST response: like Trino's, it never carries the error; the client reads it from nextUri. */
  initial?: boolean;
}

/** The response without its rows (`data`, which statementBody writes in its place). */
export function statementResponse(query: ManagedQuery, parts: ResponseParts): StatementResponseJson {
  const { origin, nextToken, slug, initial } = parts;
  const columns = query.columns;
  const result = query.result;
  const more = nextToken !== undefined;
  // Built in the order Trino's QueryResults serialises its fields.
  const body: StatementResponseJson = {
    id: query.id,
    infoUri: `${origin}/v1/query/${query.id}`,
    ...(more
      ? {
          partialCancelUri: `${origin}/v1/stage/${query.id}.${ROOT_STAGE_ID}`,
          nextUri: `${origin}/v1/statement/${query.id}/${formatToken(nextToken, slug)}`,
        }
      : {}),
    ...(columns && columns.length > 0
      ? {
          columns: columns.map((c) =>
            columnJson(c.name, clientColumnType(c.type, variantWireForm(query.session)), query.session.clientCapabilities),
          ),
        }
      : {}),
    stats: statementStats(query),
    ...(query.error && !initial ? { error: queryErrorJson(query.error) } : {}),
    warnings: [],
    ...(result?.updateType !== undefined ? { updateType: result.updateType } : {}),
    ...(result?.updateCount !== undefined && query.state === 'FINISHED' ? { updateCount: result.updateCount } : {}),
  };
  return body;
}

export function statementStats(query: ManagedQuery, now = Date.now()): StatementStatsJson {
  const p = query.progress;
  const state = query.state;
  return {
    state,
    queued: state === 'QUEUED',
    scheduled: isAtLeast(state, 'RUNNING') && query.executionStartTime !== undefined,
    nodes: query.nodeCount(),
    totalSplits: p.totalSplits,
    queuedSplits: p.queuedSplits,
    runningSplits: p.runningSplits,
    completedSplits: p.completedSplits,
    cpuTimeMillis: Math.round(p.cpuTimeMillis),
    wallTimeMillis: query.executionMillis(now),
    queuedTimeMillis: query.queuedMillis(now),
    elapsedTimeMillis: query.elapsedMillis(now),
    planningTimeMillis: Math.round(p.planningMillis),
    processedRows: p.processedRows,
    processedBytes: p.processedBytes,
    physicalInputBytes: p.processedBytes,
    peakMemoryBytes: query.memoryUsage.peakBytes,
    spilledBytes: 0,
    progressPercentage: progressPercentage(query),
    rootStage: rootStageStats(query, now),
  };
}

export function progressPercentage(query: ManagedQuery): number {
  if (query.state === 'FINISHED') return 100;
  const { totalSplits, completedSplits } = query.progress;
  return totalSplits > 0 ? (100 * completedSplits) / totalSplits : 0;
}

/** The root stage's own figures (the query's totals are in the stats around it). */
function rootStageStats(query: ManagedQuery, now: number): StageStatsJson {
  const root = rootTaskFigures(query);
  const state = rootStageState(query);
  return {
    stageId: ROOT_STAGE_ID,
    state,
    done: isFinalState(state),
    nodes: 1,
    totalSplits: root.totalSplits,
    queuedSplits: root.queuedSplits,
    runningSplits: root.runningSplits,
    completedSplits: root.completedSplits,
    cpuTimeMillis: Math.round(root.cpuMillis),
    wallTimeMillis: query.executionMillis(now),
    processedRows: root.sourceRows,
    processedBytes: root.sourceBytes,
    physicalInputBytes: root.sourceBytes,
    failedTasks: state === 'FAILED' ? 1 : 0,
    coordinatorOnly: false,
    subStages: query.subStages().map(stageStats),
  };
}

/** A stage on the cluster in the statement stats (named by its fragment's number, as the root is '0'). */
function stageStats(stage: StageSnapshot): StageStatsJson {
  const { stageId: _full, fragmentId, tasks: _tasks, subStages, ...figures } = stage;
  return { stageId: String(fragmentId), ...figures, physicalInputBytes: figures.processedBytes, subStages: subStages.map(stageStats) };
}
