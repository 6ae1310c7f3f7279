// The work a node holds, in one place: GET /v1/status reports it (what an autoscaler or a drain
// looks at), and the node state machine waits on it before ISOLATING becomes ISOLATED and before
// SHUTTING_DOWN exits. Queries are the coordinator's; tasks (when the node runs any) add theirs.

import type { QueryManager } from '../coordinator/query-manager.js';

export interface NodeWorkload {
  /** Queries admitted and not yet FINISHED or FAILED. */
  runningQueries: number;
  /** Queries waiting in a resource group's queue. */
  queuedQueries: number;
  /** Queries that ended but whose client has not read the final response yet: a shutdown waits for them too. */
  queriesAwaitingClient: number;
  runningTasks: number;
  queuedSplits: number;
  runningSplits: number;
  /** Output not yet taken by its reader: query results waiting for their client, task output for its consumer. */
  bufferedOutputBytes: number;
}

/** What the node's tasks contribute. */
export interface TaskWorkloadSource {
  runningCount(): number;
  queuedSplits(): number;
  runningSplits(): number;
  bufferedBytes(): number;
}

export type QueryWorkloadSource = Pick<QueryManager, 'runningCount' | 'queuedCount' | 'awaitingClientCount' | 'list'>;

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

/**
 * Whether anything still needs the node: queries running, queued or not yet read to the end, or
 * tasks running. Takes a partial workload so that a client can apply it to any server's /v1/status.
 */
export function hasActiveWork(workload: Partial<NodeWorkload>): boolean {
  return (workload.runningQueries ?? 0) + (workload.queuedQueries ?? 0) + (workload.queriesAwaitingClient ?? 0) + (workload.runningTasks ?? 0) > 0;
}

/** The non-zero counts, for a log line or a progress message: "2 running queries, 1 running task". */
export function describeWorkload(workload: Partial<NodeWorkload>): string {
  const counts: Array<[number | undefined, string, string]> = [
    [workload.runningQueries, 'running query', 'running queries'],
    [workload.queuedQueries, 'queued query', 'queued queries'],
    [workload.queriesAwaitingClient, 'finished query awaiting its client', 'finished queries awaiting their clients'],
    [workload.runningTasks, 'running task', 'running tasks'],
    [workload.queuedSplits, 'queued split', 'queued splits'],
    [workload.runningSplits, 'running split', 'running splits'],
  ];
  const described = counts.filter(([count]) => (count ?? 0) > 0).map(([count, one, many]) => `${count} ${count === 1 ? one : many}`);
  return described.length === 0 ? 'no work' : described.join(', ');
}
