// What the query manager hands a statement's execution: cancellation, memory and progress.

import type { Session } from '../spi/session.js';
import type { MemoryContext } from '../exec/memory.js';
import type { QueryProgress } from '../spi/query-progress.js';
import type { QueryMemoryUsage } from './query-memory.js';
import type { OperatorRecorders } from '../exec/stats/operator-recorder.js';
import type { StageSnapshot } from './scheduler/stage-snapshot.js';
import type { PlanFragment } from '../sql/planner/distributed/fragmenter.js';

/** A query running over the cluster, as its detail shows it. */
export interface DistributedView {
  /** Its stages below the root. */
  subStages(): StageSnapshot[];
  /** The nodes running or having run some of it: this one (the root stage) and those of its tasks. */
  nodeCount(): number;
  /** Its fragments, the root fragment first (the web interface draws them). */
  readonly root: PlanFragment;
}

export interface QueryExecutionContext {
  /** Aborted on cancel (DELETE) or failure; execution stops promptly. */
  signal: AbortSignal;
  /** The query's memory context (its limit is the per-query limit). */
  memory: MemoryContext;
  progress: QueryProgress;
  /** The query's memory on every node, as its tasks report it (made from `memory` when absent). */
  memoryUsage?: QueryMemoryUsage;
  /** Where the operators of the root stage (which runs in the query itself) are counted and timed. */
  operators?: OperatorRecorders;
  /** Called when the query runs over the cluster, with what the query detail shows of it. */
  onDistributed?: (view: DistributedView) => void;
  /**
   * Runs work a cancel must not cut short (a write's commit): a cancel meanwhile waits for it, and is
   * dropped if the work succeeded (see CancelHold). Without it, the work just runs.
   */
  holdCancel?: <T>(work: () => Promise<T>) => Promise<T>;
  /** Called when the statement runs in a session of its own (WITH SESSION): the query's limits follow it. */
  onQuerySession?: (session: Session) => void;
}
