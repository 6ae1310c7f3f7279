// approx_percentile: exact order statistics on small inputs (every value its own centroid), and on
// tpch.tiny's 60,175 lineitem rows per group a rank error within 1% of each percentile, measured
// against DuckDB's count of the same rows at or below the returned value; weights act as repeat
// counts; partial and final steps merge digests. Trino's bounds: t-digest, compression 100.

import { expect } from 'chai';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('approx_percentile', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();
  const tpch = duckDbTpchTiny();

  it('gives exact order statistics of small inputs, in the type of x', async () => {
    const { rows, types } = await engine.query(
      'SELECT approx_percentile(x, 0.5), approx_percentile(x, ARRAY[0, 0.25, 0.75, 1]), approx_percentile(CAST(x AS double), 0.5), approx_percentile(CAST(x AS real), 0.6) FROM (VALUES 7, 1, 9, 3, 5) t(x)',
    );
    expect(types).to.deep.equal(['bigint', 'array(bigint)', 'double', 'real']);
    expect(rows[0]).to.deep.equal([5n, [1n, 3n, 7n, 9n], 5, 7]);
  });

  // Trino has bigint, real and double signatures; x binds to the most specific it coerces to, so a
  // decimal (which coerces to real and double) is read as real, and an untyped NULL as bigint.
  it('reads decimals as real, in the single, array and weighted forms, and an untyped NULL as bigint', async () => {
    const { rows, types } = await engine.query(
      'SELECT approx_percentile(x, 0.5), approx_percentile(x, ARRAY[0, 1]), approx_percentile(x, w, 0.5), approx_percentile(x, w, ARRAY[0.5]), approx_percentile(NULL, 0.5) FROM (VALUES (7.25, 1), (1.5, 1), (9.0, 1), (3.75, 1), (5.5, 5)) t(x, w)',
    );
    expect(types).to.deep.equal(['real', 'array(real)', 'real', 'array(real)', 'bigint']);
    expect(rows[0]).to.deep.equal([5.5, [1.5, 9], 5.5, [5.5], null]);
  });

  it('weights count as repetitions', async () => {
    const { rows } = await engine.query(
      'SELECT approx_percentile(x, w, 0.5), approx_percentile(x, w, 0.9) FROM (VALUES (1, 1), (2, 1), (3, 10)) t(x, w)',
    );
    expect(rows[0]).to.deep.equal([3n, 3n]);
  });

  it('is NULL for an empty group and skips NULL values', async () => {
    const { rows } = await engine.query('SELECT approx_percentile(x, 0.5) FROM (VALUES CAST(NULL AS bigint), 4) t(x)');
    expect(rows[0]).to.deep.equal([4n]);
    expect((await engine.query('SELECT approx_percentile(x, 0.5) FROM (VALUES 1) t(x) WHERE x > 1')).rows[0]).to.deep.equal([null]);
  });

  it("stays within 1% rank error of DuckDB's exact ranks per group on tpch.tiny lineitem", async () => {
    const percentiles = [0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99];
    const { rows } = await engine.query(
      `SELECT l_returnflag, approx_percentile(l_extendedprice, ARRAY[${percentiles.join(', ')}]), approx_percentile(l_partkey, 0.5) FROM tpch.tiny.lineitem GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).to.have.length(3);
    for (const [flag, values, partkeyMedian] of rows as [string, number[], bigint][]) {
      for (const [i, p] of percentiles.entries()) {
        const [[below, atOrBelow, total]] = (await duckRows(
          tpch.get(),
          `SELECT count(*) FILTER (WHERE l_extendedprice < ${values[i]}), count(*) FILTER (WHERE l_extendedprice <= ${values[i]}), count(*) FROM lineitem WHERE l_returnflag = '${flag}'`,
        )) as bigint[][];
        const [low, high] = [Number(below) / Number(total), Number(atOrBelow) / Number(total)];
        expect(p, `${flag} p${p}: ${values[i]} ranks ${low}..${high}`).to.be.within(low - 0.01, high + 0.01);
      }
      const [[below, total]] = (await duckRows(
        tpch.get(),
        `SELECT count(*) FILTER (WHERE l_partkey < ${partkeyMedian}), count(*) FROM lineitem WHERE l_returnflag = '${flag}'`,
      )) as bigint[][];
      expect(Number(below) / Number(total)).to.be.within(0.49, 0.51);
    }
  });

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ['SELECT approx_percentile(x, 1.5) FROM (VALUES 1) t(x)', 'Percentile must be between 0 and 1'],
      ['SELECT approx_percentile(x, 0.5, 0.5) FROM (VALUES 1) t(x)', 'weight must be >= 1, was 0.5'],
      ['SELECT approx_percentile(x, 0.5) FROM (VALUES infinity()) t(x)', 'value must be finite; was Infinity'],
      ['SELECT approx_percentile(x, 0.5) FROM (VALUES 9007199254740993) t(x)', 'no exact double representation for long: 9007199254740993'],
    ],
    engine,
  );
});
