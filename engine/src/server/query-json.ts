// The query resource: the list item of GET /v1/query, the detail of GET /v1/query/{queryId} with
// its stage tree, and the task object nested in it (the shape GET /v1/task/{taskId} will serve).

import { formatDataSize } from '../config/data-size.js';
import { formatDuration } from '../config/duration.js';
import type { ManagedQuery } from '../coordinator/managed-query.js';
import { isAtLeast } from '../coordinator/query-state.js';
import { ROOT_STAGE_ID, isFinalState, outputBufferState, rootStageState, rootTaskId, rootTaskState } from '../coordinator/root-stage.js';
import { typeName } from '../types/types.js';
import type { StageSnapshot } from '../coordinator/scheduler/stage-snapshot.js';
import { errorCodeJson, failureInfoJson } from './error-json.js';
import { progressPercentage } from './statement-json.js';

const iso = (millis: number | undefined): string | undefined => (millis === undefined ? undefined : new Date(millis).toISOString());

export function sessionJson(query: ManagedQuery) {
  const s = query.session;
  return {
    queryId: query.id,
    user: s.user,
    source: s.source,
    catalog: s.catalog,
    schema: s.schema,
    timeZone: s.timeZone,
    remoteUserAddress: query.client.remoteAddress,
    userAgent: query.client.userAgent,
    clientInfo: s.clientInfo,
    clientTags: s.clientTags,
    startTime: s.startTime,
    systemProperties: Object.fromEntries(s.properties),
    preparedStatements: Object.fromEntries(s.preparedStatements),
  };
}

/** Figures shared by the list item and the detail. */
function commonStats(query: ManagedQuery, now: number) {
  const p = query.progress;
  return {
    createTime: iso(query.createTime),
    executionStartTime: iso(query.executionStartTime),
    lastHeartbeat: iso(query.lastClientAccess),
    endTime: iso(query.endTime),
    elapsedTime: formatDuration(query.elapsedMillis(now)),
    queuedTime: formatDuration(query.queuedMillis(now)),
    executionTime: formatDuration(query.executionMillis(now) + query.analysisMillis(now)),
    totalDrivers: p.totalSplits,
    queuedDrivers: p.queuedSplits,
    runningDrivers: p.runningSplits,
    completedDrivers: p.completedSplits,
    rawInputDataSize: formatDataSize(p.processedBytes),
    rawInputPositions: p.processedRows,
    totalMemoryReservation: formatDataSize(query.memoryUsage.reservedBytes),
    peakTotalMemoryReservation: formatDataSize(query.memoryUsage.peakBytes),
    totalCpuTime: formatDuration(p.cpuTimeMillis),
    progressPercentage: progressPercentage(query),
  };
}

/** The admitting resource group as Trino writes it (path segments); absent for a query no group took. */
function resourceGroupJson(query: ManagedQuery) {
  return query.resourceGroupId ? { resourceGroupId: [...query.resourceGroupId] } : {};
}

function failureFields(query: ManagedQuery) {
  const error = query.error;
  if (!error) return {};
  return { errorType: error.errorType, errorCode: errorCodeJson(error), failureInfo: failureInfoJson(error) };
}

export function queryListItemJson(query: ManagedQuery, origin: string, now = Date.now()) {
  const { failureInfo: _omitted, ...failure } = failureFields(query);
  return {
    queryId: query.id,
    session: sessionJson(query),
    ...resourceGroupJson(query),
    state: query.state,
    memoryPool: 'general',
    scheduled: isAtLeast(query.state, 'RUNNING') && query.executionStartTime !== undefined,
    self: `${origin}/v1/query/${query.id}`,
    query: query.sql,
    queryStats: commonStats(query, now),
    ...failure,
  };
}

export function queryDetailJson(query: ManagedQuery, origin: string, now = Date.now()) {
  const p = query.progress;
  const started = query.executionStartTime !== undefined;
  const taskDone = isFinalState(rootTaskState(query));
  return {
    queryId: query.id,
    session: sessionJson(query),
    ...resourceGroupJson(query),
    state: query.state,
    memoryPool: 'general',
    scheduled: isAtLeast(query.state, 'RUNNING') && started,
    self: `${origin}/v1/query/${query.id}`,
    fieldNames: (query.columns ?? []).map((c) => c.name),
    query: query.sql,
    queryStats: {
      ...commonStats(query, now),
      analysisTime: formatDuration(query.analysisMillis(now)),
      distributedPlanningTime: formatDuration(0),
      totalScheduledTime: formatDuration(query.executionMillis(now)),
      totalBlockedTime: formatDuration(query.buffer?.currentBlockedMillis(now) ?? 0),
      ...taskCounts(query, started, taskDone),
      userMemoryReservation: formatDataSize(query.memoryUsage.reservedBytes),
      peakUserMemoryReservation: formatDataSize(query.memoryUsage.peakBytes),
      peakTaskUserMemory: formatDataSize(query.memoryUsage.peakTaskBytes),
      peakTaskTotalMemory: formatDataSize(query.memoryUsage.peakTaskBytes),
      processedInputDataSize: formatDataSize(p.processedBytes),
      processedInputPositions: p.processedRows,
      outputDataSize: formatDataSize(query.buffer?.bytesAdded ?? 0),
      outputPositions: query.buffer?.rowsAdded ?? 0,
    },
    outputStage: stageJson(query, now),
    ...(query.result?.updateType !== undefined ? { updateType: query.result.updateType } : {}),
    ...failureFields(query),
    finalQueryInfo: query.done,
  };
}

/** The root task here, and those of the stages below it on the cluster. */
function taskCounts(query: ManagedQuery, started: boolean, rootDone: boolean) {
  const tasks = flattenStages(query.subStages()).flatMap((s) => s.tasks);
  const done = tasks.filter((t) => ['FINISHED', 'CANCELED', 'ABORTED', 'FAILED'].includes(t.state)).length;
  return {
    totalTasks: (started ? 1 : 0) + tasks.length,
    runningTasks: (started && !rootDone ? 1 : 0) + tasks.length - done,
    completedTasks: (started && rootDone ? 1 : 0) + done,
  };
}

function flattenStages(stages: readonly StageSnapshot[]): StageSnapshot[] {
  return stages.flatMap((s) => [s, ...flattenStages(s.subStages)]);
}

function stageJson(query: ManagedQuery, now: number) {
  const state = rootStageState(query);
  return {
    stageId: `${query.id}.${ROOT_STAGE_ID}`,
    state,
    done: isFinalState(state),
    types: (query.columns ?? []).map((c) => typeName(c.type)),
    tasks: query.executionStartTime === undefined ? [] : [taskJson(query, now)],
    subStages: query.subStages().map(subStageJson),
  };
}

/** A stage on the cluster, with its figures and the last info of each of its tasks. */
function subStageJson(stage: StageSnapshot): object {
  const { fragmentId: _id, subStages, ...rest } = stage;
  return { ...rest, subStages: subStages.map(subStageJson) };
}

export function taskJson(query: ManagedQuery, now = Date.now()) {
  const p = query.progress;
  const buffer = query.buffer;
  const state = rootTaskState(query);
  return {
    taskId: rootTaskId(query),
    version: query.version,
    state,
    // The task resource (/v1/task) does not exist yet on a single node.
    self: 'unknown',
    lastHeartbeat: iso(query.lastClientAccess),
    outputBuffers: {
      state: outputBufferState(query),
      masterSequenceId: 0,
      pagesAdded: buffer?.pagesAdded ?? 0,
      buffers: [{ bufferId: '0', finished: query.done, bufferedPages: buffer?.bufferedPages ?? 0, pagesSent: buffer?.pagesSent ?? 0 }],
    },
    noMoreSplits: [],
    stats: {
      createTime: iso(query.createTime),
      startTime: iso(query.executionStartTime),
      endTime: iso(query.endTime),
      elapsedTime: formatDuration(query.elapsedMillis(now)),
      queuedTime: formatDuration(query.queuedMillis(now)),
      totalScheduledTime: formatDuration(query.executionMillis(now)),
      totalCpuTime: formatDuration(p.cpuTimeMillis),
      totalBlockedTime: formatDuration(buffer?.currentBlockedMillis(now) ?? 0),
      totalDrivers: p.totalSplits,
      queuedDrivers: p.queuedSplits,
      runningDrivers: p.runningSplits,
      completedDrivers: p.completedSplits,
      memoryReservation: formatDataSize(query.rootTaskMemory.reservedBytes),
      peakMemoryReservation: formatDataSize(query.rootTaskMemory.peakBytes),
      rawInputDataSize: formatDataSize(p.processedBytes),
      processedInputDataSize: formatDataSize(p.processedBytes),
      outputDataSize: formatDataSize(buffer?.bytesAdded ?? 0),
      rawInputPositions: p.processedRows,
      processedInputPositions: p.processedRows,
      outputPositions: buffer?.rowsAdded ?? 0,
      pipelines: [],
    },
    failures: query.error && !query.canceled ? [failureInfoJson(query.error)] : [],
    outputs: {},
  };
}
