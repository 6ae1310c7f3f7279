// Draining a worker while queries run on it (issue 8): SHUTTING_DOWN on a worker that holds tasks
// of 20 concurrent queries lets every one of them finish with the right answer; the worker exits 0
// after its last task, and queries that start after the coordinator saw the state avoid it.
// A worker that just left ACTIVE (before the coordinator's next health check) refuses a new task,
// and the scheduler places the query on the others.

import { expect } from 'chai';
import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import { getJson, postStatement, query, runStatement, type StatementResponse } from '../support/statement-http.js';
import { eventually, withCluster } from './cluster-fixture.js';

const SECRET = 'drain-test-secret';
const internal = new InternalAuthenticator(SECRET, 'test');
const USER = { 'X-Engine-User': 'test' };
const QUERY = 'SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity) FROM tpch."sf0.5".lineitem GROUP BY 1, 2 ORDER BY 1, 2';

describe('draining a worker under load', function () {
  this.timeout(300_000);
  const cluster = withCluster(3, { sharedSecret: SECRET, eachTest: true });

  async function taskIds(uri: string): Promise<string[]> {
    const { body } = await getJson<{ taskId: string; state: string }[]>(`${uri}/v1/task`, {
      headers: { ...internal.authorizationHeader() },
    });
    return body.filter((t) => !['FINISHED', 'CANCELED', 'ABORTED', 'FAILED'].includes(t.state)).map((t) => t.taskId);
  }

  /** Every task of the node, in any state. */
  async function allTaskIds(uri: string): Promise<string[]> {
    const { body } = await getJson<{ taskId: string }[]>(`${uri}/v1/task`, { headers: { ...internal.authorizationHeader() } });
    return body.map((t) => t.taskId);
  }

  async function setState(uri: string, state: string): Promise<number> {
    const response = await fetch(`${uri}/v1/info/state`, {
      method: 'PUT',
      body: JSON.stringify(state),
      headers: { 'Content-Type': 'application/json', ...internal.authorizationHeader() },
    });
    await response.text();
    return response.status;
  }

  /** Follows a query to its end: its final response and its rows. */
  async function finish(first: StatementResponse): Promise<{ final: StatementResponse; rows: unknown[][] }> {
    let response = first;
    const rows: unknown[][] = [];
    while (response.nextUri) {
      response = (await getJson<StatementResponse>(response.nextUri)).body;
      rows.push(...(response.data ?? []));
    }
    return { final: response, rows };
  }

  it('lets 20 running queries finish on a worker told to shut down, which then exits 0 and gets no new tasks', async () => {
    const expected = await query(cluster.coordinator.uri, QUERY);
    const victim = cluster.worker('worker-3');
    // Twenty users: one user's queries beyond query.max-running-per-user would wait their turn.
    const firsts = await Promise.all(
      Array.from(
        { length: 20 },
        async (_, i) => (await postStatement(cluster.coordinator.uri, QUERY, { 'X-Engine-User': `user${i}` })).body,
      ),
    );
    const queryIds = new Set(firsts.map((f) => f.id));
    const results = firsts.map((f) => finish(f));
    // Many of them hold tasks on the victim at once (on a loaded machine the first may end before the last start).
    await eventually(
      'tasks of 5 of the queries on worker-3',
      async () => {
        const holding = new Set((await taskIds(victim.uri)).map((id) => id.split('.')[0]).filter((id) => queryIds.has(id)));
        return holding.size >= 5 ? true : undefined;
      },
      60_000,
    );
    expect(await setState(victim.uri, 'SHUTTING_DOWN')).to.equal(200);
    for (const { final, rows } of await Promise.all(results)) {
      expect(final.error, final.error?.message).to.equal(undefined);
      expect(final.stats.state).to.equal('FINISHED');
      expect(rows).to.deep.equal(expected);
    }
    expect(await victim.waitForExit()).to.equal(0);

    await cluster.waitForActiveWorkers(2);
    const after = await runStatement(cluster.coordinator.uri, QUERY, USER);
    expect(after.rows).to.deep.equal(expected);
  });

  it('places a query elsewhere when a worker left ACTIVE before the coordinator noticed', async () => {
    const expected = await query(cluster.coordinator.uri, QUERY);
    const isolated = cluster.worker('worker-2');
    // No heartbeat has seen it yet: the coordinator still counts it ACTIVE and sends it tasks.
    expect(await setState(isolated.uri, 'ISOLATED')).to.equal(200);
    const run = await runStatement(cluster.coordinator.uri, QUERY, USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.rows).to.deep.equal(expected);
    expect((await allTaskIds(isolated.uri)).filter((id) => id.startsWith(run.final.id))).to.deep.equal([]);
  });

  it('ISOLATING waits for its tasks, becomes ISOLATED by itself, and ACTIVE brings the worker back into the pool', async () => {
    const worker = cluster.worker('worker-1');
    const first = (await postStatement(cluster.coordinator.uri, QUERY, USER)).body;
    const done = finish(first);
    await eventually(
      'a task of the query on worker-1',
      async () => ((await taskIds(worker.uri)).some((id) => id.startsWith(first.id)) ? true : undefined),
      30_000,
    );
    expect(await setState(worker.uri, 'ISOLATING')).to.equal(200);
    const { body: whileRunning } = await getJson<string>(`${worker.uri}/v1/info/state`);
    expect(whileRunning).to.equal('ISOLATING');
    const { final } = await done;
    expect(final.error, final.error?.message).to.equal(undefined);
    await eventually(
      'worker-1 ISOLATED by itself',
      async () => ((await getJson<string>(`${worker.uri}/v1/info/state`)).body === 'ISOLATED' ? true : undefined),
      20_000,
    );
    await cluster.waitForActiveWorkers(2);
    const meanwhile = await runStatement(cluster.coordinator.uri, QUERY, USER);
    expect((await allTaskIds(worker.uri)).filter((id) => id.startsWith(meanwhile.final.id))).to.deep.equal([]);

    expect(await setState(worker.uri, 'ACTIVE')).to.equal(200);
    await cluster.waitForActiveWorkers(3);
    const back = (await postStatement(cluster.coordinator.uri, QUERY, USER)).body;
    const backDone = finish(back);
    await eventually(
      'a task of the next query on worker-1',
      async () => ((await allTaskIds(worker.uri)).some((id) => id.startsWith(back.id)) ? true : undefined),
      30_000,
    );
    expect((await backDone).final.error).to.equal(undefined);
  });
});
