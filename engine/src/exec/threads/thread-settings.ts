// When and how wide a query runs on worker threads, from its session properties.

import { integerSessionProperty } from '../../spi/session-properties.js';
import type { Session } from '../../spi/session.js';
import { sharedThreadPool } from './thread-pool.js';

export interface ParallelSettings {
  /** Worker threads one scan pipeline runs on: task_concurrency, at most the node's worker threads (task.maxWorkerThreads). */
  workers: number;
  /** A scan with fewer splits stays in the main thread (a worker round trip costs more than it saves); 0: never. */
  minSplits: number;
}

/** `nodeThreads`: the worker threads of the node that runs the query (default: this node's). */
export function parallelSettings(session: Session, nodeThreads = sharedThreadPool().maxThreads): ParallelSettings {
  const concurrency = integerSessionProperty(session, 'task_concurrency');
  return {
    workers: Math.max(1, Math.min(concurrency, nodeThreads)),
    minSplits: integerSessionProperty(session, 'parallel_min_splits'),
  };
}
