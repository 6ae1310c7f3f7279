// min(x, n), max(x, n), min_by(x, y, n) and max_by(x, y, n) equal DuckDB's min/max(x, n) and
// arg_min/arg_max(x, y, n) per group on tpch.tiny (through partial and final steps), skip NULL keys,
// keep NULL values, and refuse an n out of Trino's range with its messages.

import { expect } from 'chai';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

const items = (v: unknown): unknown[] => (v as { items: unknown[] }).items;

describe('min/max(x, n) and min_by/max_by(x, y, n)', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();
  const tpch = duckDbTpchTiny();

  it('equal DuckDB per group on tpch.tiny orders', async () => {
    const ours = await engine.query(
      'SELECT o_orderpriority, max(o_totalprice, 5), min(o_totalprice, 5), max_by(o_orderkey, o_totalprice, 3), min_by(o_clerk, o_orderkey, 4) FROM tpch.tiny.orders GROUP BY 1 ORDER BY 1',
    );
    const theirs = await duckRows(
      tpch.get(),
      'SELECT o_orderpriority, max(o_totalprice, 5), min(o_totalprice, 5), arg_max(o_orderkey, o_totalprice, 3), arg_min(o_clerk, o_orderkey, 4) FROM orders GROUP BY 1 ORDER BY 1',
    );
    const text = (rows: unknown[][]) =>
      rows.map((r) =>
        r.map((v) =>
          Array.isArray(v) ? v.map(String) : typeof v === 'object' && v !== null && 'items' in v ? items(v).map(String) : String(v),
        ),
      );
    // Our decimals are unscaled bigints: scale them as DuckDB prints them.
    const scaled = ours.rows.map(([p, a, b, c, d]) => [
      p,
      (a as bigint[]).map((x) => (Number(x) / 100).toString()),
      (b as bigint[]).map((x) => (Number(x) / 100).toString()),
      c,
      d,
    ]);
    const duckScaled = theirs.map(([p, a, b, c, d]) => [
      p,
      items(a).map((x) => Number(String(x)).toString()),
      items(b).map((x) => Number(String(x)).toString()),
      c,
      d,
    ]);
    expect(text(scaled)).to.deep.equal(text(duckScaled));
  });

  it('skips NULL keys and keeps NULL values', async () => {
    const { rows } = await engine.query(
      "SELECT max(x, 2), min(x, 3), max_by(s, x, 2), min_by(s, x, 10) FROM (VALUES (1, 'a'), (5, 'e'), (3, NULL), (NULL, 'n'), (4, 'd')) t(x, s)",
    );
    expect(rows[0]).to.deep.equal([
      [5, 4],
      [1, 3, 4],
      ['e', 'd'],
      ['a', null, 'd', 'e'],
    ]);
  });

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ['SELECT max(x, 0) FROM (VALUES 1) t(x)', 'second argument of max_n must be positive'],
      ['SELECT min(x, 10001) FROM (VALUES 1) t(x)', 'second argument of min_n must be less than or equal to 10000; found 10001'],
      ['SELECT max_by(x, x, -1) FROM (VALUES 1) t(x)', 'third argument of max_by must be a positive integer'],
      ['SELECT min_by(x, x, 20000) FROM (VALUES 1) t(x)', 'third argument of min_by must be less than or equal to 10000; found 20000'],
    ],
    engine,
  );
});
