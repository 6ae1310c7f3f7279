// What happens to a distributed query when it ends early: a user's cancel and a task's failure
// reach every task of the query on every node (none is left running), and a worker killed with
// SIGKILL mid-query fails the query within seconds with an error naming the node, after which the
// remaining worker runs the next query and the restarted worker gets tasks again.

import { expect } from 'chai';
import { getJson, query, runStatement, type StatementResponse } from '../support/statement-http.js';
import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import {
  DONE_TASK_STATES,
  eventually,
  startUntilRunningOnWorker,
  tasksOf as workerTasks,
  type TaskEntry,
  withCluster,
} from './cluster-fixture.js';

const SECRET = 'cluster-test-secret';
/** The tests read the workers' task lists, an internal endpoint: they sign as a node would. */
const internal = new InternalAuthenticator(SECRET, 'test');
const USER = { 'X-Engine-User': 'test' };
const LONG_QUERY = "SELECT count(*) FROM tpch.sf1.lineitem WHERE l_comment LIKE '%carefully%'";

/** The tasks of query `queryId` that the node at `uri` holds. */
function tasksOf(uri: string, queryId: string): Promise<TaskEntry[]> {
  return workerTasks(uri, queryId, internal.authorizationHeader());
}

/** Health checks and announcement expiry a minute apart: the coordinator keeps its view of the workers. */
const SELDOM_CHECKED = { sharedSecret: SECRET, coordinatorArgs: ['--heartbeat-interval', '60s', '--max-announcement-age', '60s'] };

describe('distributed queries that end early', function () {
  this.timeout(180_000);
  const cluster = withCluster(2, { sharedSecret: SECRET });

  /** Starts a long query and waits until a worker runs one of its tasks. */
  async function startLongQuery(sql = LONG_QUERY): Promise<{ first: StatementResponse; queryId: string }> {
    const { latest, queryId } = await startUntilRunningOnWorker(cluster, sql, USER, () => internal.authorizationHeader());
    return { first: latest, queryId };
  }

  it('a cancelled query leaves no task running on any worker', async () => {
    // Minutes of work that sends nothing up until its end: the cancel must not wait for it.
    const { first, queryId } = await startLongQuery("SELECT count(*) FROM tpch.sf10.lineitem WHERE l_comment LIKE '%carefully%'");
    const cancel = await fetch(first.nextUri!, { method: 'DELETE' });
    expect(cancel.status).to.equal(204);
    for (const worker of cluster.workers.values()) {
      await eventually(
        `tasks of ${queryId} done on ${worker.uri}`,
        async () => ((await tasksOf(worker.uri, queryId)).every((t) => DONE_TASK_STATES.has(t.state)) ? true : undefined),
        20_000,
      );
      expect((await tasksOf(worker.uri, queryId)).length).to.be.greaterThan(0);
    }
    const { body: detail } = await getJson<{ state: string; errorCode: { name: string } }>(
      `${cluster.coordinator.uri}/v1/query/${queryId}`,
      { headers: USER },
    );
    expect(detail.state).to.equal('FAILED');
    expect(detail.errorCode.name).to.equal('USER_CANCELED');
  });

  it("a task's failure fails the query with its error, and every other task of it ends", async () => {
    const run = await runStatement(cluster.coordinator.uri, 'SELECT l_orderkey / (l_linenumber - l_linenumber) FROM tpch.tiny.lineitem', {
      'X-Engine-User': 'test',
    });
    expect(run.final.error?.errorName).to.equal('DIVISION_BY_ZERO');
    for (const worker of cluster.workers.values()) {
      await eventually(
        'tasks done',
        async () => ((await tasksOf(worker.uri, run.final.id)).every((t) => DONE_TASK_STATES.has(t.state)) ? true : undefined),
        20_000,
      );
    }
  });

  it('a worker killed mid-query fails the query naming it; the other worker runs the next; the restarted one rejoins', async () => {
    const { first, queryId } = await startLongQuery();
    const victim = cluster.worker('worker-2');
    const killedAt = Date.now();
    victim.signal('SIGKILL');
    await victim.waitForExit();
    // Listed as failed from the next health check on (until it is forgotten for not announcing).
    await eventually(
      'worker-2 in /v1/node/failed',
      async () =>
        (await getJson<{ uri: string }[]>(`${cluster.coordinator.uri}/v1/node/failed`)).body.some((n) => n.uri === victim.uri)
          ? true
          : undefined,
      3000,
    );
    let response = first;
    while (response.nextUri) response = (await getJson<StatementResponse>(response.nextUri)).body;
    const failedAfter = Date.now() - killedAt;
    expect(response.error?.errorName, response.error?.message).to.equal('REMOTE_HOST_GONE');
    expect(response.error?.message).to.contain('worker-2');
    expect(failedAfter, 'the query fails within 10 s of the kill').to.be.below(10_000);
    expect((await getJson<{ state: string }>(`${cluster.coordinator.uri}/v1/query/${queryId}`, { headers: USER })).body.state).to.equal(
      'FAILED',
    );

    // The next query runs on worker-1 alone.
    await cluster.waitForActiveWorkers(1);
    expect(await query(cluster.coordinator.uri, 'SELECT count(*) FROM tpch.tiny.lineitem')).to.deep.equal([[60175]]);

    const restarted = await cluster.startWorker('worker-2');
    await cluster.waitForActiveWorkers(2);
    // A stage on every worker: the final aggregation's (a scan of tiny's orders, one split, runs on one worker only).
    const run = await runStatement(
      cluster.coordinator.uri,
      'SELECT count(*) FROM (SELECT o_custkey FROM tpch.tiny.orders GROUP BY o_custkey)',
      {
        'X-Engine-User': 'test',
      },
    );
    expect(run.rows).to.deep.equal([[1000]]);
    expect((await tasksOf(restarted.uri, run.final.id)).length, 'the restarted worker ran a task of the query').to.be.greaterThan(0);
  });
});

describe('a worker whose process is gone before the coordinator noticed', function () {
  this.timeout(60_000);
  // The coordinator keeps counting a killed worker ACTIVE.
  const cluster = withCluster(2, SELDOM_CHECKED);

  it('gets no task of a new query: the query is placed again on the others and answers', async () => {
    const victim = cluster.worker('worker-2');
    victim.signal('SIGKILL');
    await victim.waitForExit();
    const run = await runStatement(cluster.coordinator.uri, 'SELECT count(*), sum(l_quantity) FROM tpch.tiny.lineitem', USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.rows).to.deep.equal([[60175, '1536127.00']]);
    expect((await tasksOf(cluster.worker('worker-1').uri, run.final.id)).length, 'worker-1 ran it').to.be.greaterThan(0);
  });
});

describe('a query placed again after a refusal', function () {
  this.timeout(120_000);
  // The coordinator does not check worker-2 again: the first query is refused there and placed again
  // (worker-2 is then left out until its next check).
  const cluster = withCluster(2, SELDOM_CHECKED);

  it('leaves no task of its first placement on any node (each is cancelled once its creation settled)', async () => {
    const isolate = await fetch(`${cluster.worker('worker-2').uri}/v1/info/state`, {
      method: 'PUT',
      body: '"ISOLATED"',
      headers: { 'Content-Type': 'application/json', ...internal.authorizationHeader() },
    });
    expect(isolate.status).to.equal(200);
    const sql =
      'SELECT o_orderpriority, count(*) FROM tpch.tiny.orders JOIN tpch.tiny.lineitem ON o_orderkey = l_orderkey GROUP BY 1 ORDER BY 1';
    const expected = await query(cluster.coordinator.uri, sql);
    const runs = await Promise.all(Array.from({ length: 12 }, () => runStatement(cluster.coordinator.uri, sql, USER)));
    for (const run of runs) expect(run.rows).to.deep.equal(expected);
    const worker1 = cluster.worker('worker-1').uri;
    await eventually(
      'every task of worker-1 in a final state',
      async () => {
        const { body } = await getJson<TaskEntry[]>(`${worker1}/v1/task`, { headers: { ...internal.authorizationHeader() } });
        const live = body.filter((t) => !DONE_TASK_STATES.has(t.state));
        return live.length === 0 ? true : undefined;
      },
      15_000,
    );
  });
});
