// FETCH FIRST n ROWS WITH TIES: the first n rows of the ORDER BY and every row that ties with the
// n-th, in order; checked against DuckDB computing the same set another way (rows whose key is at or
// before the n-th row's key), on tpch.tiny lineitem with many ties; Trino's error without ORDER BY.

import { expect } from 'chai';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('FETCH FIRST ... WITH TIES', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const tpch = duckDbTpchTiny();

  it('keeps the rows tying with the last one, in order', async () => {
    expect((await engine.query('SELECT x FROM (VALUES 1, 2, 2, 3) t(x) ORDER BY x FETCH FIRST 2 ROWS WITH TIES')).rows).to.deep.equal([
      [1],
      [2],
      [2],
    ]);
    expect(
      (await engine.query('SELECT x FROM (VALUES 1, 1, 2) t(x) UNION ALL SELECT 5 ORDER BY 1 FETCH FIRST 1 ROW WITH TIES')).rows,
    ).to.deep.equal([[1], [1]]);
  });

  it('equals DuckDB on tpch.tiny lineitem ordered by a key with many ties', async () => {
    for (const n of [1, 7, 100]) {
      const ours = await engine.query(
        `SELECT l_quantity, l_orderkey, l_linenumber FROM tpch.tiny.lineitem ORDER BY l_quantity DESC FETCH FIRST ${n} ROWS WITH TIES`,
      );
      const theirs = await duckRows(
        tpch.get(),
        `SELECT l_quantity, l_orderkey, l_linenumber FROM lineitem WHERE l_quantity >= (SELECT l_quantity FROM lineitem ORDER BY l_quantity DESC LIMIT 1 OFFSET ${n - 1}) ORDER BY l_quantity DESC, l_orderkey, l_linenumber`,
      );
      const key = (rows: unknown[][]) => rows.map((r) => `${Number(r[0]) / (typeof r[0] === 'bigint' ? 100 : 1)}|${r[1]}|${r[2]}`).sort();
      expect(key(ours.rows).length, `n = ${n}`).to.equal(theirs.length);
      expect(key(ours.rows)).to.deep.equal(key(theirs.map((r) => [Number(String(r[0])), r[1], r[2]])));
      const quantities = ours.rows.map((r) => r[0] as bigint);
      expect(quantities, 'in ORDER BY order').to.deep.equal([...quantities].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    }
  });

  it('requires ORDER BY, as Trino', async () => {
    const error = await engine.failure('SELECT x FROM (VALUES 1, 2) t(x) FETCH FIRST 1 ROWS WITH TIES');
    expect([error.errorName, error.rawMessage]).to.deep.equal(['MISSING_ORDER_BY', 'FETCH FIRST WITH TIES clause requires ORDER BY']);
  });
});
