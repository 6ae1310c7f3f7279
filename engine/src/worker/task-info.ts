// The task object of INTERFACE.md (GET /v1/task/{taskId}, the elements of GET /v1/task, and the
// tasks in a query's stage tree): state and version, output buffers, stats with one pipeline whose
// operator summaries carry what each operator counted and timed as it ran (exec/stats), failures.

import { formatDataSize } from '../config/data-size.js';
import { formatDuration } from '../config/duration.js';
import { operatorSummary, type OperatorSummary } from '../exec/stats/operator-summary.js';
import { pipelineTotals } from '../exec/stats/pipeline-totals.js';
import type { OutputBufferInfo } from './output-buffer.js';
import { ExchangeClient } from './exchange-client.js';
import type { SqlTask, TaskFailure, TaskState } from './sql-task.js';

export type { OperatorSummary } from '../exec/stats/operator-summary.js';

export interface TaskInfo {
  taskId: string;
  /** A bigint: the largest 64-bit value once the task is done (written as a JSON number, exactly). */
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

export interface PipelineStats {
  inputPipeline: boolean;
  outputPipeline: boolean;
  totalDrivers: number;
  queuedDrivers: number;
  runningDrivers: number;
  completedDrivers: number;
  memoryReservation: string;
  queuedTime: Distribution;
  elapsedTime: Distribution;
  totalScheduledTime: string;
  totalCpuTime: string;
  totalBlockedTime: string;
  rawInputDataSize: string;
  processedInputDataSize: string;
  outputDataSize: string;
  rawInputPositions: number;
  processedInputPositions: number;
  outputPositions: number;
  operatorSummaries: OperatorSummary[];
  drivers: never[];
}

export interface TaskStats {
  createTime: string;
  startTime?: string;
  endTime?: string;
  elapsedTime: string;
  queuedTime: string;
  totalScheduledTime: string;
  totalCpuTime: string;
  totalBlockedTime: string;
  totalDrivers: number;
  queuedDrivers: number;
  runningDrivers: number;
  completedDrivers: number;
  memoryReservation: string;
  peakMemoryReservation: string;
  rawInputDataSize: string;
  processedInputDataSize: string;
  outputDataSize: string;
  rawInputPositions: number;
  processedInputPositions: number;
  outputPositions: number;
  /** Splits of the task's scans, for the query's split counts. */
  totalSplits: number;
  queuedSplits: number;
  runningSplits: number;
  completedSplits: number;
  pipelines: PipelineStats[];
}

const EMPTY_BUFFERS: OutputBufferInfo = { state: 'OPEN', masterSequenceId: 0, pagesAdded: 0, buffers: [] };

export function taskInfo(task: SqlTask, self: string, nodeId: string): TaskInfo {
  return {
    taskId: task.taskId,
    version: task.version,
    state: task.state,
    self,
    nodeId,
    lastHeartbeat: task.lastHeartbeat.toISOString(),
    outputBuffers: task.outputBuffer?.info() ?? EMPTY_BUFFERS,
    noMoreSplits: task.noMoreSplits,
    stats: taskStats(task),
    failures: task.failure ? [task.failure] : [],
    outputs: {},
  };
}

function taskStats(task: SqlTask): TaskStats {
  const now = Date.now();
  const end = task.endTime?.getTime() ?? now;
  const elapsed = end - task.createTime.getTime();
  const queued = (task.startTime?.getTime() ?? end) - task.createTime.getTime();
  const operators = task.operators.all();
  const totals = pipelineTotals(operators);
  // Scheduled time is CPU time: the engine cannot see the OS take its thread away (docs/statistics.md).
  const cpu = formatDuration(totals.cpuMillis);
  const progress = task.progress;
  const done = task.endTime !== undefined || task.state === 'FLUSHING';
  const drivers = { totalDrivers: 1, queuedDrivers: task.startTime ? 0 : 1, runningDrivers: task.startTime && !done ? 1 : 0, completedDrivers: done ? 1 : 0 };
  const outputBytes = formatDataSize(task.outputBytes);
  // What the task and its one pipeline report alike.
  const common = {
    ...drivers,
    memoryReservation: formatDataSize(task.memory.reservedBytes),
    totalScheduledTime: cpu,
    totalCpuTime: cpu,
    totalBlockedTime: formatDuration(totals.blockedMillis),
    rawInputDataSize: formatDataSize(progress.processedBytes),
    processedInputDataSize: formatDataSize(progress.processedBytes),
    outputDataSize: outputBytes,
    rawInputPositions: progress.processedRows,
    processedInputPositions: progress.processedRows,
    outputPositions: task.outputRows,
  };
  const pipeline: PipelineStats = {
    inputPipeline: true,
    outputPipeline: true,
    ...common,
    queuedTime: distribution([queued]),
    elapsedTime: distribution([elapsed]),
    operatorSummaries: operatorSummaries(task),
    drivers: [],
  };
  return {
    createTime: task.createTime.toISOString(),
    ...(task.startTime ? { startTime: task.startTime.toISOString() } : {}),
    ...(task.endTime ? { endTime: task.endTime.toISOString() } : {}),
    elapsedTime: formatDuration(elapsed),
    queuedTime: formatDuration(queued),
    ...common,
    peakMemoryReservation: formatDataSize(task.memory.peakBytes),
    totalSplits: Math.max(progress.totalSplits, task.splitCounts.received),
    queuedSplits: task.splitCounts.waiting,
    runningSplits: progress.runningSplits,
    completedSplits: progress.completedSplits,
    pipelines: [pipeline],
  };
}

/**
 * One summary per operator the task ran, sources first and the task output last (a Project over a
 * Filter runs as one operator, a subtree on worker threads as one parallelSource).
 */
function operatorSummaries(task: SqlTask): OperatorSummary[] {
  return task.operators
    .all()
    .reverse()
    .map((recorder, i) => {
      const f = recorder.figures;
      const exchange = f.operatorType === ExchangeClient.name ? task.exchangeClients.get(f.planNodeId)?.status() : undefined;
      return operatorSummary(i, recorder, exchange);
    });
}

/** A distribution of a few values (one per driver): percentiles by nearest rank. */
export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  const total = sorted.reduce((a, b) => a + b, 0);
  return {
    maxError: 0,
    count: sorted.length,
    total,
    p01: at(0.01),
    p05: at(0.05),
    p10: at(0.1),
    p25: at(0.25),
    p50: at(0.5),
    p75: at(0.75),
    p90: at(0.9),
    p95: at(0.95),
    p99: at(0.99),
    min: sorted.length === 0 ? Number.NaN : sorted[0],
    max: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1],
  };
}
