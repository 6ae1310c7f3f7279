// Bad input: wrong credentials, a server that cannot be reached, one that goes away mid-query, an
// INSERT that fails half way, a query cancelled while PostgreSQL works. Each fails its query with
// an error naming the server; the engine keeps serving; nothing is written half; the server stops
// the work the engine gave up.

import { expect } from 'chai';
import net from 'node:net';
import { PostgresConnector } from '../../src/connectors/postgresql/postgresql-connector.js';
import { postgresConfig } from '../../src/connectors/postgresql/postgresql-config.js';
import { startPgFixture, type PgFixture } from './pg-fixture.js';

/** Polls `condition` every 50 ms, up to `attempts` times. */
async function eventually(condition: () => Promise<boolean>, attempts = 200): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await condition()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

describe('postgresql connector: failures', function () {
  this.timeout(180_000);
  let fixture: PgFixture;

  before(async () => {
    fixture = await startPgFixture();
    await fixture.server.sql('CREATE TABLE big AS SELECT g AS id, g % 1000 AS x, md5(g::text) AS s FROM generate_series(1, 2000000) g');
    await fixture.server.sql('CREATE TABLE keyed (k integer PRIMARY KEY, v text)');
    await fixture.server.sql('CREATE VIEW slow AS SELECT g AS x FROM generate_series(1, 3) g, pg_sleep(60) s');
    const register = (name: string, properties: Record<string, string>) =>
      fixture.engine.catalogs.register(
        name,
        new PostgresConnector(name, postgresConfig(name, { ...fixture.server.catalogProperties(), ...properties })),
      );
    register('wrongpass', { 'connection-password': 'not-the-password' });
    register('nouser', { 'connection-user': 'nobody' });
    register('closed', { 'connection-url': `jdbc:postgresql://127.0.0.1:${await closedPort()}/postgres` });
  });
  after(async () => fixture?.server.stop());

  const server = () => `127.0.0.1:${fixture.server.port}/postgres`;

  it('fails a query with wrong credentials naming the server, and keeps serving', async () => {
    for (const catalog of ['wrongpass', 'nouser']) {
      const error = await fixture.engine.failure(`SELECT * FROM ${catalog}.public.big`);
      expect(error.errorName).to.equal('JDBC_ERROR');
      expect(error.message).to.include(`PostgreSQL server ${server()} (catalog '${catalog}')`);
      expect(error.message).to.match(/password authentication failed/);
    }
    expect(await fixture.engine.rows('SELECT count(*) FROM pg.public.big')).to.deep.equal([[2_000_000n]]);
  });

  it('fails a query on a server that cannot be reached, naming it', async () => {
    const error = await fixture.engine.failure('SHOW TABLES FROM closed.public');
    expect(error.errorName).to.equal('JDBC_ERROR');
    expect(error.message).to.match(/PostgreSQL server 127\.0\.0\.1:\d+\/postgres \(catalog 'closed'\): connection refused/);
  });

  it('fails a query whose server goes away mid-read, and reads again once it is back', async () => {
    const query = fixture.engine.rows('SELECT id, s FROM pg.public.big');
    const running = await eventually(
      async () =>
        (await fixture.server.sql("SELECT 1 FROM pg_stat_activity WHERE application_name = 'engine' AND query LIKE 'COPY%'")).length > 0,
    );
    expect(running, 'the scan was seen running').to.equal(true);
    await fixture.server.crash();
    const error = await query.then(
      () => undefined,
      (e: Error & { errorName?: string }) => e,
    );
    expect(error?.errorName).to.equal('JDBC_ERROR');
    expect(error?.message).to.include(`PostgreSQL server ${server()} (catalog 'pg')`);
    await fixture.server.run();
    expect(await fixture.engine.rows('SELECT count(*) FROM pg.public.big WHERE x = 7')).to.deep.equal([[2000n]]);
  });

  it('writes nothing of an INSERT that fails part way', async () => {
    await fixture.server.sql("INSERT INTO keyed VALUES (1, 'kept')");
    // 100,000 rows in many pages; the last one repeats a key that is already there.
    const error = await fixture.engine.failure(
      "INSERT INTO pg.public.keyed SELECT CAST(id + 1 AS integer), s FROM pg.public.big WHERE id < 100000 UNION ALL SELECT 1, 'again'",
    );
    expect(error.errorName).to.equal('JDBC_ERROR');
    expect(error.message).to.include(`PostgreSQL server ${server()}`);
    expect(error.message).to.include('duplicate key');
    expect(await fixture.server.sql('SELECT k, v FROM keyed')).to.deep.equal([{ k: 1, v: 'kept' }]);
    // A CREATE TABLE AS that fails leaves no table behind.
    const ctas = await fixture.engine.failure(
      'CREATE TABLE pg.public.half AS SELECT CAST(1 AS integer) / CAST(id - 50000 AS integer) AS q FROM pg.public.big',
    );
    expect(ctas.errorName).to.equal('DIVISION_BY_ZERO');
    expect(await fixture.server.sql("SELECT to_regclass('public.half') AS t")).to.deep.equal([{ t: null }]);
  });

  it('cancels the query in PostgreSQL when the engine cancels it', async () => {
    const controller = new AbortController();
    const query = fixture.engine.query('SELECT x FROM pg.public.slow', controller.signal);
    const active = () =>
      fixture.server.sql(
        "SELECT 1 FROM pg_stat_activity WHERE application_name = 'engine' AND state = 'active' AND query LIKE 'COPY%slow%'",
      );
    expect(await eventually(async () => (await active()).length > 0), 'the scan was seen running').to.equal(true);
    controller.abort();
    const error = await query.then(
      () => undefined,
      (e: Error & { errorName?: string }) => e,
    );
    expect(error?.errorName).to.equal('USER_CANCELED');
    // pg_sleep(60) would hold it for a minute: it is gone long before.
    expect(await eventually(async () => (await active()).length === 0), 'the server stopped the query').to.equal(true);
  });
});
