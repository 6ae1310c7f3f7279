// DELETE and UPDATE on PostgreSQL tables, as Trino's PostgreSQL connector makes them: a WHERE the
// filter pushdown takes whole (and constant SET values) become one DELETE or UPDATE that PostgreSQL
// runs, reporting the rows it changed; anything else is a row-level change (Trino's MERGE by
// primary key: postgresql-keyed-changes.test.ts), refused with Trino's message for a table without a primary key. The
// oracle is PostgreSQL: the rows before and after, read directly, and its own count of the rows
// the same condition selects.

import { expect } from 'chai';
import { withPgFixture } from './pg-fixture.js';

const NO_KEY = 'The connector can not perform merge on the target table without primary keys';

describe('postgresql connector: DELETE and UPDATE', function () {
  this.timeout(180_000);
  const fixture = withPgFixture();

  /** A fresh table `name` (with a primary key or not) of 100 rows. */
  async function table(name: string, keyed: boolean): Promise<void> {
    await fixture.server.sql(`DROP TABLE IF EXISTS ${name}`);
    await fixture.server.sql(
      `CREATE TABLE ${name} (id integer ${keyed ? 'PRIMARY KEY' : 'NOT NULL'}, i integer, v varchar(10), n numeric(12,3), u integer UNIQUE)`,
    );
    await fixture.server.sql(
      `INSERT INTO ${name} SELECT g, CASE WHEN g % 7 = 0 THEN NULL ELSE g % 10 END, 'v' || (g % 4), g / 8.0, g FROM generate_series(1, 100) g`,
    );
  }

  /** The table's rows as PostgreSQL has them, as text, by id. */
  async function pgRows(name: string): Promise<string[]> {
    const rows = await fixture.server.sql<{ row: string }>(`SELECT CAST(t AS text) AS row FROM ${name} t ORDER BY id`);
    return rows.map((r) => r.row);
  }

  async function pgCount(name: string, where: string): Promise<number> {
    const [{ count }] = await fixture.server.sql<{ count: string }>(`SELECT count(*) AS count FROM ${name} WHERE ${where}`);
    return Number(count);
  }

  /** Runs the statement; its update count and `rows` value. */
  async function change(sql: string): Promise<{ updateCount: number | undefined; rows: unknown }> {
    const result = await fixture.engine.query(sql);
    return { updateCount: result.result.updateCount, rows: result.rows[0][0] };
  }

  it('DELETE with a WHERE PostgreSQL takes deletes those rows in one statement and counts them', async () => {
    await table('d1', false);
    const where = `(i > 5 OR i IS NULL) AND v IN ('v1', 'v2') AND n BETWEEN 1.5 AND 10`;
    const expected = await pgCount('d1', where);
    const remaining = await fixture.server.sql<{ row: string }>(
      `SELECT CAST(t AS text) AS row FROM d1 t WHERE NOT COALESCE(${where}, false) ORDER BY id`,
    );
    expect(expected).to.be.within(5, 95);
    expect(await change(`DELETE FROM pg.public.d1 WHERE ${where}`)).to.deep.equal({ updateCount: expected, rows: BigInt(expected) });
    expect(await pgRows('d1')).to.deep.equal(remaining.map((r) => r.row));
  });

  it('DELETE folds constant expressions first and deletes every row without a WHERE', async () => {
    await table('d2', false);
    expect(await change(`DELETE FROM pg.public.d2 WHERE id <= 2 * 5 + CAST('3' AS integer)`)).to.deep.equal({ updateCount: 13, rows: 13n });
    expect(await pgCount('d2', 'id <= 13')).to.equal(0);
    expect(await change('DELETE FROM pg.public.d2 WHERE false')).to.deep.equal({ updateCount: 0, rows: 0n });
    // A prepared DELETE's parameters are the constants they are bound to.
    await fixture.engine.run('PREPARE remove FROM DELETE FROM pg.public.d2 WHERE id BETWEEN ? AND ?');
    expect(await change('EXECUTE remove USING 14, 20')).to.deep.equal({ updateCount: 7, rows: 7n });
    expect(await pgCount('d2', 'id BETWEEN 14 AND 20')).to.equal(0);
    expect(await change('DELETE FROM pg.public.d2')).to.deep.equal({ updateCount: 80, rows: 80n });
    expect(await pgRows('d2')).to.deep.equal([]);
  });

  it("refuses a DELETE whose WHERE PostgreSQL cannot take with Trino's message, changing nothing", async () => {
    await table('d3', false);
    const before = await pgRows('d3');
    // Neither the engine's filter pushdown nor Trino's PostgreSQL connector takes these.
    // The first as in Trino's own PostgreSQL connector test.
    for (const where of [
      'i IS NOT NULL AND abs(i + id) > 10',
      'length(v) = 2',
      'id < 50 AND length(v) = 2',
      'id IN (SELECT 1)',
      'random() < 2',
    ]) {
      const error = await fixture.engine.failure(`DELETE FROM pg.public.d3 WHERE ${where}`);
      expect([error.errorName, error.message], where).to.deep.equal(['NOT_SUPPORTED', `line 1:1: ${NO_KEY}`]);
    }
    expect(await pgRows('d3')).to.deep.equal(before);
  });

  it('UPDATE with constant SET values and a WHERE PostgreSQL takes updates those rows and counts them', async () => {
    await table('u1', true);
    const where = `id BETWEEN 10 AND 30 AND i IS NOT NULL`;
    const expected = await pgCount('u1', where);
    await fixture.server.sql(`CREATE TABLE u1_expected AS SELECT * FROM u1`);
    await fixture.server.sql(`UPDATE u1_expected SET v = 'new', n = 2.500, i = NULL WHERE ${where}`);
    const result = await change(`UPDATE pg.public.u1 SET v = 'new', n = 2.5, i = NULL WHERE ${where}`);
    expect(result).to.deep.equal({ updateCount: expected, rows: BigInt(expected) });
    expect(await pgRows('u1')).to.deep.equal(await pgRows('u1_expected'));
    // No WHERE: every row; a constant expression is folded to its value first.
    expect(await change(`UPDATE pg.public.u1 SET i = 40 + 2`)).to.deep.equal({ updateCount: 100, rows: 100n });
    expect(await pgCount('u1', 'i = 42')).to.equal(100);
  });

  it("refuses an UPDATE whose SET value is not a constant or whose WHERE PostgreSQL cannot take, with Trino's message", async () => {
    await table('u2', false);
    const before = await pgRows('u2');
    for (const statement of [
      'UPDATE pg.public.u2 SET i = i + id WHERE i IS NOT NULL AND (i + id) > 10',
      'UPDATE pg.public.u2 SET i = i + 1',
      'UPDATE pg.public.u2 SET i = 1 WHERE length(v) = 2',
      'UPDATE pg.public.u2 SET i = (SELECT 1)',
      'UPDATE pg.public.u2 SET v = CAST(random() AS varchar) WHERE id = 1',
    ]) {
      const error = await fixture.engine.failure(statement);
      expect([error.errorName, error.message], statement).to.deep.equal(['NOT_SUPPORTED', `line 1:1: ${NO_KEY}`]);
    }
    expect(await pgRows('u2')).to.deep.equal(before);
  });

  it("refuses a SET value of another type with Trino's message, before anything runs", async () => {
    await table('u4', true);
    const before = await pgRows('u4');
    const error = await fixture.engine.failure(`UPDATE pg.public.u4 SET v = 'x', i = '5' WHERE id = 1`);
    expect([error.errorName, error.message]).to.deep.equal([
      'TYPE_MISMATCH',
      "line 1:1: UPDATE table column types don't match SET expressions: Table: [integer, varchar(10)], Expressions: [varchar(1), varchar(1)]",
    ]);
    expect(await pgRows('u4')).to.deep.equal(before);
  });

  it('an UPDATE PostgreSQL fails half way changes no row', async () => {
    await table('u3', true);
    const before = await pgRows('u3');
    // Row 1 takes u = 7 before row 7 (which has it) is reached, or after: either way a unique violation ends the statement.
    const error = await fixture.engine.failure('UPDATE pg.public.u3 SET u = 7 WHERE id IN (1, 7, 50)');
    expect(error.message).to.match(/duplicate key value violates unique constraint/);
    expect(await pgRows('u3')).to.deep.equal(before);
    const notNull = await fixture.engine.failure('UPDATE pg.public.u3 SET i = 0, id = NULL WHERE id < 5');
    expect(notNull.message).to.match(/null value in column "id"/);
    expect(await pgRows('u3')).to.deep.equal(before);
  });

  it('EXPLAIN shows the DELETE or UPDATE PostgreSQL runs, as a TableDelete or TableUpdate on the coordinator, and changes nothing', async () => {
    await table('e1', false);
    const before = await pgRows('e1');
    const [[deletePlan]] = await fixture.engine.rows(`EXPLAIN DELETE FROM pg.public.e1 WHERE id < 2 + 3 AND v = 'v1'`);
    expect(deletePlan).to.equal(
      [
        'Fragment 0 [COORDINATOR_ONLY]',
        '    Output layout: [rows]',
        '    Output partitioning: SINGLE []',
        '    Output[columnNames = [rows]]',
        '    │   Layout: [rows:bigint]',
        `    └─ TableDelete[target = pg:public.e1, statement = DELETE FROM "public"."e1" WHERE ("id" < CAST('5' AS integer)) AND ("v" COLLATE "C" = CAST('v1' AS varchar(10)))]`,
        '           Layout: [rows:bigint]',
      ].join('\n'),
    );
    const [[updatePlan]] = await fixture.engine.rows(`EXPLAIN (TYPE LOGICAL) UPDATE pg.public.e1 SET n = 1, v = NULL`);
    expect(updatePlan).to.equal(
      [
        'Output[columnNames = [rows]]',
        '│   Layout: [rows:bigint]',
        `└─ TableUpdate[target = pg:public.e1, statement = UPDATE "public"."e1" SET "v" = CAST(NULL AS varchar(10)), "n" = CAST('1.000' AS numeric(12,3))]`,
        '       Layout: [rows:bigint]',
      ].join('\n'),
    );
    expect(await fixture.engine.rows('EXPLAIN (TYPE VALIDATE) DELETE FROM pg.public.e1')).to.deep.equal([[true]]);
    const refused = await fixture.engine.failure('EXPLAIN UPDATE pg.public.e1 SET i = i + 1');
    expect(refused.message).to.equal(`line 1:9: ${NO_KEY}`);
    const analyze = await fixture.engine.failure('EXPLAIN ANALYZE DELETE FROM pg.public.e1');
    expect([analyze.errorName, analyze.message]).to.deep.equal(['NOT_SUPPORTED', 'line 1:1: EXPLAIN ANALYZE of DELETE is not supported']);
    expect(await pgRows('e1')).to.deep.equal(before);
  });

  it('with filter pushdown turned off, a DELETE with a WHERE is a row-level change', async () => {
    await table('d4', false);
    await fixture.engine.run('SET SESSION pg.filter_pushdown_enabled = false');
    try {
      const error = await fixture.engine.failure('DELETE FROM pg.public.d4 WHERE id = 1');
      expect(error.message).to.equal(`line 1:1: ${NO_KEY}`);
      expect(await change('DELETE FROM pg.public.d4')).to.deep.equal({ updateCount: 100, rows: 100n });
    } finally {
      await fixture.engine.run('RESET SESSION pg.filter_pushdown_enabled');
    }
  });
});
