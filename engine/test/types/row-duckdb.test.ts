// Rows on random data (NULL fields, NULL values, many equal keys) against DuckDB. Where DuckDB's
// STRUCT means what Trino's row means (comparisons of rows without NULL fields, IS DISTINCT FROM,
// GROUP BY, DISTINCT, ORDER BY with NULL fields last) DuckDB's STRUCT answers; where it does not
// (DuckDB's struct `=` and `<` treat a NULL field as a value, Trino's are three-valued) DuckDB
// answers the field-by-field formula of Trino's rule: `=` is `a = c AND b = d`, `<` is
// `a < c OR (a = c AND b < d)`, IN is an OR of such equalities.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';

/** A seeded generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROWS = 400;

function rows(seed: number): string[] {
  const next = random(seed);
  const int = () => (next() < 0.12 ? 'NULL' : String(Math.floor(next() * 4)));
  const text = () => (next() < 0.12 ? 'NULL' : `'${'xyz'[Math.floor(next() * 3)]}'`);
  return Array.from({ length: ROWS }, (_, id) => `(${id}, ${int()}, ${text()}, ${int()}, ${text()})`);
}

/** Values as text, numbers and bigints alike. */
function text(v: unknown): string {
  return v === null || v === undefined ? 'NULL' : String(v);
}

describe('rows equal DuckDB on random data', function () {
  this.timeout(60_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    duck = await openDuckDb(1);
    for (const [name, seed] of [
      ['r', 23],
      ['s', 41],
    ] as const) {
      const values = rows(seed).join(', ');
      await engine.run(
        `CREATE TABLE ${name} (id integer, a integer, b varchar, c integer, d varchar)`,
        `INSERT INTO ${name} VALUES ${values}`,
      );
      await duck.run(`CREATE TABLE ${name} (id INTEGER, a INTEGER, b VARCHAR, c INTEGER, d VARCHAR)`);
      await duck.run(`INSERT INTO ${name} VALUES ${values}`);
    }
  });

  after(() => duck.closeSync());

  async function expectSame(ours: string, theirs: string): Promise<void> {
    const mine = (await engine.query(ours)).rows.map((r) => r.map(text));
    const duckdb = (await duckRows(duck, theirs)).map((r) => r.map(text));
    const differing = mine.findIndex((row, i) => JSON.stringify(row) !== JSON.stringify(duckdb[i]));
    expect(differing === -1 ? [] : [mine[differing], duckdb[differing]], ours).to.deep.equal(
      differing === -1 ? [] : [duckdb[differing], duckdb[differing]],
    );
    expect(mine).to.have.length(duckdb.length);
  }

  it('comparisons of rows without NULL fields equal DuckDB STRUCT comparisons', async () => {
    const where = 'WHERE a IS NOT NULL AND b IS NOT NULL AND c IS NOT NULL AND d IS NOT NULL ORDER BY id';
    const operators = ['=', '<>', '<', '<=', '>', '>='];
    const list = (open: string) => operators.map((op) => `${open}(a, b) ${op} ${open}(c, d)`).join(', ');
    await expectSame(`SELECT id, ${list('ROW')} FROM r ${where}`, `SELECT id, ${list('ROW')} FROM r ${where}`);
  });

  it('= and < with NULL fields follow the three-valued field-by-field rule', async () => {
    await expectSame(
      'SELECT id, (a, b) = (c, d), (a, b) <> (c, d), (a, b) < (c, d), (a, b) >= (c, d) FROM r ORDER BY id',
      'SELECT id, a = c AND b = d, NOT (a = c AND b = d), a < c OR (a = c AND b < d), NOT (a < c OR (a = c AND b < d)) FROM r ORDER BY id',
    );
  });

  it('IS DISTINCT FROM equals DuckDB STRUCT IS DISTINCT FROM, NULL rows included', async () => {
    const rows = 'CASE WHEN id % 17 = 0 THEN NULL ELSE ROW(a, b) END IS DISTINCT FROM CASE WHEN id % 13 = 0 THEN NULL ELSE ROW(c, d) END';
    await expectSame(
      `SELECT id, ${rows}, (a, b) IS NOT DISTINCT FROM (c, d) FROM r ORDER BY id`,
      `SELECT id, ${rows}, ROW(a, b) IS NOT DISTINCT FROM ROW(c, d) FROM r ORDER BY id`,
    );
  });

  it('GROUP BY and DISTINCT on rows group NULL fields together, as DuckDB STRUCTs', async () => {
    await expectSame(
      'SELECT k[1], k[2], n FROM (SELECT ROW(a, b) AS k, count(*) AS n FROM r GROUP BY ROW(a, b)) ORDER BY n, k',
      'SELECT k[1], k[2], n FROM (SELECT ROW(a, b) AS k, count(*) AS n FROM r GROUP BY ROW(a, b)) ORDER BY n, k',
    );
    await expectSame(
      'SELECT count(*) FROM (SELECT DISTINCT ROW(a, b), ROW(c) FROM r)',
      'SELECT count(*) FROM (SELECT DISTINCT ROW(a, b), ROW(c) FROM r)',
    );
  });

  it('ORDER BY a row sorts field by field with NULL fields last, as DuckDB STRUCTs', async () => {
    await expectSame('SELECT id FROM r ORDER BY ROW(a, b), id', 'SELECT id FROM r ORDER BY ROW(a, b), id');
    await expectSame('SELECT id FROM r ORDER BY ROW(c, d) DESC, id', 'SELECT id FROM r ORDER BY ROW(c, d) DESC, id');
  });

  it("ORDER BY a row with NULLS FIRST or LAST orders NULL fields as Trino does (as the key's null order, before DESC reverses)", async () => {
    const row = 'CASE WHEN id % 19 = 0 THEN NULL ELSE ROW(a, b) END';
    const rowNull = 'id % 19 = 0';
    const cases: [string, string][] = [
      ['ASC NULLS LAST', 'fa ASC NULLS LAST, fb ASC NULLS LAST'],
      ['ASC NULLS FIRST', 'fa ASC NULLS FIRST, fb ASC NULLS FIRST'],
      ['DESC NULLS LAST', 'fa DESC NULLS FIRST, fb DESC NULLS FIRST'],
      ['DESC NULLS FIRST', 'fa DESC NULLS LAST, fb DESC NULLS LAST'],
    ];
    // DuckDB sorts the NULL rows apart, then the fields of the others (NULL rows tie on them).
    const flat = `SELECT id, ${rowNull} AS z, CASE WHEN ${rowNull} THEN NULL ELSE a END AS fa, CASE WHEN ${rowNull} THEN NULL ELSE b END AS fb FROM r`;
    for (const [order, fields] of cases) {
      const rowNulls = order.endsWith('FIRST') ? 'DESC' : 'ASC';
      await expectSame(`SELECT id FROM r ORDER BY ${row} ${order}, id`, `SELECT id FROM (${flat}) ORDER BY z ${rowNulls}, ${fields}, id`);
    }
  });

  it('IN lists of rows: TRUE on a match, NULL where a NULL field could match', async () => {
    await expectSame(
      "SELECT id, (a, b) IN ((1, 'x'), (c, d)), (a, b) NOT IN ((2, 'y'), (3, 'z')) FROM r ORDER BY id",
      "SELECT id, (a = 1 AND b = 'x') OR (a = c AND b = d), NOT ((a = 2 AND b = 'y') OR (a = 3 AND b = 'z')) FROM r ORDER BY id",
    );
  });

  it('IN with a two-column subquery or a subquery of rows: a match, else NULL where a NULL field could match, else FALSE', async () => {
    const matches = (test: string) => `EXISTS (SELECT 1 FROM s WHERE ${test})`;
    const exact = 'r.a = s.c AND r.b = s.d';
    const possible = '(r.a = s.c OR r.a IS NULL OR s.c IS NULL) AND (r.b = s.d OR r.b IS NULL OR s.d IS NULL)';
    await expectSame(
      'SELECT id, (a, b) IN (SELECT c, d FROM s), (a, b) NOT IN (SELECT ROW(c, d) FROM s WHERE c > 1) FROM r ORDER BY id',
      `SELECT id,
         CASE WHEN ${matches(exact)} THEN true WHEN ${matches(possible)} THEN NULL ELSE false END,
         NOT CASE WHEN ${matches(`s.c > 1 AND ${exact}`)} THEN true WHEN ${matches(`s.c > 1 AND ${possible}`)} THEN NULL ELSE false END
       FROM r ORDER BY id`,
    );
  });

  it('joins on row keys never match rows with NULL fields', async () => {
    await expectSame(
      'SELECT r.id, s.id FROM r JOIN s ON ROW(r.a, r.b) = ROW(s.c, s.d) ORDER BY 1, 2',
      'SELECT r.id, s.id FROM r JOIN s ON r.a = s.c AND r.b = s.d ORDER BY 1, 2',
    );
  });
});
