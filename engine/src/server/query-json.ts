// The query resource: the list item of GET /v1/query, the detail of GET /v1/query/{queryId} with
// its stage tree, and the task object nested in it (the shape GET /v1/task/{taskId} will serve).

import { formatDataSize } from '../config/data-size.js';
import { formatDuration } from '../config/duration.js';
import type { ManagedQuery } from '../coordinator/managed-query.js';
import { isAtLeast } from '../coordinator/query-state.js';
import {
  ROOT_STAGE_ID,
  flattenStages,
  isFinalState,
  outputBufferState,
  rootStageState,
  rootTaskFigures,
  rootTaskId,
  rootTaskState,
} from '../coordinator/root-stage.js';
import { operatorSummary } from '../exec/stats/operator-summary.js';
import type { DriverFigures } from '../internode/task-info.js';
import { taskInfoJson, taskStatsJson } from '../internode/task-info-codec.js';
import { pipelineTotals } from '../exec/stats/pipeline-totals.js';
import { addMetrics } from '../exec/stats/operator-recorder.js';
import { distribution } from '../worker/task-info.js';
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
  const drivers = queryDrivers(query);
  return {
    createTime: iso(query.createTime),
    executionStartTime: iso(query.executionStartTime),
    lastHeartbeat: iso(query.lastClientAccess),
    endTime: iso(query.endTime),
    elapsedTime: formatDuration(query.elapsedMillis(now)),
    queuedTime: formatDuration(query.queuedMillis(now)),
    executionTime: formatDuration(query.executionMillis(now) + query.analysisMillis(now)),
    ...drivers,
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
      // Not measured: planning and fragmenting are timed together, as analysisTime (docs/statistics.md).
      distributedPlanningTime: formatDuration(0),
      // Scheduled time is CPU time, as in each task (docs/statistics.md).
      totalScheduledTime: formatDuration(p.cpuTimeMillis),
      totalBlockedTime: formatDuration(queryBlockedMillis(query, now)),
      ...taskCounts(query, started, taskDone),
      userMemoryReservation: formatDataSize(query.memoryUsage.reservedBytes),
      peakUserMemoryReservation: formatDataSize(query.memoryUsage.peakBytes),
      peakTaskUserMemory: formatDataSize(query.memoryUsage.peakTaskBytes),
      peakTaskTotalMemory: formatDataSize(query.memoryUsage.peakTaskBytes),
      processedInputDataSize: formatDataSize(p.processedBytes),
      processedInputPositions: p.processedRows,
      outputDataSize: formatDataSize(query.buffer?.bytesAdded ?? 0),
      outputPositions: query.buffer?.rowsAdded ?? 0,
      connectorMetrics: queryConnectorMetrics(query),
    },
    outputStage: stageJson(query, now),
    ...(query.result?.updateType !== undefined ? { updateType: query.result.updateType } : {}),
    ...failureFields(query),
    finalQueryInfo: query.done,
  };
}

/** The tasks' last infos, the root stage's task here aside. */
function stageTasks(query: ManagedQuery) {
  return flattenStages(query.subStages()).flatMap((s) => s.tasks);
}

/** What the connectors of every scan reported (a lake's files and bytes read and skipped), summed over all tasks. */
function queryConnectorMetrics(query: ManagedQuery): Record<string, number> {
  const total: Record<string, number> = {};
  for (const operator of query.rootOperators.all()) addMetrics(total, operator.figures.connectorMetrics);
  for (const task of stageTasks(query)) {
    for (const operator of task.stats.pipelines.flatMap((p) => p.operatorSummaries)) addMetrics(total, operator.connectorMetrics);
  }
  return total;
}

/** The root stage's task runs the query's page stream as one driver. */
function rootDrivers(query: ManagedQuery) {
  const started = query.executionStartTime !== undefined;
  const done = isFinalState(rootTaskState(query));
  return { totalDrivers: 1, queuedDrivers: started ? 0 : 1, runningDrivers: started && !done ? 1 : 0, completedDrivers: done ? 1 : 0 };
}

/** The root stage's blocked time: its operators', and waiting for the client to take its rows. */
function rootBlockedMillis(query: ManagedQuery, now: number): number {
  return pipelineTotals(query.rootOperators.all()).blockedMillis + (query.buffer?.currentBlockedMillis(now) ?? 0);
}

/** The drivers of the query's tasks: the root stage's one, and those its other tasks report. */
function queryDrivers(query: ManagedQuery) {
  const drivers = rootDrivers(query);
  for (const { stats } of stageTasks(query)) {
    drivers.totalDrivers += stats.totalDrivers;
    drivers.queuedDrivers += stats.queuedDrivers;
    drivers.runningDrivers += stats.runningDrivers;
    drivers.completedDrivers += stats.completedDrivers;
  }
  return drivers;
}

/** The blocked time of every task of the query, the root stage's included. */
function queryBlockedMillis(query: ManagedQuery, now: number): number {
  return stageTasks(query).reduce((sum, t) => sum + t.stats.totalBlockedTime, rootBlockedMillis(query, now));
}

/** The root task here, and those of the stages below it on the cluster. */
function taskCounts(query: ManagedQuery, started: boolean, rootDone: boolean) {
  const tasks = stageTasks(query);
  const done = tasks.filter((t) => ['FINISHED', 'CANCELED', 'ABORTED', 'FAILED'].includes(t.state)).length;
  return {
    totalTasks: (started ? 1 : 0) + tasks.length,
    runningTasks: (started && !rootDone ? 1 : 0) + tasks.length - done,
    completedTasks: (started && rootDone ? 1 : 0) + done,
  };
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
  const { fragmentId: _id, subStages, tasks, ...rest } = stage;
  // The detail is written with JSON.stringify (here and in the history): the version as a double, as the root task's.
  return { ...rest, tasks: tasks.map((t) => ({ ...taskInfoJson(t), version: Number(t.version) })), subStages: subStages.map(subStageJson) };
}

/** The root stage's task: its own figures (what its operators did), not the query's totals. */
export function taskJson(query: ManagedQuery, now = Date.now()) {
  const root = rootTaskFigures(query);
  const buffer = query.buffer;
  const state = rootTaskState(query);
  const cpu = root.cpuMillis;
  const common: DriverFigures = {
    ...rootDrivers(query),
    memoryReservation: query.rootTaskMemory.reservedBytes,
    // Scheduled time is CPU time: the engine cannot see the OS take its thread away (docs/statistics.md).
    totalScheduledTime: cpu,
    totalCpuTime: cpu,
    totalBlockedTime: rootBlockedMillis(query, now),
    rawInputDataSize: root.sourceBytes,
    processedInputDataSize: root.sourceBytes,
    outputDataSize: buffer?.bytesAdded ?? 0,
    rawInputPositions: root.sourceRows,
    processedInputPositions: root.sourceRows,
    outputPositions: buffer?.rowsAdded ?? 0,
  };
  const queued = query.queuedMillis(now);
  const elapsed = query.elapsedMillis(now);
  return {
    taskId: rootTaskId(query),
    version: query.version,
    state,
    // The task resource (/v1/task) does not exist yet on a single node.
    self: 'unknown',
    lastHeartbeat: iso(query.lastClientAccess),
    outputBuffers: {
      state: outputBufferState(query),
      masterSequenceId: buffer?.pagesSent ?? 0,
      pagesAdded: buffer?.pagesAdded ?? 0,
      buffers: [{ bufferId: '0', finished: query.done, bufferedPages: buffer?.bufferedPages ?? 0, pagesSent: buffer?.pagesSent ?? 0 }],
    },
    noMoreSplits: [],
    stats: taskStatsJson({
      createTime: new Date(query.createTime).toISOString(),
      startTime: iso(query.executionStartTime),
      endTime: iso(query.endTime),
      elapsedTime: elapsed,
      queuedTime: queued,
      ...common,
      peakMemoryReservation: query.rootTaskMemory.peakBytes,
      totalSplits: root.totalSplits,
      queuedSplits: root.queuedSplits,
      runningSplits: root.runningSplits,
      completedSplits: root.completedSplits,
      pipelines: [
        {
          inputPipeline: true,
          outputPipeline: true,
          ...common,
          queuedTime: distribution([queued]),
          elapsedTime: distribution([elapsed]),
          operatorSummaries: query.rootOperators
            .all()
            .reverse()
            .map((operator, i) => operatorSummary(i, operator)),
          drivers: [],
        },
      ],
    }),
    failures: query.error && !query.canceled ? [failureInfoJson(query.error)] : [],
    outputs: {},
  };
}
