// approx_most_frequent: exact counts, most frequent first, when the capacity holds every distinct
// value (checked against DuckDB's counts of tpch.tiny lineitem per group); with a smaller capacity
// the stream summary only ever overestimates a count, as space saving guarantees.

import { expect } from 'chai';
import type { MapValue } from '../../src/types/map-value.js';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('approx_most_frequent', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();
  const tpch = duckDbTpchTiny();

  const trueCounts = async (column: string) => {
    const rows = (await duckRows(tpch.get(), `SELECT l_returnflag, CAST(${column} AS VARCHAR), count(*) FROM lineitem GROUP BY 1, 2`)) as [
      string,
      string,
      bigint,
    ][];
    return new Map(rows.map(([flag, value, count]) => [`${flag}/${value}`, count]));
  };

  it('counts exactly, most frequent first, when the capacity holds every value', async () => {
    const counts = await trueCounts('l_shipmode');
    const { rows } = await engine.query(
      'SELECT l_returnflag, approx_most_frequent(3, l_shipmode, 100) FROM tpch.tiny.lineitem GROUP BY 1 ORDER BY 1',
    );
    for (const [flag, map] of rows as [string, MapValue][]) {
      expect(map.keys).to.have.length(3);
      map.keys.forEach((key, i) => expect(map.values[i], `${flag}/${key}`).to.equal(counts.get(`${flag}/${key}`)));
      const sorted = [...counts]
        .filter(([k]) => k.startsWith(`${flag}/`))
        .map(([, c]) => c)
        .sort((a, b) => Number(b - a));
      expect(map.values).to.deep.equal(sorted.slice(0, 3));
    }
  });

  it('only overestimates with a capacity below the number of values', async () => {
    const counts = await trueCounts('l_suppkey');
    const { rows } = await engine.query(
      'SELECT l_returnflag, approx_most_frequent(5, l_suppkey, 20) FROM tpch.tiny.lineitem GROUP BY 1 ORDER BY 1',
    );
    for (const [flag, map] of rows as [string, MapValue][]) {
      expect(map.keys).to.have.length(5);
      map.keys.forEach((key, i) =>
        expect((map.values[i] as bigint) >= (counts.get(`${flag}/${key}`) ?? 0n), `${flag}/${key}`).to.equal(true),
      );
    }
  });

  it('answers bigint and varchar values as maps in count order', async () => {
    const { rows, types } = await engine.query(
      'SELECT approx_most_frequent(3, x, 15), approx_most_frequent(2, CAST(x AS varchar), 15) FROM (VALUES 1, 2, 1, 3, 1, 2, 3, 4, 5) t(x)',
    );
    expect(types).to.deep.equal(['map(bigint, bigint)', 'map(varchar, bigint)']);
    expect([(rows[0][0] as MapValue).keys, (rows[0][1] as MapValue).keys.length]).to.deep.equal([[1n, 2n, 3n], 2]);
  });

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [['SELECT approx_most_frequent(1, x, 3) FROM (VALUES 1) t(x)', 'approx_most_frequent bucket count must be greater than one']],
    engine,
  );
});
