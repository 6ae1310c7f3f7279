// GROUP BY AUTO groups by every select item that holds no aggregate (before: NOT_SUPPORTED). The
// oracles: Trino's documented example (sql/select.md, over tpch.tiny's customer) and DuckDB's
// GROUP BY ALL, which derives its grouping columns the same way.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { cliRows } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('GROUP BY AUTO', () => {
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

  // The page's tpch maps acctbal to double (Trino's tpch default), ours to decimal(12,2): the sums agree to the cent.
  it("gives the documented sums per market segment (Trino's select.md)", async () => {
    const rows = await cliRows(h, 'SELECT c_mktsegment, sum(c_acctbal) FROM tpch.tiny.customer GROUP BY AUTO');
    expect(rows.sort()).to.deep.equal([
      ['AUTOMOBILE', '1395695.72'],
      ['BUILDING', '1444587.80'],
      ['FURNITURE', '1265282.80'],
      ['HOUSEHOLD', '1279340.66'],
      ['MACHINERY', '1296958.61'],
    ]);
  });

  it('groups as DuckDB GROUP BY ALL does: expressions, several columns, none, with HAVING', async () => {
    const text = (rows: unknown[][]) => rows.map((row) => row.map((v) => (v === null ? 'NULL' : String(v)))).sort();
    const queries = [
      'SELECT a, count(*) FROM g GROUP BY AUTO',
      'SELECT a, b, sum(c) FROM g GROUP BY AUTO',
      'SELECT a + 1 AS a1, max(c) - min(c) FROM g GROUP BY AUTO',
      'SELECT count(*), sum(c) FROM g GROUP BY AUTO',
      'SELECT b, count(*) FROM g GROUP BY AUTO HAVING count(*) > 1',
    ];
    for (const sql of queries) {
      const ours = text(await h.rows(sql));
      const theirs = text(await duckRows(duck, sql.replace('GROUP BY AUTO', 'GROUP BY ALL')));
      expect(ours, sql).to.deep.equal(theirs);
    }
  });

  it('refuses SELECT * with AUTO, naming it', async () => {
    const error = await h.failure('SELECT *, count(*) FROM g GROUP BY AUTO');
    expect([error.errorName, error.rawMessage]).to.deep.equal(['NOT_SUPPORTED', 'GROUP BY AUTO with SELECT * is not supported']);
  });
});
