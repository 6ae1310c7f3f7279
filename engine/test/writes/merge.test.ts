// MERGE on memory tables: the Trino docs' examples and random merges, each run by the engine and by
// DuckDB on the same rows, with the same update count and the same table afterwards; a target row
// that matches two source rows fails as Trino fails, and changes nothing.

import { expect } from 'chai';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { EngineHarness } from '../support/engine-harness.js';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('MERGE on memory tables', () => {
  let h: EngineHarness;
  let duck: DuckDBConnection;

  beforeEach(async () => {
    h = new EngineHarness();
    duck = await (await DuckDBInstance.create(':memory:')).connect();
  });

  afterEach(() => duck.closeSync());

  async function both(...statements: string[]): Promise<void> {
    for (const sql of statements) {
      await h.run(sql);
      await duck.run(sql);
    }
  }

  /** Runs the MERGE on both sides: same count, same table after. */
  async function sameMerge(sql: string, table: string, columns: string): Promise<number> {
    const ours = await h.query(sql);
    const theirs = await duck.runAndReadAll(sql);
    expect(ours.result.updateType, sql).to.equal('MERGE');
    expect(ours.result.updateCount, sql).to.equal(theirs.rowsChanged);
    const select = `SELECT ${columns} FROM ${table} ORDER BY ${columns}`;
    const text = (rows: unknown[][]) => rows.map((r) => r.map((x) => (x === null ? null : String(x))));
    expect(text(await h.rows(select)), sql).to.deep.equal(text((await duck.runAndReadAll(select)).getRowsJS()));
    return theirs.rowsChanged;
  }

  it("runs the Trino docs' examples as DuckDB does", async () => {
    const setup = [
      'CREATE TABLE accounts (customer varchar, purchases bigint, address varchar)',
      "INSERT INTO accounts VALUES ('Aaron', 5, 'Centreville'), ('Bill', 3, 'Fairfax'), ('Carol', 10, 'Centreville'), ('Dave', 1, 'Arlington')",
      'CREATE TABLE monthly_accounts_update (customer varchar, purchases bigint, address varchar)',
      "INSERT INTO monthly_accounts_update VALUES ('Aaron', 2, 'Centreville'), ('Bill', 4, 'Ashburn'), ('Ed', 7, 'Vienna')",
    ];
    const examples = [
      'MERGE INTO accounts t USING monthly_accounts_update s ON t.customer = s.customer WHEN MATCHED THEN DELETE',
      'MERGE INTO accounts t USING monthly_accounts_update s ON (t.customer = s.customer) WHEN MATCHED THEN UPDATE SET purchases = s.purchases + t.purchases WHEN NOT MATCHED THEN INSERT (customer, purchases, address) VALUES(s.customer, s.purchases, s.address)',
      "MERGE INTO accounts t USING monthly_accounts_update s ON (t.customer = s.customer) WHEN MATCHED AND s.address = 'Centreville' THEN DELETE WHEN MATCHED THEN UPDATE SET purchases = s.purchases + t.purchases, address = s.address WHEN NOT MATCHED THEN INSERT (customer, purchases, address) VALUES(s.customer, s.purchases, s.address)",
    ];
    const counts: number[] = [];
    for (const sql of examples) {
      await both('DROP TABLE IF EXISTS accounts', 'DROP TABLE IF EXISTS monthly_accounts_update', ...setup);
      counts.push(await sameMerge(sql, 'accounts', 'customer, purchases, address'));
    }
    expect(counts).to.deep.equal([2, 3, 3]);
  });

  it('merges random rows as DuckDB does (conditions, several clauses, NULLs, subquery and VALUES sources)', async () => {
    const next = random(7);
    const value = () => (next() < 0.1 ? 'NULL' : String(Math.floor(next() * 1000) - 300));
    const target = Array.from({ length: 3000 }, (_, i) => `(${i * 2}, ${value()}, 'v${Math.floor(next() * 9)}')`).join(', ');
    const source = Array.from({ length: 800 }, (_, i) => `(${i * 5 + 1000}, ${value()}, 's${Math.floor(next() * 9)}')`).join(', ');
    await both(
      'CREATE TABLE t (id bigint, n integer, s varchar)',
      `INSERT INTO t VALUES ${target}`,
      'CREATE TABLE src (id bigint, n integer, s varchar)',
      `INSERT INTO src VALUES ${source}`,
    );
    const merges = [
      "MERGE INTO t USING src ON t.id = src.id WHEN MATCHED AND src.n > 100 THEN UPDATE SET n = t.n + src.n, s = src.s WHEN MATCHED AND src.n < 0 THEN DELETE WHEN NOT MATCHED AND src.n IS NOT NULL THEN INSERT VALUES (src.id, src.n * 2, 'new')",
      'MERGE INTO t AS x USING (SELECT id + 1 AS id, n FROM src WHERE n % 3 = 0) y ON x.id = y.id WHEN NOT MATCHED THEN INSERT (id, n) VALUES (y.id, y.n)',
      "MERGE INTO t USING (VALUES (0, 5), (2, 6), (99999, 7)) AS v (k, m) ON t.id = v.k WHEN MATCHED THEN UPDATE SET s = 'hit' || CAST(v.m AS varchar) WHEN NOT MATCHED THEN INSERT (id, n, s) VALUES (v.k, v.m, NULL)",
      'MERGE INTO t USING src ON t.id = src.id AND t.n > src.n WHEN MATCHED THEN DELETE',
      'MERGE INTO t USING src ON false WHEN MATCHED THEN DELETE',
    ];
    for (const sql of merges) await sameMerge(sql, 't', 'id, n, s');
  });

  it('merges 50,000 target rows with 20,000 source rows on a two-column key (paired by key, not every pair) as DuckDB does', async () => {
    await h.run(
      'CREATE TABLE big AS SELECT x * 200 + y AS id, CAST((x * 200 + y) % 97 AS integer) AS g, CAST(x AS double) AS v FROM UNNEST(sequence(0, 249)) a (x) CROSS JOIN UNNEST(sequence(1, 200)) b (y)',
    );
    await duck.run(
      'CREATE TABLE big AS SELECT x * 200 + y AS id, CAST((x * 200 + y) % 97 AS integer) AS g, CAST(x AS double) AS v FROM range(0, 250) a (x) CROSS JOIN range(1, 201) b (y)',
    );
    await h.run(
      'CREATE TABLE upd AS SELECT 40000 + x * 200 + y AS id, (40000 + x * 200 + y) % 97 AS g FROM UNNEST(sequence(0, 99)) a (x) CROSS JOIN UNNEST(sequence(1, 200)) b (y)',
    );
    await duck.run(
      'CREATE TABLE upd AS SELECT 40000 + x * 200 + y AS id, (40000 + x * 200 + y) % 97 AS g FROM range(0, 100) a (x) CROSS JOIN range(1, 201) b (y)',
    );
    const sql =
      'MERGE INTO big t USING upd s ON t.id = s.id AND t.g = s.g WHEN MATCHED AND s.g < 10 THEN DELETE WHEN MATCHED THEN UPDATE SET v = t.v + s.g WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.g, -1)';
    expect(await sameMerge(sql, 'big', 'id, g, v')).to.equal(20000);
  });

  it('fails as Trino does when a target row matches two source rows, and changes nothing', async () => {
    await h.run(
      'CREATE TABLE t (id bigint, n integer)',
      'INSERT INTO t VALUES (1, 1), (2, 2)',
      'CREATE TABLE s (id bigint, n integer)',
      'INSERT INTO s VALUES (1, 10), (3, 30), (1, 11)',
    );
    const e = await h.failure(
      'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = s.n WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.n)',
    );
    expect([e.errorName, e.message]).to.deep.equal([
      'MERGE_TARGET_ROW_MULTIPLE_MATCHES',
      'One MERGE target table row matched more than one source row',
    ]);
    expect(await h.rows('SELECT id, n FROM t ORDER BY id')).to.deep.equal([
      [1n, 1],
      [2n, 2],
    ]);
  });

  it("fails with Trino's errors for bad input", async () => {
    await h.run(
      'CREATE TABLE t (id bigint, n integer NOT NULL)',
      'INSERT INTO t VALUES (1, 1)',
      'CREATE TABLE s (id bigint, n integer)',
      'INSERT INTO s VALUES (1, NULL), (2, 5)',
      'CREATE VIEW v AS SELECT * FROM t',
    );
    const cases: [string, string, string][] = [
      [
        'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET nosuch = 1',
        'COLUMN_NOT_FOUND',
        'line 1:37: Merge column name does not exist in target table: nosuch',
      ],
      [
        'MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, id) VALUES (1, 2)',
        'DUPLICATE_COLUMN_NAME',
        'line 1:37: Merge column name is specified more than once: id',
      ],
      [
        "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = 'x'",
        'TYPE_MISMATCH',
        "line 1:37: MERGE table column types don't match for MERGE case 0, SET expressions: Table: [integer], Expressions: [varchar(1)]",
      ],
      [
        'MERGE INTO t USING s ON t.id WHEN MATCHED THEN DELETE',
        'TYPE_MISMATCH',
        'line 1:25: The MERGE predicate must evaluate to a boolean: actual type bigint',
      ],
      [
        'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED AND s.n THEN DELETE',
        'TYPE_MISMATCH',
        'line 1:54: WHERE clause predicate must evaluate to a boolean: actual type integer',
      ],
      [
        'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = s.n',
        'CONSTRAINT_VIOLATION',
        'NULL value not allowed for NOT NULL column: n',
      ],
      ['MERGE INTO v USING s ON v.id = s.id WHEN MATCHED THEN DELETE', 'NOT_SUPPORTED', 'line 1:1: Merging into views is not supported'],
      [
        'MERGE INTO nosuch USING s ON true WHEN MATCHED THEN DELETE',
        'TABLE_NOT_FOUND',
        "line 1:12: Table 'memory.default.nosuch' does not exist",
      ],
      [
        'MERGE INTO t USING nosuch ON true WHEN MATCHED THEN DELETE',
        'TABLE_NOT_FOUND',
        "line 1:20: Table 'memory.default.nosuch' does not exist",
      ],
      [
        'MERGE INTO tpch.tiny.nation USING s ON true WHEN MATCHED THEN DELETE',
        'NOT_SUPPORTED',
        'line 1:1: This connector does not support modifying table rows',
      ],
    ];
    for (const [sql, name, message] of cases) {
      const e = await h.failure(sql);
      expect([e.errorName, e.message], sql).to.deep.equal([name, message]);
    }
    expect(await h.rows('SELECT id, n FROM t')).to.deep.equal([[1n, 1]]);
  });
});
