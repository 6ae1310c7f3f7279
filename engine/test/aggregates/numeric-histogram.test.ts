// numeric_histogram: exact bins when the buckets hold every distinct value (DuckDB's counts of the
// same rows), and always at most `buckets` bins whose weights sum to the group's total weight and
// whose weighted mean is the group's mean (DuckDB's sum and avg), through partial and final steps.

import { expect } from 'chai';
import type { MapValue } from '../../src/types/map-value.js';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe('numeric_histogram', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();
  const tpch = duckDbTpchTiny();

  it('is exact when the buckets hold every distinct value', async () => {
    const { rows } = await engine.query(
      'SELECT l_linenumber, numeric_histogram(11, l_discount) FROM tpch.tiny.lineitem GROUP BY 1 ORDER BY 1',
    );
    const reference = (await duckRows(
      tpch.get(),
      'SELECT l_linenumber, CAST(l_discount AS DOUBLE), count(*) FROM lineitem GROUP BY 1, 2 ORDER BY 1, 2',
    )) as [number, number, bigint][];
    const ours = (rows as [number, MapValue][]).flatMap(([line, map]) => map.keys.map((k, i) => [line, k, map.values[i]]));
    expect(ours).to.deep.equal(reference.map(([line, value, count]) => [line, value, Number(count)]));
  });

  it('keeps the total weight and the weighted mean in at most `buckets` bins', async () => {
    const { rows } = await engine.query(
      'SELECT l_returnflag, numeric_histogram(7, l_extendedprice, l_quantity) FROM tpch.tiny.lineitem GROUP BY 1 ORDER BY 1',
    );
    const reference = (await duckRows(
      tpch.get(),
      'SELECT l_returnflag, sum(CAST(l_quantity AS DOUBLE)), sum(CAST(l_extendedprice AS DOUBLE) * CAST(l_quantity AS DOUBLE)) FROM lineitem GROUP BY 1 ORDER BY 1',
    )) as [string, number, number][];
    (rows as [string, MapValue][]).forEach(([flag, map], i) => {
      expect(map.keys.length).to.be.at.most(7);
      const weight = (map.values as number[]).reduce((a, b) => a + b, 0);
      const moment = (map.keys as number[]).reduce((a, k, j) => a + k * (map.values[j] as number), 0);
      expect([flag, close(weight, reference[i][1]), close(moment, reference[i][2])]).to.deep.equal([reference[i][0], true, true]);
    });
  });

  it('takes real values as real', async () => {
    expect((await engine.query("SELECT numeric_histogram(3, REAL '1.5')")).types).to.deep.equal(['map(real, real)']);
  });

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [['SELECT numeric_histogram(1, x) FROM (VALUES 1) t(x)', 'numeric_histogram bucket count must be greater than one']],
    engine,
  );
});
