// The work a node holds, as GET /v1/status reports it: what an autoscaler, a drain (cli/node-drain.ts)
// and the Kubernetes operator look at, and what the node state machine waits on before ISOLATING
// becomes ISOLATED and before SHUTTING_DOWN exits. Plain figures and functions of them, with no
// dependency on the rest of the engine: the operator imports this file (package export
// `engine/node-workload`); server/node-workload.ts computes the figures.

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

/**
 * Whether anything still needs the node: queries running, queued or not yet read to the end, or
 * tasks running. Takes a partial workload so that a client can apply it to any server's /v1/status.
 */
export function hasActiveWork(workload: Partial<NodeWorkload>): boolean {
  return (
    (workload.runningQueries ?? 0) + (workload.queuedQueries ?? 0) + (workload.queriesAwaitingClient ?? 0) + (workload.runningTasks ?? 0) >
    0
  );
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
