// ROLLUP and CUBE take grouping sets as elements: `ROLLUP ((a, b), c)` rolls (a, b) up as one
// column, and `CUBE ((a, b))` has two grouping sets, not four (before: the parentheses of CUBE were
// read as a row, so CUBE ((a, b)) grouped like CUBE (a, b) — a wrong answer — and ROLLUP ((a, b), c)
// failed). DuckDB, which follows the SQL standard here as Trino does, is the oracle.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('ROLLUP and CUBE with composite elements equal DuckDB', () => {
  let h: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    h = new EngineHarness();
    duck = await openDuckDb(1);
    const statements = [
      'CREATE TABLE g (a integer, b integer, c integer)',
      'INSERT INTO g VALUES (1, 2, 3), (1, 2, 4), (2, 3, 5), (2, NULL, 5), (NULL, 3, 6)',
    ];
    for (const sql of statements) {
      await h.query(sql);
      await duck.run(sql);
    }
  });

  after(() => duck.closeSync());

  const text = (rows: unknown[][]) => rows.map((row) => row.map((v) => (v === null ? 'NULL' : String(v))));

  it('groups by each composite element as one', async () => {
    const queries = [
      'SELECT a, b, c, count(*), grouping(a, b, c) FROM g GROUP BY ROLLUP ((a, b), c) ORDER BY 1, 2, 3, 5',
      'SELECT a, b, count(*) FROM g GROUP BY CUBE ((a, b)) ORDER BY 1, 2, 3',
      'SELECT a, b, c, count(*) FROM g GROUP BY CUBE ((a, b), c) ORDER BY 1, 2, 3, 4',
      'SELECT a, b, c, sum(c) FROM g GROUP BY ROLLUP (a, (b, c)) ORDER BY 1, 2, 3, 4',
      'SELECT a, b, count(*) FROM g GROUP BY ROLLUP (a, b) ORDER BY 1, 2, 3',
      'SELECT a, c, count(*) FROM g GROUP BY a, CUBE ((c)) ORDER BY 1, 2, 3',
    ];
    for (const sql of queries) {
      const ours = text((await h.query(sql)).rows);
      expect(ours, sql).to.deep.equal(text(await duckRows(duck, sql)));
    }
    expect(text((await h.query('SELECT a, b, count(*) FROM g GROUP BY CUBE ((a, b)) ORDER BY 1, 2, 3')).rows)).to.have.length(5);
  });
});
