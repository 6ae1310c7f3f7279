// The work this node holds now (internode/node-workload.ts), from its queries (a coordinator's) and
// its tasks (when it runs any). The sources are small interfaces, so that the figures' type does not
// pull the query manager into whoever reads them.

import type { NodeWorkload } from '../internode/node-workload.js';

/** What the node's tasks contribute. */
export interface TaskWorkloadSource {
  runningCount(): number;
  queuedSplits(): number;
  runningSplits(): number;
  bufferedBytes(): number;
}

/** What the node's queries contribute (the query manager): its counts, and each query's splits and unread output. */
export interface QueryWorkloadSource {
  runningCount(): number;
  queuedCount(): number;
  awaitingClientCount(): number;
  list(): readonly WorkloadQuery[];
}

export interface WorkloadQuery {
  readonly done: boolean;
  readonly clientFinished: boolean;
  readonly progress: { readonly queuedSplits: number; readonly runningSplits: number };
  readonly buffer: { readonly bytesBuffered: number } | undefined;
}

/**
 * The node's workload now. The queries' splits are those their local execution reports; a node
 * without a task resource runs no tasks.
 */
export function nodeWorkload(queries: QueryWorkloadSource, tasks?: TaskWorkloadSource): NodeWorkload {
  let queuedSplits = 0;
  let runningSplits = 0;
  let bufferedOutputBytes = 0;
  for (const query of queries.list()) {
    if (query.done && query.clientFinished) continue;
    queuedSplits += query.done ? 0 : query.progress.queuedSplits;
    runningSplits += query.done ? 0 : query.progress.runningSplits;
    bufferedOutputBytes += query.buffer?.bytesBuffered ?? 0;
  }
  return {
    runningQueries: queries.runningCount(),
    queuedQueries: queries.queuedCount(),
    queriesAwaitingClient: queries.awaitingClientCount(),
    runningTasks: tasks?.runningCount() ?? 0,
    queuedSplits: queuedSplits + (tasks?.queuedSplits() ?? 0),
    runningSplits: runningSplits + (tasks?.runningSplits() ?? 0),
    bufferedOutputBytes: bufferedOutputBytes + (tasks?.bufferedBytes() ?? 0),
  };
}
