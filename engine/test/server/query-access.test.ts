import { expect } from 'chai';
import { Client as PrestoClient } from 'presto-client';
import { Trino, type QueryResult } from 'trino-client';
import { ServerProcess } from '../support/server-process.js';
import { follow, getJson, postStatement, query, type Exchange } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';

const ALICE = { 'X-Trino-User': 'alice' };
const BOB = { 'X-Trino-User': 'bob' };
const ADMIN = { 'X-Engine-User': 'root' };

type ErrorBody = { error: { message: string; errorName: string } };

describe('query access: results and control for the query user only', function () {
  let server: ServerProcess;
  let base: string;

  before(async () => {
    server = await ServerProcess.start(['--admin-users', 'root,ops']);
    base = server.uri;
  });
  after(async () => {
    await server.stop();
  });

  /** A query of alice's that runs until canceled (its rows wait for a reader). */
  async function alicesRunningQuery(): Promise<Exchange> {
    const first = await postStatement(base, MILLION_ROWS_SQL, ALICE);
    expect(first.body.stats.state).to.equal('RUNNING');
    return first;
  }

  async function stateAsAlice(queryId: string): Promise<string> {
    return (await getJson<{ state: string }>(`${base}/v1/query/${queryId}`, { headers: ALICE })).body.state;
  }

  it('answers a guessed statement token with the 404 of an unknown query', async () => {
    const first = await alicesRunningQuery();
    const id = first.body.id;
    const slug = /\/1\.([0-9a-f]{32})$/.exec(first.body.nextUri!)![1]!;
    const wrongSlug = slug.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    for (const token of ['1', '0', '2', `1.${wrongSlug}`, `1.${'0'.repeat(32)}`, `1.${slug}x`]) {
      for (const method of ['GET', 'DELETE']) {
        const response = await getJson<ErrorBody>(`${base}/v1/statement/${id}/${token}`, { method, headers: BOB });
        expect(response.status, `${method} token ${token}`).to.equal(404);
        expect(response.headers.get('content-type')).to.match(/^application\/json/);
        expect(response.body.error.message).to.equal(`Query not found: ${id}`);
      }
    }
    expect(await stateAsAlice(id)).to.equal('RUNNING');
    await fetch(first.body.nextUri!, { method: 'DELETE' });
  });

  it('lets another user neither view, cancel nor partially cancel the query (404, as for an unknown query)', async () => {
    const first = await alicesRunningQuery();
    const id = first.body.id;
    const unknown = `Query not found: ${id}`;
    const detail = await getJson<ErrorBody>(first.body.infoUri, { headers: BOB });
    expect(detail.status).to.equal(404);
    expect(detail.body.error.message).to.equal(unknown);
    const cancel = await getJson<ErrorBody>(`${base}/v1/query/${id}`, { method: 'DELETE', headers: BOB });
    expect(cancel.status).to.equal(404);
    expect(cancel.body.error.message).to.equal(unknown);
    const partial = await getJson<ErrorBody>(first.body.partialCancelUri!, { method: 'DELETE', headers: BOB });
    expect(partial.status).to.equal(404);
    // Without a user header a request speaks for the default user, who is not alice either.
    expect((await getJson(first.body.infoUri)).status).to.equal(404);
    expect(await stateAsAlice(id)).to.equal('RUNNING');
    expect((await fetch(`${base}/v1/query/${id}`, { method: 'DELETE', headers: ALICE })).status).to.equal(204);
    expect(await stateAsAlice(id)).to.equal('FAILED');
  });

  it('treats the nextUri as the capability: its holder reads and cancels without a user header', async () => {
    const first = await postStatement(base, 'SELECT 7 AS seven', ALICE);
    const run = await follow(first);
    expect(run.rows).to.deep.equal([[7]]);
    const running = await alicesRunningQuery();
    expect((await fetch(running.body.nextUri!, { method: 'DELETE' })).status).to.equal(204);
    expect(await stateAsAlice(running.body.id)).to.equal('FAILED');
  });

  it('lets an admin user view and cancel any query', async () => {
    const first = await alicesRunningQuery();
    const detail = await getJson<{ queryId: string; session: { user: string } }>(first.body.infoUri, { headers: ADMIN });
    expect(detail.status).to.equal(200);
    expect(detail.body.session.user).to.equal('alice');
    expect((await fetch(first.body.infoUri, { method: 'DELETE', headers: { 'X-Presto-User': 'ops' } })).status).to.equal(204);
    const run = await follow(first);
    expect(run.final.error?.errorName).to.equal('USER_CANCELED');
  });

  it("lists only the requesting user's queries in /v1/query and system.runtime.queries and tasks, all of them for an admin", async () => {
    const alices = (await follow(await postStatement(base, 'SELECT 1 AS listed_a', ALICE))).final.id;
    const bobs = (await follow(await postStatement(base, 'SELECT 1 AS listed_b', BOB))).final.id;
    const listed = async (headers: Record<string, string>) =>
      (await getJson<Array<{ queryId: string; session: { user: string } }>>(`${base}/v1/query`, { headers })).body;
    const asBob = await listed(BOB);
    expect(asBob.map((q) => q.queryId))
      .to.include(bobs)
      .and.not.include(alices);
    expect(new Set(asBob.map((q) => q.session.user))).to.deep.equal(new Set(['bob']));
    expect((await listed(ALICE)).map((q) => q.queryId))
      .to.include(alices)
      .and.not.include(bobs);
    expect((await listed(ADMIN)).map((q) => q.queryId)).to.include.members([alices, bobs]);

    const runtimeUsers = async (headers: Record<string, string>) =>
      new Set(
        (await query(base, `SELECT "user" FROM system.runtime.queries WHERE query_id IN ('${alices}', '${bobs}')`, headers)).map(
          (r) => r[0],
        ),
      );
    expect(await runtimeUsers(BOB)).to.deep.equal(new Set(['bob']));
    expect(await runtimeUsers(ADMIN)).to.deep.equal(new Set(['alice', 'bob']));
    const taskQueries = async (headers: Record<string, string>) =>
      (await query(base, `SELECT query_id FROM system.runtime.tasks WHERE query_id IN ('${alices}', '${bobs}')`, headers)).map((r) => r[0]);
    expect(await taskQueries(BOB)).to.deep.equal([bobs]);
    expect(await taskQueries(ADMIN)).to.have.members([alices, bobs]);
  });

  it('keeps trino-client working when a query runs as another user than the client default', async () => {
    const trino = Trino.create({ server: base, catalog: 'memory', schema: 'default' });
    const results: QueryResult[] = [];
    // trino-client sends the query's user on the POST only and its default user on every nextUri.
    for await (const result of await trino.query({ query: 'SELECT 5 AS five', user: 'carol' })) results.push(result);
    expect(results.flatMap((r) => r.data ?? [])).to.deep.equal([[5]]);
    const info = await getJson<{ session: { user: string } }>(`${base}/v1/query/${results[0]!.id}`, {
      headers: { 'X-Trino-User': 'carol' },
    });
    expect(info.body.session.user).to.equal('carol');
  });

  it('keeps presto-client working: it sends no user header when following nextUri', async () => {
    const client = new PrestoClient({
      host: '127.0.0.1',
      port: server.port,
      catalog: 'memory',
      schema: 'default',
      user: 'dave',
      checkInterval: 10,
    });
    const rows = await new Promise<unknown[][]>((resolve, reject) => {
      const collected: unknown[][] = [];
      client.execute({
        query: 'SELECT 6 AS six',
        data: (_e, data) => collected.push(...data),
        success: () => resolve(collected),
        error: reject,
      });
    });
    expect(rows).to.deep.equal([[6]]);
    let queryId = '';
    const canceled = await new Promise<{ message: string }>((resolve) => {
      client.execute({
        query: MILLION_ROWS_SQL,
        state: (_e, id) => (queryId = id),
        // presto-client cancels with DELETE on the nextUri it was about to fetch (no user header).
        cancel: () => true,
        success: () => resolve({ message: 'finished' }),
        error: (error) => resolve(error),
      });
    });
    expect(canceled.message).to.equal('query fetch canceled by operation');
    const detail = await getJson<{ state: string; errorCode: { name: string } }>(`${base}/v1/query/${queryId}`, {
      headers: { 'X-Presto-User': 'dave' },
    });
    expect(detail.body).to.deep.include({ state: 'FAILED', errorCode: { code: 3, name: 'USER_CANCELED', type: 'USER_ERROR' } });
  });
});
