// A coordinator and worker processes on loopback, with short announcement, heartbeat and expiry
// periods so that joins, failures and departures show within a second or two.

import { ServerProcess } from '../support/server-process.js';
import { getJson, postStatement, query, type StatementResponse } from '../support/statement-http.js';

export const ENVIRONMENT = 'cluster_test';
/** How long the coordinator keeps a node that stopped announcing. */
export const MAX_ANNOUNCEMENT_AGE_MILLIS = 3000;

export interface ClusterOptions {
  /** internal-communication.shared-secret of every node (ENGINE_SHARED_SECRET); none by default. */
  sharedSecret?: string;
  /** More environment variables of every node. */
  env?: Record<string, string>;
  /** A configuration file every node reads (`--config`), before the flags below. */
  config?: string;
  /** More flags of the coordinator's and of every worker's `engine server`. */
  coordinatorArgs?: string[];
  workerArgs?: string[];
}

export class TestCluster {
  readonly workers = new Map<string, ServerProcess>();

  private constructor(
    readonly coordinator: ServerProcess,
    /** The environment variables every node gets. */
    private readonly env: Record<string, string>,
    private readonly workerArgs: string[] = [],
  ) {}

  static async start(workerCount: number, options: ClusterOptions = {}): Promise<TestCluster> {
    const env: Record<string, string> = {
      ...options.env,
      ...(options.sharedSecret === undefined ? {} : { ENGINE_SHARED_SECRET: options.sharedSecret }),
    };
    const configArgs = options.config === undefined ? [] : ['--config', options.config];
    const coordinator = await ServerProcess.start(
      [
        '--role',
        'coordinator',
        '--node-id',
        'coordinator',
        '--environment',
        ENVIRONMENT,
        '--heartbeat-interval',
        '250ms',
        // Longer than the interval: a loaded machine answers late, not never.
        '--heartbeat-timeout',
        '2s',
        '--max-announcement-age',
        `${MAX_ANNOUNCEMENT_AGE_MILLIS}ms`,
        ...configArgs,
        ...(options.coordinatorArgs ?? []),
      ],
      env,
    );
    const cluster = new TestCluster(coordinator, env, [...configArgs, ...(options.workerArgs ?? [])]);
    try {
      await Promise.all(Array.from({ length: workerCount }, (_, i) => cluster.startWorker(`worker-${i + 1}`)));
    } catch (e) {
      await cluster.stop();
      throw e;
    }
    return cluster;
  }

  /** Starts (or restarts) a worker announcing itself to the coordinator; `env` replaces the cluster's environment variables. */
  async startWorker(nodeId: string, environment = ENVIRONMENT, env = this.env): Promise<ServerProcess> {
    const worker = await ServerProcess.start(
      [
        '--role',
        'worker',
        '--node-id',
        nodeId,
        '--environment',
        environment,
        '--discovery-uri',
        this.coordinator.uri,
        '--announcement-interval',
        '500ms',
        ...this.workerArgs,
      ],
      env,
    );
    this.workers.set(nodeId, worker);
    return worker;
  }

  /** Waits until the coordinator counts `count` workers ACTIVE (so that queries run on them). */
  async waitForActiveWorkers(count: number): Promise<void> {
    const sql = "SELECT count(*) FROM system.runtime.nodes WHERE state = 'active' AND NOT coordinator";
    await eventually(
      `${count} active workers`,
      async () => ((await query(this.coordinator.uri, sql))[0][0] === count ? true : undefined),
      20_000,
    );
  }

  worker(nodeId: string): ServerProcess {
    const worker = this.workers.get(nodeId);
    if (!worker) throw new Error(`no worker ${nodeId}`);
    return worker;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    await this.coordinator.stop();
  }
}

/** Polls `probe` until it returns a value other than undefined; fails after `timeoutMillis`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMillis = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMillis;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A task as a node's GET /v1/task lists it (the fields the tests read). */
export interface TaskEntry {
  taskId: string;
  state: string;
  failures: { message: string; errorCode?: { name: string } }[];
}

export const DONE_TASK_STATES = new Set(['FINISHED', 'CANCELED', 'ABORTED', 'FAILED']);

/** The tasks of query `queryId` that the node at `uri` holds; `headers` sign the request as a node's when the cluster is secured. */
export async function tasksOf(uri: string, queryId: string, headers: Record<string, string> = {}): Promise<TaskEntry[]> {
  const { body } = await getJson<TaskEntry[]>(`${uri}/v1/task`, { headers });
  return body.filter((t) => t.taskId.startsWith(`${queryId}.`));
}

/**
 * Posts `sql` and follows its answers until a worker of `cluster` runs one of its tasks (`nodeHeaders`
 * sign the task listing on a secured cluster): the newest answer, whose nextUri cancels the query, and its id.
 */
export async function startUntilRunningOnWorker(
  cluster: Pick<RunningCluster, 'coordinator' | 'workers'>,
  sql: string,
  headers: Record<string, string>,
  nodeHeaders: () => Record<string, string> = () => ({}),
): Promise<{ latest: StatementResponse; queryId: string }> {
  const first = (await postStatement(cluster.coordinator.uri, sql, headers)).body;
  let latest = first;
  await eventually(
    'a running task on a worker',
    async () => {
      if (latest.nextUri) latest = (await getJson<StatementResponse>(latest.nextUri)).body;
      for (const worker of cluster.workers.values())
        if ((await tasksOf(worker.uri, first.id, nodeHeaders())).some((t) => t.state === 'RUNNING')) return true;
      return undefined;
    },
    30_000,
  );
  return { latest, queryId: first.id };
}

/** The user every cluster test query runs as, and the same with joins forced to partition (repartition both sides). */
export const USER = { 'X-Engine-User': 'test' };
export const PARTITIONED = { ...USER, 'X-Engine-Session': 'join_distribution_type=PARTITIONED' };

/** What a test reads of the cluster that `withCluster` runs for it. */
export type RunningCluster = Pick<TestCluster, 'coordinator' | 'workers' | 'worker' | 'startWorker' | 'waitForActiveWorkers'>;

export interface WithClusterOptions extends ClusterOptions {
  /** A new cluster for every test (beforeEach/afterEach) instead of one for the whole describe. */
  eachTest?: boolean;
  /** Whether to wait until every worker is ACTIVE before the tests (default); off for tests that watch them join. */
  waitForWorkers?: boolean;
}

/**
 * A coordinator and `workerCount` workers, started in a before hook of the enclosing describe
 * (every worker ACTIVE unless `waitForWorkers` is false) and stopped in an after hook. `options` may
 * be a function, called in the hook, for options that earlier hooks make (a config file in a
 * temporary directory). Hooks run in the order they are declared: declare the ones that use the
 * cluster after this call.
 */
export function withCluster(workerCount: number, options: WithClusterOptions | (() => WithClusterOptions) = {}): RunningCluster {
  let current: TestCluster | undefined;
  const started = (): TestCluster => {
    if (current === undefined) throw new Error('the cluster starts in a before hook of the describe');
    return current;
  };
  const start = async () => {
    const resolved = typeof options === 'function' ? options() : options;
    current = await TestCluster.start(workerCount, resolved);
    if (resolved.waitForWorkers !== false) await current.waitForActiveWorkers(workerCount);
  };
  const stop = async () => {
    await current?.stop();
    current = undefined;
  };
  const eachTest = typeof options === 'object' && options.eachTest === true;
  (eachTest ? beforeEach : before)(start);
  (eachTest ? afterEach : after)(stop);
  return {
    get coordinator() {
      return started().coordinator;
    },
    get workers() {
      return started().workers;
    },
    worker: (nodeId) => started().worker(nodeId),
    startWorker: (...args) => started().startWorker(...args),
    waitForActiveWorkers: (count) => started().waitForActiveWorkers(count),
  };
}
