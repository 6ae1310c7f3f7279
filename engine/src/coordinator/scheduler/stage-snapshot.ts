// A stage of a distributed query as the query detail and the statement stats show it: its state
// from its tasks' states, its split, row, byte and time figures summed over its tasks' last info,
// the tasks themselves, and the stages below it.

import type { TaskInfo } from '../../internode/task-info.js';
import type { PlanFragment } from '../../sql/planner/distributed/fragmenter.js';
import type { RemoteTask } from './remote-task.js';

export interface StageSnapshot {
  /** `<queryId>.<fragment id>` */
  stageId: string;
  /** The fragment's number (the statement stats name stages by it). */
  fragmentId: number;
  state: string;
  done: boolean;
  nodes: number;
  totalSplits: number;
  queuedSplits: number;
  runningSplits: number;
  completedSplits: number;
  cpuTimeMillis: number;
  wallTimeMillis: number;
  processedRows: number;
  processedBytes: number;
  failedTasks: number;
  coordinatorOnly: boolean;
  tasks: TaskInfo[];
  subStages: StageSnapshot[];
}

export function stageSnapshot(
  queryId: string,
  fragment: PlanFragment,
  tasks: readonly RemoteTask[],
  children: StageSnapshot[],
): StageSnapshot {
  const infos = tasks.map((t) => t.info).filter((i): i is TaskInfo => i !== undefined);
  const sum = (pick: (info: TaskInfo) => number) => infos.reduce((total, info) => total + pick(info), 0);
  const state = stageState(
    infos.map((i) => i.state),
    tasks.length,
  );
  return {
    stageId: `${queryId}.${fragment.id}`,
    fragmentId: fragment.id,
    state,
    done: state === 'FINISHED' || state === 'FAILED' || state === 'ABORTED' || state === 'CANCELED',
    nodes: new Set(tasks.map((t) => t.node.nodeId)).size,
    totalSplits: sum((i) => i.stats.totalSplits),
    queuedSplits: sum((i) => i.stats.queuedSplits),
    runningSplits: sum((i) => i.stats.runningSplits),
    completedSplits: sum((i) => i.stats.completedSplits),
    cpuTimeMillis: Math.round(sum((i) => i.stats.totalCpuTime)),
    wallTimeMillis: Math.round(sum((i) => i.stats.elapsedTime)),
    processedRows: sum((i) => i.stats.rawInputPositions),
    processedBytes: sum((i) => i.stats.rawInputDataSize),
    failedTasks: infos.filter((i) => i.state === 'FAILED').length,
    coordinatorOnly: fragment.partitioning === 'COORDINATOR_ONLY',
    tasks: infos,
    subStages: children,
  };
}

/** Trino's stage states from its tasks': failed if one failed, running while any runs, finished once all did. */
function stageState(states: readonly string[], taskCount: number): string {
  if (states.length < taskCount) return 'SCHEDULING';
  if (states.includes('FAILED')) return 'FAILED';
  if (states.every((s) => s === 'FINISHED')) return 'FINISHED';
  if (states.some((s) => s === 'ABORTED')) return states.every(isDone) ? 'ABORTED' : 'RUNNING';
  if (states.some((s) => s === 'CANCELED')) return states.every(isDone) ? 'CANCELED' : 'RUNNING';
  if (states.some((s) => s === 'RUNNING' || s === 'FLUSHING' || s === 'FINISHED')) return 'RUNNING';
  return 'SCHEDULED';
}

function isDone(state: string): boolean {
  return state === 'FINISHED' || state === 'FAILED' || state === 'ABORTED' || state === 'CANCELED';
}
