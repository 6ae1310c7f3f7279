import { expect } from 'chai';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { ServerProcess } from '../support/server-process.js';
import { getJson, postStatement, query, runStatement, type Exchange } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from '../server/sql-fixtures.js';
import { RULES, tempDir, writeJson } from './rules-fixtures.js';

const as = (user: string) => ({ 'X-Trino-User': user });
type ErrorBody = { error: { message: string; errorName: string } };

describe('file-based access control on a real server, several users', function () {
  let server: ServerProcess;
  let base: string;
  let rules: string;

  before(async () => {
    rules = writeJson(join(tempDir(), 'rules.json'), RULES);
    // Refresh period 0: every request reads a changed file, so the reload test waits for nothing.
    server = await ServerProcess.start(['--security-rules-file', rules, '--security-rules-refresh-period', '0s', '--admin-users', 'root']);
    base = server.uri;
    for (const sql of [
      'CREATE TABLE memory.default.orders (id bigint, amount bigint, secret varchar)',
      "INSERT INTO memory.default.orders VALUES (1, 10, 'x'), (2, 20, 'y')",
      'CREATE TABLE memory.default.hidden (x bigint)',
    ]) {
      await query(base, sql, as('admin'));
    }
  });
  after(async () => {
    await server.stop();
  });

  async function failure(sql: string, user: string): Promise<{ message: string; errorName: string; errorType: string }> {
    const run = await runStatement(base, sql, as(user));
    expect(run.final.error, `${sql} as ${user}`).to.not.equal(undefined);
    return run.final.error!;
  }

  it('answers a read of a denied column or table with PERMISSION_DENIED naming the table', async () => {
    expect(await query(base, 'SELECT id, amount FROM memory.default.orders ORDER BY id', as('bob'))).to.deep.equal([
      [1, 10],
      [2, 20],
    ]);
    const column = await failure('SELECT secret FROM memory.default.orders', 'bob');
    expect(column).to.include({
      errorName: 'PERMISSION_DENIED',
      errorType: 'USER_ERROR',
      message: 'Access Denied: Cannot select from table memory.default.orders',
    });
    expect((await failure('SELECT * FROM memory.default.hidden', 'bob')).message).to.equal(
      'Access Denied: Cannot select from table memory.default.hidden',
    );
    expect((await failure('SELECT * FROM tpch.tiny.nation', 'carol')).message).to.equal('Access Denied: Cannot access catalog tpch');
    expect((await failure('DROP TABLE memory.default.orders', 'bob')).message).to.equal(
      'Access Denied: Cannot drop table memory.default.orders',
    );
  });

  it('lists catalogs and tables per user', async () => {
    expect(await query(base, 'SHOW CATALOGS', as('bob'))).to.deep.equal([['memory'], ['system'], ['tpch']]);
    expect(await query(base, 'SHOW CATALOGS', as('admin'))).to.deep.equal([['lake'], ['memory'], ['system'], ['tpch']]);
    expect(await query(base, 'SHOW CATALOGS', as('carol'))).to.deep.equal([['system']]);
    expect(await query(base, 'SHOW CATALOGS', as('erin'))).to.deep.equal([['system']]);
    expect(await query(base, 'SHOW TABLES FROM system.runtime', as('erin'))).to.deep.equal([['queries']]);
    expect((await failure('SELECT * FROM system.runtime.nodes', 'erin')).message).to.equal(
      'Access Denied: Cannot select from table system.runtime.nodes',
    );
    expect(
      await query(base, "SELECT table_name FROM memory.information_schema.tables WHERE table_schema = 'default'", as('bob')),
    ).to.deep.equal([['orders']]);
  });

  describe('query rules over the REST endpoints and the web interface', () => {
    async function alicesRunningQuery(): Promise<Exchange> {
      const first = await postStatement(base, MILLION_ROWS_SQL, as('alice'));
      expect(first.body.stats.state).to.equal('RUNNING');
      return first;
    }

    async function uiCookie(user: string): Promise<string> {
      const response = await fetch(`${base}/ui/api/login`, {
        method: 'POST',
        body: JSON.stringify({ user }),
        headers: { 'Content-Type': 'application/json' },
      });
      return response.headers.get('set-cookie')!.split(';')[0];
    }

    it('lets a user view but not kill the queries a rule lets them view, and hides them from others', async () => {
      const first = await alicesRunningQuery();
      const id = first.body.id;
      const listed = (user: string) =>
        getJson<{ queryId: string }[]>(`${base}/v1/query`, { headers: as(user) }).then((r) => r.body.map((q) => q.queryId));
      expect(await listed('viewer')).to.include(id);
      expect(await listed('bob')).to.not.include(id);
      expect((await getJson<{ state: string }>(`${base}/v1/query/${id}`, { headers: as('viewer') })).body.state).to.equal('RUNNING');
      expect((await getJson(`${base}/v1/query/${id}`, { headers: as('bob') })).status).to.equal(404);

      const kill = await getJson<ErrorBody>(`${base}/v1/query/${id}`, { method: 'DELETE', headers: as('viewer') });
      expect(kill.status).to.equal(403);
      expect(kill.body.error).to.include({ errorName: 'PERMISSION_DENIED', message: 'Access Denied: Cannot kill query' });
      expect((await getJson(`${base}/v1/query/${id}`, { method: 'DELETE', headers: as('bob') })).status).to.equal(404);

      const viewer = await uiCookie('viewer');
      const uiList = await getJson<{ queries: { queryId: string }[] }>(`${base}/ui/api/queries`, { headers: { Cookie: viewer } });
      expect(uiList.body.queries.map((q) => q.queryId)).to.include(id);
      const bobsUi = await getJson<{ queries: { queryId: string }[] }>(`${base}/ui/api/queries`, {
        headers: { Cookie: await uiCookie('bob') },
      });
      expect(bobsUi.body.queries.map((q) => q.queryId)).to.not.include(id);
      expect((await fetch(`${base}/ui/api/queries/${id}`, { method: 'DELETE', headers: { Cookie: viewer } })).status).to.equal(403);
      expect(await query(base, `SELECT state FROM system.runtime.queries WHERE query_id = '${id}'`, as('viewer'))).to.deep.equal([
        ['RUNNING'],
      ]);
      expect(await query(base, `SELECT state FROM system.runtime.queries WHERE query_id = '${id}'`, as('bob'))).to.deep.equal([]);

      expect((await fetch(`${base}/v1/query/${id}`, { method: 'DELETE', headers: as('admin') })).status).to.equal(204);
      expect((await getJson<{ state: string }>(`${base}/v1/query/${id}`, { headers: as('alice') })).body.state).to.equal('FAILED');
    });

    it('keeps the admin users of security.adminUsers', async () => {
      const first = await alicesRunningQuery();
      expect((await fetch(`${base}/v1/query/${first.body.id}`, { method: 'DELETE', headers: as('root') })).status).to.equal(204);
    });

    it('refuses to execute for a user the query rules leave without execute', async () => {
      expect(await failure('SELECT 1', 'banned')).to.include({
        errorName: 'PERMISSION_DENIED',
        message: 'Access Denied: Cannot execute query',
      });
    });
  });

  it('reloads a changed rules file, keeping the last good rules when a change is broken and logging why', async () => {
    const denial = 'Access Denied: Cannot select from table memory.default.hidden';
    expect((await failure('SELECT * FROM memory.default.hidden', 'bob')).message).to.equal(denial);
    writeJson(rules, { ...RULES, tables: [{ user: 'bob', table: 'hidden', privileges: ['SELECT'] }, ...RULES.tables] });
    expect(await query(base, 'SELECT count(*) FROM memory.default.hidden', as('bob'))).to.deep.equal([[0]]);
    writeFileSync(rules, '{ broken');
    expect(await query(base, 'SELECT count(*) FROM memory.default.hidden', as('bob'))).to.deep.equal([[0]]);
    const refusal = await logLine((msg) => msg.includes('not reloaded'));
    expect(refusal.msg).to.include(`access rules file ${rules} not reloaded, keeping the last good version: line 1:3: invalid JSON (`);
    expect(refusal.level).to.equal(40);
    writeJson(rules, RULES);
    expect((await failure('SELECT * FROM memory.default.hidden', 'bob')).message).to.equal(denial);
  });

  /** The first log line whose message `matches`, once the server has written it. */
  async function logLine(matches: (msg: string) => boolean): Promise<{ msg: string; level?: number }> {
    for (;;) {
      const line = server.logs.find((l) => typeof l.msg === 'string' && matches(l.msg));
      if (line !== undefined) return line as { msg: string; level?: number };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('refuses to start with a rules file that is not JSON, naming the line and column', async () => {
    const path = join(tempDir(), 'rules.json');
    writeFileSync(path, '{\n  "catalogs": [ { "allow": "all" ]\n}\n');
    let message = '';
    await ServerProcess.start(['--security-rules-file', path]).then(
      (s) => s.stop(),
      (e: Error) => (message = e.message),
    );
    expect(message).to.match(/exited with 2 before listening/);
    expect(message).to.include(`Invalid access rules file ${path}: line 2:34: invalid JSON`);
  });
});
