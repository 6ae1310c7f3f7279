// On a single node a query runs as one stage (stageId 0) of one task on this node; these map the
// query's lifecycle onto the stage and task states Trino reports.

import { pipelineTotals } from '../exec/stats/pipeline-totals.js';
import type { ManagedQuery } from './managed-query.js';
import type { StageSnapshot } from './scheduler/stage-snapshot.js';

export const ROOT_STAGE_ID = '0';

export type StageState = 'PLANNED' | 'SCHEDULING' | 'RUNNING' | 'FINISHED' | 'CANCELED' | 'FAILED';
export type TaskState = 'PLANNED' | 'RUNNING' | 'FLUSHING' | 'FINISHED' | 'CANCELED' | 'FAILED';
export type OutputBufferState = 'OPEN' | 'FLUSHING' | 'FINISHED' | 'ABORTED';

export function rootTaskId(query: ManagedQuery): string {
  return `${query.id}.${ROOT_STAGE_ID}.0`;
}

export function rootStageState(query: ManagedQuery): StageState {
  switch (query.state) {
    case 'QUEUED':
    case 'PLANNING':
      return 'PLANNED';
    case 'STARTING':
      return 'SCHEDULING';
    case 'RUNNING':
    case 'FINISHING':
      return 'RUNNING';
    case 'FINISHED':
      return 'FINISHED';
    case 'FAILED':
      return query.canceled ? 'CANCELED' : 'FAILED';
  }
}

export function rootTaskState(query: ManagedQuery): TaskState {
  switch (query.state) {
    case 'QUEUED':
    case 'PLANNING':
    case 'STARTING':
      return 'PLANNED';
    case 'RUNNING':
      return 'RUNNING';
    case 'FINISHING':
      return 'FLUSHING';
    case 'FINISHED':
      return 'FINISHED';
    case 'FAILED':
      return query.canceled ? 'CANCELED' : 'FAILED';
  }
}

export function outputBufferState(query: ManagedQuery): OutputBufferState {
  if (query.state === 'FAILED') return 'ABORTED';
  if (query.state === 'FINISHED') return 'FINISHED';
  return query.buffer?.producerFinished ? 'FLUSHING' : 'OPEN';
}

/** A stage or task is done once it reached a final state. */
export function isFinalState(state: StageState | TaskState): boolean {
  return state === 'FINISHED' || state === 'CANCELED' || state === 'FAILED';
}

/**
 * The root stage's own figures (its one task, which runs in the query itself): what its operators
 * did, and its share of the query's splits (the query's less those of the stages below). The query's
 * totals are the query's, not the root's.
 */
export function rootTaskFigures(query: ManagedQuery) {
  const totals = pipelineTotals(query.rootOperators.all());
  const p = query.progress;
  const below = flattenStages(query.subStages());
  const splits = (pick: (stage: StageSnapshot) => number, total: number) =>
    Math.max(0, total - below.reduce((sum, stage) => sum + pick(stage), 0));
  return {
    ...totals,
    totalSplits: splits((s) => s.totalSplits, p.totalSplits),
    queuedSplits: splits((s) => s.queuedSplits, p.queuedSplits),
    runningSplits: splits((s) => s.runningSplits, p.runningSplits),
    completedSplits: splits((s) => s.completedSplits, p.completedSplits),
  };
}

export function flattenStages(stages: readonly StageSnapshot[]): StageSnapshot[] {
  return stages.flatMap((s) => [s, ...flattenStages(s.subStages)]);
}
