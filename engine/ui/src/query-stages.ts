// A query detail's stages as a flat list (the root stage first), and their tasks with the node each
// ran on and the figures the stage table, the plan and the timeline read.

import type { QueryDetail, StageJson, TaskJson } from './api-types.js';
import { durationMillis, sizeBytes } from './format.js';

export interface TaskFigures {
  task: TaskJson;
  stageId: string;
  node: string;
  wallMillis: number;
  cpuMillis: number;
  inputRows: number;
  inputBytes: number;
  outputRows: number;
  outputBytes: number;
  memoryBytes: number;
  peakMemoryBytes: number;
  startMillis: number | undefined;
  endMillis: number | undefined;
}

export function flattenStages(detail: QueryDetail): StageJson[] {
  const out: StageJson[] = [];
  const visit = (stage: StageJson) => {
    out.push(stage);
    stage.subStages.forEach(visit);
  };
  if (detail.outputStage) visit(detail.outputStage);
  return out;
}

export function taskFigures(stage: StageJson, coordinator: string): TaskFigures[] {
  return stage.tasks.map((task) => ({
    task,
    stageId: stage.stageId,
    node: task.nodeId ?? coordinator,
    wallMillis: durationMillis(task.stats.elapsedTime),
    cpuMillis: durationMillis(task.stats.totalCpuTime),
    inputRows: task.stats.rawInputPositions,
    inputBytes: sizeBytes(task.stats.rawInputDataSize),
    outputRows: task.stats.outputPositions,
    outputBytes: sizeBytes(task.stats.outputDataSize),
    memoryBytes: sizeBytes(task.stats.memoryReservation),
    peakMemoryBytes: sizeBytes(task.stats.peakMemoryReservation),
    startMillis: task.stats.createTime ? Date.parse(task.stats.createTime) : undefined,
    endMillis: task.stats.endTime ? Date.parse(task.stats.endTime) : undefined,
  }));
}

/**
 * The tasks of a stage far slower or larger than their siblings: wall time or rows read over twice
 * the stage's median (and past a floor, so that tiny differences of tiny tasks do not count).
 */
export function skewedTasks(tasks: readonly TaskFigures[]): Set<string> {
  const skewed = new Set<string>();
  if (tasks.length < 2) return skewed;
  const check = (pick: (t: TaskFigures) => number, floor: number) => {
    const median = medianOf(tasks.map(pick));
    for (const t of tasks) if (pick(t) > 2 * median && pick(t) - median > floor) skewed.add(t.task.taskId);
  };
  check((t) => t.wallMillis, 500);
  check((t) => t.inputRows, 10_000);
  return skewed;
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
