// What the query manager hands a statement's execution: cancellation, memory and progress.

import type { MemoryContext } from '../exec/memory.js';
import type { QueryProgress } from '../spi/query-progress.js';
import type { QueryMemoryUsage } from './query-memory.js';
import type { StageSnapshot } from './scheduler/stage-snapshot.js';

export interface QueryExecutionContext {
  /** Aborted on cancel (DELETE) or failure; execution stops promptly. */
  signal: AbortSignal;
  /** The query's memory context (its limit is the per-query limit). */
  memory: MemoryContext;
  progress: QueryProgress;
  /** The query's memory on every node, as its tasks report it (made from `memory` when absent). */
  memoryUsage?: QueryMemoryUsage;
  /** Called when the query runs over the cluster, with its stages below the root (for the query detail). */
  onDistributed?: (stages: () => StageSnapshot[]) => void;
}
