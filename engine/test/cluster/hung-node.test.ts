// A node that stops answering without exiting — stopped with SIGSTOP, as a frozen VM or a stuck
// process would be: the queries whose tasks it holds fail with REMOTE_HOST_GONE naming it once its
// health checks have failed and it answered nothing for 10 s, or, where the health checks do not see
// it, once their requests to it have failed for query.remoteTaskMaxErrorDuration; it stays in
// /v1/node/failed until it answers again or is forgotten for not announcing (and is declared gone all
// the same); once it runs again (SIGCONT) the tasks of those queries end there, and a task whose
// coordinator kept asking is not failed as abandoned for the time the node was stopped.
// The time from SIGSTOP to each failure is printed; nothing asserts on it.

import { expect } from 'chai';
import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import type { ServerProcess } from '../support/server-process.js';
import { getJson, postStatement, query, runStatement, type StatementResponse } from '../support/statement-http.js';
import {
  DONE_TASK_STATES,
  eventually,
  tasksOf as nodeTasks,
  withCluster,
  type ClusterOptions,
  type RunningCluster,
  type TaskEntry,
} from './cluster-fixture.js';

const SECRET = 'hung-node-secret';
/** The tests read the workers' task lists, an internal endpoint: they sign as a node would. */
const internal = new InternalAuthenticator(SECRET, 'test');
const USER = { 'X-Engine-User': 'test' };
/** Seconds of work on each worker: still running when a worker is stopped. */
const LONG_QUERY = "SELECT count(*) FROM tpch.sf1.lineitem WHERE l_comment LIKE '%carefully%'";

function tasksOf(worker: ServerProcess, queryId: string): Promise<TaskEntry[]> {
  return nodeTasks(worker.uri, queryId, internal.authorizationHeader());
}

/** A secured coordinator and 2 workers for the enclosing describe. */
function securedCluster(options: ClusterOptions): RunningCluster {
  return withCluster(2, { sharedSecret: SECRET, ...options });
}

/** Starts `count` queries and waits until `worker` runs a task of each. */
async function startQueries(cluster: RunningCluster, worker: ServerProcess, count: number, sql = LONG_QUERY): Promise<StatementResponse[]> {
  const firsts = await Promise.all(
    Array.from({ length: count }, async () => (await postStatement(cluster.coordinator.uri, sql, USER)).body),
  );
  for (const first of firsts) {
    await eventually(
      `a running task of ${first.id} on the worker`,
      async () => ((await tasksOf(worker, first.id)).some((t) => t.state === 'RUNNING') ? true : undefined),
      60_000,
    );
  }
  return firsts;
}

/** Follows a query to its final response; `rows` gets its rows. */
async function finalResponse(first: StatementResponse, rows: unknown[][] = []): Promise<StatementResponse> {
  let response = first;
  while (response.nextUri) {
    response = (await getJson<StatementResponse>(response.nextUri)).body;
    rows.push(...(response.data ?? []));
  }
  return response;
}

/** Whether the coordinator lists `worker` in `path` (/v1/node or /v1/node/failed). */
async function listed(cluster: RunningCluster, path: string, worker: ServerProcess): Promise<boolean> {
  return (await getJson<{ uri: string }[]>(`${cluster.coordinator.uri}${path}`)).body.some((n) => n.uri === worker.uri);
}

/** Stops `node` with SIGSTOP while `during` runs; it runs again (SIGCONT) after, whatever happened. */
async function whileStopped<T>(node: ServerProcess, during: (stoppedAt: number) => Promise<T>): Promise<T> {
  const stoppedAt = Date.now();
  node.signal('SIGSTOP');
  try {
    return await during(stoppedAt);
  } finally {
    node.signal('SIGCONT');
  }
}

function expectGone(response: StatementResponse, nodeId: string, stoppedAt: number, path: string): void {
  console.log(
    `      ${response.id} failed ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s after SIGSTOP (${path}): ${response.error?.message}`,
  );
  expect(response.error?.errorName, response.error?.message).to.equal('REMOTE_HOST_GONE');
  expect(response.error?.message).to.contain(`Node ${nodeId} (`);
}

describe('a worker stopped with SIGSTOP, seen by the health checks', function () {
  this.timeout(240_000);
  // Announcements do not expire during the test: only the health checks tell the worker is gone.
  const cluster = securedCluster({ coordinatorArgs: ['--max-announcement-age', '10m'] });

  it('fails the queries whose tasks it holds with REMOTE_HOST_GONE naming it; listed as failed until it answers again, when it ends their tasks and takes new ones', async () => {
    const victim = cluster.worker('worker-2');
    const firsts = await startQueries(cluster, victim, 2);
    const finals = await whileStopped(victim, async (stoppedAt) => {
      const responses = await Promise.all(firsts.map((first) => finalResponse(first)));
      for (const response of responses) {
        expectGone(response, 'worker-2', stoppedAt, 'health checks');
        expect(response.error?.message).to.contain('failed its health checks and answered nothing for');
      }
      // Still known, as failed, for as long as it does not answer; the next query runs on worker-1 alone.
      expect(await listed(cluster, '/v1/node', victim), 'in /v1/node').to.equal(true);
      expect(await listed(cluster, '/v1/node/failed', victim), 'in /v1/node/failed').to.equal(true);
      expect(await query(cluster.coordinator.uri, 'SELECT count(*) FROM tpch.tiny.lineitem')).to.deep.equal([[60175]]);
      expect(await listed(cluster, '/v1/node/failed', victim), 'still in /v1/node/failed').to.equal(true);
      return responses;
    });

    await eventually('worker-2 answers again', async () => ((await listed(cluster, '/v1/node/failed', victim)) ? undefined : true), 20_000);
    // The abort of each task, sent while the node was stopped, waited in its socket: read now, it ends the task.
    for (const final of finals) {
      const tasks = await eventually(
        `tasks of ${final.id} ended on worker-2`,
        async () => {
          const list = await tasksOf(victim, final.id);
          return list.every((t) => DONE_TASK_STATES.has(t.state)) ? list : undefined;
        },
        20_000,
      );
      expect(tasks.map((t) => t.state)).to.deep.equal(tasks.map(() => 'ABORTED'));
    }
    await cluster.waitForActiveWorkers(2);
    // Three splits (tiny's one split would give one worker a task): TPC-H's SF x 1,500,000 orders.
    const run = await runStatement(cluster.coordinator.uri, 'SELECT count(*) FROM tpch."sf0.1".orders', USER);
    expect(run.rows).to.deep.equal([[150000]]);
    expect((await tasksOf(victim, run.final.id)).length, 'worker-2 ran a task of the next query').to.be.greaterThan(0);
  });
});

describe('a worker stopped with SIGSTOP until it is forgotten', function () {
  this.timeout(120_000);
  // The fixture forgets a node 3 s after its last announcement: before the health checks declare it gone, which they do all the same.
  const cluster = securedCluster({});

  it('is listed as failed, then forgotten, and its queries fail with REMOTE_HOST_GONE naming it; it comes back when it runs again', async () => {
    const victim = cluster.worker('worker-2');
    const [first] = await startQueries(cluster, victim, 1);
    await whileStopped(victim, async (stoppedAt) => {
      await eventually(
        'worker-2 in /v1/node/failed',
        async () => ((await listed(cluster, '/v1/node/failed', victim)) ? true : undefined),
        20_000,
      );
      await eventually('worker-2 forgotten', async () => ((await listed(cluster, '/v1/node', victim)) ? undefined : true), 20_000);
      expect(await listed(cluster, '/v1/node/failed', victim)).to.equal(false);
      const final = await finalResponse(first!);
      expectGone(final, 'worker-2', stoppedAt, 'health checks, forgotten');
      expect(final.error?.message).to.contain('failed its health checks and answered nothing for');
    });
    await cluster.waitForActiveWorkers(2);
    expect(await query(cluster.coordinator.uri, 'SELECT count(*) FROM tpch.tiny.orders')).to.deep.equal([[15000]]);
  });
});

describe('a worker stopped with SIGSTOP that the health checks do not see', function () {
  this.timeout(180_000);
  // One health check a minute: the task requests' own bound (2 s of failures here) fails the query.
  const cluster = securedCluster({
    coordinatorArgs: ['--heartbeat-interval', '60s', '--max-announcement-age', '10m', '--query-remote-task-max-error-duration', '2s'],
  });

  it('fails the query with REMOTE_HOST_GONE naming it once its requests have failed for query.remoteTaskMaxErrorDuration', async () => {
    const victim = cluster.worker('worker-2');
    const [first] = await startQueries(cluster, victim, 1);
    await whileStopped(victim, async (stoppedAt) => expectGone(await finalResponse(first!), 'worker-2', stoppedAt, 'failed requests'));
  });
});

describe('a worker that runs again after a stop longer than task.clientTimeout', function () {
  this.timeout(180_000);
  // The coordinator checks seldom and tolerates a minute of failed requests: it keeps following the tasks of a
  // stopped worker, whose requests wait in the worker's sockets. The workers fail a task after 5 s without a request.
  const cluster = securedCluster({
    coordinatorArgs: ['--heartbeat-interval', '60s', '--max-announcement-age', '10m'],
    workerArgs: ['--task-client-timeout', '5s'],
  });

  it('does not fail a task its coordinator kept asking about as abandoned: the query answers', async () => {
    const victim = cluster.worker('worker-2');
    const [first] = await startQueries(cluster, victim, 1, 'SELECT count(*) FROM tpch.sf1.lineitem');
    await whileStopped(victim, () => new Promise((resolve) => setTimeout(resolve, 8000)));
    const rows: unknown[][] = [];
    const final = await finalResponse(first!, rows);
    expect(final.error?.errorName, final.error?.message).to.equal(undefined);
    // TPC-H's row count of lineitem at scale factor 1.
    expect(rows).to.deep.equal([[6001215]]);
    const tasks = await tasksOf(victim, first!.id);
    expect(tasks.map((t) => t.state)).to.deep.equal(tasks.map(() => 'FINISHED'));
  });

  it('still fails, as abandoned, the tasks of a coordinator that stopped asking', async () => {
    const worker = cluster.worker('worker-1');
    const [first] = await startQueries(cluster, worker, 1);
    await whileStopped(cluster.coordinator, async () => {
      const tasks = await eventually(
        'the tasks on worker-1 abandoned',
        async () => {
          const list = await tasksOf(worker, first!.id);
          return list.every((t) => t.state === 'FAILED') ? list : undefined;
        },
        30_000,
      );
      for (const task of tasks) expect(task.failures[0]?.errorCode?.name, task.failures[0]?.message).to.equal('ABANDONED_TASK');
    });
  });
});
