// MERGE, and DELETE/UPDATE that PostgreSQL cannot take whole, on PostgreSQL tables with a primary
// key: changes of single rows found by the key, in one transaction (Trino's JDBC merge), and TRUNCATE.
// The oracle is PostgreSQL 15 itself: the same statement run by PostgreSQL (its own MERGE, DELETE or
// UPDATE) on a copy of the table, whose rows must equal the engine's result row for row.

import { expect } from 'chai';
import { withPgFixture } from './pg-fixture.js';

const NO_KEY = 'The connector can not perform merge on the target table without primary keys';

describe('postgresql connector: row-level changes by primary key', function () {
  this.timeout(180_000);
  const fixture = withPgFixture(
    'CREATE FUNCTION changed_rows(statement text) RETURNS bigint LANGUAGE plpgsql AS $$ DECLARE c bigint; BEGIN EXECUTE statement; GET DIAGNOSTICS c = ROW_COUNT; RETURN c; END $$',
  );

  /** A table `name` of 60 rows, keyed by (id) or by (a, b), or without a key; and `name_expected`, a copy for PostgreSQL to change. */
  async function table(name: string, key: 'id' | 'a, b' | 'none'): Promise<void> {
    await fixture.server.sql(`DROP TABLE IF EXISTS ${name}, ${name}_expected`);
    for (const t of [name, `${name}_expected`]) {
      await fixture.server.sql(
        `CREATE TABLE ${t} (id integer NOT NULL, a varchar(5) NOT NULL, b date NOT NULL, i integer, v text, n numeric(10,2)${key === 'none' ? '' : `, PRIMARY KEY (${key})`})`,
      );
      await fixture.server.sql(
        `INSERT INTO ${t} SELECT g, 'a' || (g % 3), DATE '2024-01-01' + g, CASE WHEN g % 5 = 0 THEN NULL ELSE g % 7 END, 'v' || g, g / 4.0 FROM generate_series(1, 60) g`,
      );
    }
  }

  async function pgRows(name: string): Promise<string[]> {
    const rows = await fixture.server.sql<{ row: string }>(
      `SELECT CAST(t AS text) AS row FROM ${name} t ORDER BY CAST(t AS text) COLLATE "C"`,
    );
    return rows.map((r) => r.row);
  }

  /** PostgreSQL's own count of the rows its statement changed (its MERGE has no RETURNING in 15). */
  async function pgChange(sql: string): Promise<number> {
    const [{ n }] = await fixture.server.sql<{ n: string }>('SELECT changed_rows($1) AS n', [sql]);
    return Number(n);
  }

  /** The statement in the engine (over pg.public.<name>) and in PostgreSQL (over <name>_expected): same count, same rows. */
  async function check(name: string, statement: (t: string) => string): Promise<number> {
    const result = await fixture.engine.query(statement(`pg.public.${name}`));
    const expected = await pgChange(statement(`${name}_expected`));
    expect(result.result.updateCount, statement(name)).to.equal(expected);
    expect(await pgRows(name)).to.deep.equal(await pgRows(`${name}_expected`));
    return expected;
  }

  it('MERGE updates, deletes and inserts rows by the primary key, as PostgreSQL merges them', async () => {
    await table('m1', 'id');
    const source = `(VALUES (5, 'x'), (6, 'y'), (7, NULL), (10, 'z'), (61, 'new'), (62, NULL), (0, 'zero')) s(k, w)`;
    const count = await check(
      'm1',
      (t) => `MERGE INTO ${t} t USING ${source} ON t.id = s.k
        WHEN MATCHED AND s.w IS NULL THEN DELETE
        WHEN MATCHED AND t.id > 6 THEN UPDATE SET v = s.w || t.v, i = t.i + 100
        WHEN MATCHED THEN UPDATE SET v = s.w
        WHEN NOT MATCHED AND s.k > 0 THEN INSERT (id, a, b, v) VALUES (s.k, 'n', DATE '2030-01-01', s.w)`,
    );
    expect(count).to.equal(6);
    // A source from another catalog, a key column set, and a WHEN MATCHED that leaves rows unchanged.
    await check(
      'm1',
      (
        t,
      ) => `MERGE INTO ${t} t USING (SELECT id + 1000 AS nk, id FROM ${t.startsWith('pg.') ? 'pg.public.m1' : 'm1_expected'} WHERE id BETWEEN 20 AND 25) s ON t.id = s.id
        WHEN MATCHED AND s.id % 2 = 0 THEN UPDATE SET id = s.nk`,
    );
  });

  it('sets only the columns a change touches: a generated column is left to PostgreSQL', async () => {
    await fixture.server.sql('DROP TABLE IF EXISTS g1, g1_expected');
    for (const t of ['g1', 'g1_expected']) {
      await fixture.server.sql(
        `CREATE TABLE ${t} (id integer PRIMARY KEY, x integer, doubled integer GENERATED ALWAYS AS (x * 2) STORED); INSERT INTO ${t} (id, x) SELECT g, g FROM generate_series(1, 10) g`,
      );
    }
    await check('g1', (t) => `UPDATE ${t} SET x = x + 100 WHERE abs(id) < 4`);
    await check('g1', (t) => `MERGE INTO ${t} t USING (VALUES (5), (6)) s(k) ON t.id = s.k WHEN MATCHED THEN UPDATE SET x = s.k * 10`);
    // A change that leaves every value as it was still counts its rows.
    await check('g1', (t) => `UPDATE ${t} SET x = x WHERE abs(id) > 8`);
  });

  it('MERGE into a table keyed by two columns finds rows by both', async () => {
    await table('m2', 'a, b');
    await check(
      'm2',
      (
        t,
      ) => `MERGE INTO ${t} t USING (SELECT * FROM (VALUES ('a1', DATE '2024-01-02', 1), ('a2', DATE '2024-01-06', 2), ('a9', DATE '2024-01-06', 3)) v(x, y, z)) s
        ON t.a = s.x AND t.b = s.y
        WHEN MATCHED AND s.z = 1 THEN DELETE
        WHEN MATCHED THEN UPDATE SET n = t.n * 2, a = 'u'
        WHEN NOT MATCHED THEN INSERT VALUES (100 + s.z, s.x, s.y, s.z, NULL, NULL)`,
    );
  });

  it('DELETE and UPDATE that PostgreSQL cannot take whole are made by key', async () => {
    await table('r1', 'id');
    // Functions the pushdown does not take, a SET value from the row, a subquery.
    await check('r1', (t) => `DELETE FROM ${t} WHERE length(v) = 2 OR abs(i - 3) = 1`);
    await check('r1', (t) => `UPDATE ${t} SET i = i * 10 + id, v = upper(v) WHERE i IS NOT NULL AND id > 20`);
    await check('r1', (t) => `UPDATE ${t} SET n = n + 1`);
    const removed = await fixture.engine.query('DELETE FROM pg.public.r1 WHERE id IN (SELECT id + 40 FROM pg.public.r1 WHERE id < 5)');
    const expected = await pgChange('DELETE FROM r1_expected WHERE id IN (SELECT id + 40 FROM r1_expected WHERE id < 5)');
    expect(removed.result.updateCount).to.equal(expected);
    expect(await pgRows('r1')).to.deep.equal(await pgRows('r1_expected'));
  });

  it("refuses MERGE and row-level DELETE/UPDATE on a table without a primary key with Trino's message, changing nothing", async () => {
    await table('n1', 'none');
    const before = await pgRows('n1');
    for (const statement of [
      `MERGE INTO pg.public.n1 t USING (VALUES 1) s(k) ON t.id = s.k WHEN MATCHED THEN DELETE`,
      'DELETE FROM pg.public.n1 WHERE length(v) = 2',
      'UPDATE pg.public.n1 SET i = i + 1',
    ]) {
      const error = await fixture.engine.failure(statement);
      expect([error.errorName, error.message], statement).to.deep.equal(['NOT_SUPPORTED', `line 1:1: ${NO_KEY}`]);
    }
    expect(await pgRows('n1')).to.deep.equal(before);
  });

  it('a MERGE that matches a target row twice fails with MERGE_TARGET_ROW_MULTIPLE_MATCHES and changes nothing', async () => {
    await table('m3', 'id');
    const before = await pgRows('m3');
    const error = await fixture.engine.failure(
      `MERGE INTO pg.public.m3 t USING (VALUES (1, 'a'), (2, 'b'), (2, 'c')) s(k, w) ON t.id = s.k WHEN MATCHED THEN UPDATE SET v = s.w WHEN NOT MATCHED THEN INSERT (id, a, b) VALUES (s.k, 'x', DATE '2020-01-01')`,
    );
    expect([error.errorName, error.message]).to.deep.equal([
      'MERGE_TARGET_ROW_MULTIPLE_MATCHES',
      'One MERGE target table row matched more than one source row',
    ]);
    expect(await pgRows('m3')).to.deep.equal(before);
  });

  it('a MERGE that PostgreSQL refuses half way (a duplicate key after deletes and updates) changes nothing', async () => {
    await table('m4', 'id');
    const before = await pgRows('m4');
    const error = await fixture.engine.failure(
      `MERGE INTO pg.public.m4 t USING (VALUES (1, 'd'), (2, 'u'), (3, 'u')) s(k, w) ON t.id = s.k
       WHEN MATCHED AND s.w = 'd' THEN DELETE
       WHEN MATCHED AND s.k = 2 THEN UPDATE SET v = 'changed'
       WHEN MATCHED THEN UPDATE SET id = 4`,
    );
    expect(error.errorName).to.equal('JDBC_ERROR');
    expect(error.message).to.match(/duplicate key value violates unique constraint/);
    expect(await pgRows('m4')).to.deep.equal(before);
  });

  it('a connection lost in the middle of a MERGE leaves the table as it was', async () => {
    await table('m5', 'id');
    // A trigger that waits on inserts: the MERGE has deleted and updated rows (in its transaction) when it is cut off.
    await fixture.server.sql(
      `CREATE FUNCTION m5_wait() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(60); RETURN NEW; END $$;
       CREATE TRIGGER m5_wait BEFORE INSERT ON m5 FOR EACH ROW EXECUTE FUNCTION m5_wait()`,
    );
    const before = await pgRows('m5');
    const merge = fixture.engine.failure(
      `MERGE INTO pg.public.m5 t USING (VALUES 1, 2, 100) s(k) ON t.id = s.k
       WHEN MATCHED AND s.k = 1 THEN DELETE WHEN MATCHED THEN UPDATE SET v = 'changed'
       WHEN NOT MATCHED THEN INSERT (id, a, b) VALUES (s.k, 'x', DATE '2020-01-01')`,
    );
    let settled = false;
    void merge.finally(() => (settled = true));
    let terminated = false;
    while (!terminated && !settled) {
      const rows = await fixture.server.sql<{ done: boolean }>(
        `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = 'engine' AND wait_event = 'PgSleep'`,
      );
      terminated = rows.length > 0;
      if (!terminated) await new Promise((r) => setTimeout(r, 50));
    }
    const error = await merge;
    expect(terminated).to.equal(true);
    expect(error.errorName).to.equal('JDBC_ERROR');
    expect(await pgRows('m5')).to.deep.equal(before);
  });

  it('TRUNCATE TABLE empties the table in PostgreSQL, with or without a key', async () => {
    await table('t1', 'none');
    await table('t2', 'id');
    await fixture.engine.run('TRUNCATE TABLE pg.public.t1', 'TRUNCATE TABLE pg.public.t2');
    expect(await pgRows('t1')).to.deep.equal([]);
    expect(await pgRows('t2')).to.deep.equal([]);
    const missing = await fixture.engine.failure('TRUNCATE TABLE pg.public.nothing_here');
    expect(missing.errorName).to.equal('TABLE_NOT_FOUND');
  });
});
