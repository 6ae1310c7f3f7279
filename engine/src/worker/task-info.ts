// A task's info (internode/task-info.ts) as this node makes it from the running task: state and
// version, output buffers, stats with one pipeline whose operator summaries carry what each
// operator counted and timed as it ran (exec/stats), failures. Figures stay numbers; the task
// resource writes them out (internode/task-info-codec.ts). Summarized (Trino's `?summarize`, which
// the coordinator asks for while it follows a task), a running task's info leaves its pipelines
// out: the coordinator takes the task's totals from every answer, and its operators from the final one.

import { operatorSummary } from '../exec/stats/operator-summary.js';
import { pipelineTotals } from '../exec/stats/pipeline-totals.js';
import {
  isDoneState,
  type Distribution,
  type OperatorSummary,
  type OutputBufferInfo,
  type PipelineStats,
  type TaskInfo,
  type TaskStats,
} from '../internode/task-info.js';
import { ExchangeClient } from './exchange-client.js';
import { MergingExchangeClient } from './merging-exchange-client.js';
import type { SqlTask } from './sql-task.js';

const EMPTY_BUFFERS: OutputBufferInfo = { state: 'OPEN', masterSequenceId: 0, pagesAdded: 0, buffers: [] };

/** `summarize`: without the pipelines while the task is not done (a done task's info is whole either way). */
export function taskInfo(task: SqlTask, self: string, nodeId: string, summarize = false): TaskInfo {
  return {
    taskId: task.taskId,
    version: task.version,
    state: task.state,
    self,
    nodeId,
    lastHeartbeat: task.lastHeartbeat.toISOString(),
    outputBuffers: task.outputBuffer?.info() ?? EMPTY_BUFFERS,
    noMoreSplits: [...task.noMoreSplits],
    stats: taskStats(task, summarize && !isDoneState(task.state)),
    failures: task.failure ? [task.failure] : [],
    outputs: {},
    ...dynamicFiltersVersion(task),
  };
}

/** How many remote filters' domains the task's joins completed: the coordinator fetches those it has not seen (not in every info). */
function dynamicFiltersVersion(task: SqlTask): Pick<TaskInfo, 'dynamicFiltersVersion'> {
  const version = task.dynamicFilters.publishedDomains().length;
  return version === 0 ? {} : { dynamicFiltersVersion: version };
}

function taskStats(task: SqlTask, withoutPipelines: boolean): TaskStats {
  const now = Date.now();
  const end = task.endTime?.getTime() ?? now;
  const elapsed = end - task.createTime.getTime();
  const queued = (task.startTime?.getTime() ?? end) - task.createTime.getTime();
  const operators = task.operators.all();
  const totals = pipelineTotals(operators);
  // Scheduled time is CPU time: the engine cannot see the OS take its thread away (docs/statistics.md).
  const cpu = totals.cpuMillis;
  const progress = task.progress;
  const done = task.endTime !== undefined || task.state === 'FLUSHING';
  const drivers = {
    totalDrivers: 1,
    queuedDrivers: task.startTime ? 0 : 1,
    runningDrivers: task.startTime && !done ? 1 : 0,
    completedDrivers: done ? 1 : 0,
  };
  const outputBytes = task.outputBytes;
  // What the task and its one pipeline report alike.
  const common = {
    ...drivers,
    memoryReservation: task.memory.reservedBytes,
    totalScheduledTime: cpu,
    totalCpuTime: cpu,
    totalBlockedTime: totals.blockedMillis,
    rawInputDataSize: progress.processedBytes,
    processedInputDataSize: progress.processedBytes,
    outputDataSize: outputBytes,
    rawInputPositions: progress.processedRows,
    processedInputPositions: progress.processedRows,
    outputPositions: task.outputRows,
  };
  const pipelines = (): PipelineStats[] => [
    {
      inputPipeline: true,
      outputPipeline: true,
      ...common,
      queuedTime: distribution([queued]),
      elapsedTime: distribution([elapsed]),
      operatorSummaries: operatorSummaries(task),
      drivers: [],
    },
  ];
  return {
    createTime: task.createTime.toISOString(),
    ...(task.startTime ? { startTime: task.startTime.toISOString() } : {}),
    ...(task.endTime ? { endTime: task.endTime.toISOString() } : {}),
    elapsedTime: elapsed,
    queuedTime: queued,
    ...common,
    peakMemoryReservation: task.memory.peakBytes,
    totalSplits: Math.max(progress.totalSplits, task.splitCounts.received),
    queuedSplits: task.splitCounts.waiting,
    runningSplits: progress.runningSplits,
    completedSplits: progress.completedSplits,
    pipelines: withoutPipelines ? [] : pipelines(),
  };
}

/** The operators that read remote sources, whose summaries carry their exchange's figures. */
const EXCHANGE_OPERATORS = new Set([ExchangeClient.name, MergingExchangeClient.name]);

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
      const exchange = EXCHANGE_OPERATORS.has(f.operatorType) ? task.exchangeClients.get(f.planNodeId)?.status() : undefined;
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
