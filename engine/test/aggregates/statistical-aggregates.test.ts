// corr, covar_pop/samp, regr_slope/intercept, skewness, kurtosis and bitwise_*_agg equal DuckDB's on
// tpch.tiny lineitem (the same rows in both), per group, through the engine's partial and final
// aggregation steps. Trino's skewness is the population g1 = sqrt(n)·M3/M2^1.5; DuckDB's is the
// sample G1 = g1·sqrt(n(n-1))/(n-2), so DuckDB's is converted. Doubles agree to 1e-9 relative:
// the engine merges partial states in another order than DuckDB sums.

import { expect } from 'chai';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { EngineHarness } from '../support/engine-harness.js';

function close(a: unknown, b: unknown): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  const [x, y] = [Number(a), Number(b)];
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
}

describe('statistical and bitwise aggregates equal DuckDB', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();
  const tpch = duckDbTpchTiny();

  async function expectClose(ours: string, theirs: string): Promise<void> {
    const mine = (await engine.query(ours)).rows;
    const reference = await duckRows(tpch.get(), theirs);
    expect(mine).to.have.length(reference.length);
    mine.forEach((row, i) => {
      const differing = row.findIndex((v, c) => !close(v, reference[i][c]));
      expect(differing, `row ${i}: ${String(row)} vs ${String(reference[i])}`).to.equal(-1);
    });
  }

  it('corr, covariances and regression per group', async () => {
    const stats = (y: string, x: string) =>
      `corr(${y}, ${x}), covar_pop(${y}, ${x}), covar_samp(${y}, ${x}), regr_slope(${y}, ${x}), regr_intercept(${y}, ${x})`;
    await expectClose(
      `SELECT l_returnflag, l_linestatus, ${stats('l_extendedprice', 'l_quantity')}, ${stats('l_discount', 'l_tax')} FROM tpch.tiny.lineitem GROUP BY 1, 2 ORDER BY 1, 2`,
      `SELECT l_returnflag, l_linestatus, ${stats('l_extendedprice::DOUBLE', 'l_quantity::DOUBLE')}, ${stats('l_discount::DOUBLE', 'l_tax::DOUBLE')} FROM lineitem GROUP BY 1, 2 ORDER BY 1, 2`,
    );
  });

  it('skewness and kurtosis per group, and NULL below the rows each needs', async () => {
    await expectClose(
      'SELECT o_orderpriority, skewness(o_totalprice), kurtosis(o_totalprice), skewness(o_custkey) FROM tpch.tiny.orders GROUP BY 1 ORDER BY 1',
      `SELECT o_orderpriority, skewness(o_totalprice::DOUBLE) * (count(*) - 2) / sqrt(count(*) * (count(*) - 1)), kurtosis(o_totalprice::DOUBLE),
              skewness(o_custkey::DOUBLE) * (count(*) - 2) / sqrt(count(*) * (count(*) - 1)) FROM orders GROUP BY 1 ORDER BY 1`,
    );
    const { rows } = await engine.query(
      'SELECT skewness(x), kurtosis(x), corr(x, x), covar_samp(x, x), covar_pop(x, x) FROM (VALUES 1, 2, 3) t(x)',
    );
    expect(rows[0]).to.deep.equal([0, null, 1, 1, 2 / 3]);
    const constant = await engine.query('SELECT corr(x, y), regr_slope(y, x) FROM (VALUES (1, 5), (1, 6)) t(x, y)');
    expect(constant.rows[0], 'a constant x: not finite, so NULL').to.deep.equal([null, null]);
  });

  it('real arguments give real results', async () => {
    const { types } = await engine.query("SELECT corr(REAL '1', REAL '2'), covar_pop(REAL '1', 2e0), skewness(REAL '1')");
    expect(types).to.deep.equal(['real', 'double', 'double']);
  });

  it('bitwise_and_agg, bitwise_or_agg, bitwise_xor_agg per group', async () => {
    await expectClose(
      'SELECT o_orderstatus, bitwise_and_agg(o_orderkey), bitwise_or_agg(o_custkey), bitwise_xor_agg(o_orderkey * 1000003 - o_custkey) FROM tpch.tiny.orders GROUP BY 1 ORDER BY 1',
      'SELECT o_orderstatus, bit_and(o_orderkey), bit_or(o_custkey), bit_xor(o_orderkey * 1000003 - o_custkey) FROM orders GROUP BY 1 ORDER BY 1',
    );
    const { rows } = await engine.query(
      "SELECT bitwise_xor_agg(x), bitwise_and_agg(x) FROM (VALUES BIGINT '-9223372036854775808', -1, CAST(NULL AS bigint)) t(x)",
    );
    expect(rows[0]).to.deep.equal([9223372036854775807n, -9223372036854775808n]);
  });
});
