// The task object of INTERFACE.md (GET /v1/task/{taskId}, the elements of GET /v1/task, the tasks
// in a query's stage tree), as the worker makes it and the coordinator reads it: one type for both.
// Durations and sizes are numbers here (Millis, Bytes); only the HTTP edge writes them as airlift's
// strings (`1.23s`, `1.50kB`) and reads them back (task-info-codec.ts), so no one in process parses
// a string another part of the engine formatted.

import type { VersionedDynamicFilterDomains } from './dynamic-filter-domains.js';
import type { FailureInfoJson } from '../errors/failure-info.js';

/** Milliseconds; a duration string (`1.23s`) on the wire. */
export type Millis = number;
/** Bytes; a data size string (`1.50kB`) on the wire. */
export type Bytes = number;

export type TaskState = 'PLANNED' | 'RUNNING' | 'FLUSHING' | 'FINISHED' | 'CANCELED' | 'ABORTED' | 'FAILED';

export const TASK_STATES: readonly TaskState[] = ['PLANNED', 'RUNNING', 'FLUSHING', 'FINISHED', 'CANCELED', 'ABORTED', 'FAILED'];

const DONE_STATES: ReadonlySet<TaskState> = new Set(['FINISHED', 'CANCELED', 'ABORTED', 'FAILED']);

/** Whether a task in `state` has ended (and will not change state again). */
export function isDoneState(state: TaskState): boolean {
  return DONE_STATES.has(state);
}

export interface TaskFailure extends FailureInfoJson {
  errorCode: { code: number; name: string; type: string };
}

export type OutputBufferState = 'OPEN' | 'FLUSHING' | 'FINISHED' | 'ABORTED';

export interface OutputBufferInfo {
  state: OutputBufferState;
  masterSequenceId: number;
  pagesAdded: number;
  buffers: { bufferId: string; finished: boolean; bufferedPages: number; pagesSent: number }[];
}

export interface Distribution {
  maxError: number;
  count: number;
  total: number;
  p01: number;
  p05: number;
  p10: number;
  p25: number;
  p50: number;
  p75: number;
  p90: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
}

export interface OperatorSummary {
  operatorId: number;
  planNodeId: string;
  operatorType: string;
  addInputCalls: number;
  getOutputCalls: number;
  finishCalls: number;
  addInputWall: Millis;
  addInputCpu: Millis;
  addInputUser: Millis;
  getOutputWall: Millis;
  getOutputCpu: Millis;
  getOutputUser: Millis;
  blockedWall: Millis;
  finishWall: Millis;
  finishCpu: Millis;
  finishUser: Millis;
  inputDataSize: Bytes;
  outputDataSize: Bytes;
  memoryReservation: Bytes;
  peakUserMemoryReservation: Bytes;
  inputPositions: number;
  outputPositions: number;
  /** A scan's connector metrics by name (Trino's connectorMetrics, as plain counts). */
  connectorMetrics?: Record<string, number>;
  /** The exchange operator's client status. */
  info?: object;
}

/** What a task and each of its pipelines report alike. */
export interface DriverFigures {
  totalDrivers: number;
  queuedDrivers: number;
  runningDrivers: number;
  completedDrivers: number;
  memoryReservation: Bytes;
  totalScheduledTime: Millis;
  totalCpuTime: Millis;
  totalBlockedTime: Millis;
  rawInputDataSize: Bytes;
  processedInputDataSize: Bytes;
  outputDataSize: Bytes;
  rawInputPositions: number;
  processedInputPositions: number;
  outputPositions: number;
}

export interface PipelineStats extends DriverFigures {
  inputPipeline: boolean;
  outputPipeline: boolean;
  queuedTime: Distribution;
  elapsedTime: Distribution;
  operatorSummaries: OperatorSummary[];
  drivers: never[];
}

export interface TaskStats extends DriverFigures {
  /** Timestamps (ISO 8601) here as on the wire: nothing in process computes with them. */
  createTime: string;
  startTime?: string;
  endTime?: string;
  elapsedTime: Millis;
  queuedTime: Millis;
  peakMemoryReservation: Bytes;
  /** Splits of the task's scans, for the query's split counts. */
  totalSplits: number;
  queuedSplits: number;
  runningSplits: number;
  completedSplits: number;
  pipelines: PipelineStats[];
}

export interface TaskInfo {
  taskId: string;
  /** A 64-bit integer: the largest 64-bit value once the task is done (written as a JSON number, exactly). */
  version: bigint;
  state: TaskState;
  self: string;
  nodeId: string;
  lastHeartbeat: string;
  outputBuffers: OutputBufferInfo;
  noMoreSplits: string[];
  stats: TaskStats;
  failures: TaskFailure[];
  outputs: Record<string, never>;
  /**
   * How many remote dynamic filters' domains the task has published (absent: none); the coordinator
   * fetches those it has not seen when this moves (dynamic-filter-domains.ts).
   */
  dynamicFiltersVersion?: number;
  /**
   * The domains published after the version a long poll named (X-Engine-Dynamic-Filters-Since), in
   * its answer only: the coordinator then needs no fetch, one round trip to a busy node fewer.
   */
  dynamicFilterDomains?: VersionedDynamicFilterDomains;
}
