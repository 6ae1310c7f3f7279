// ORDER BY inside aggregate calls against DuckDB on the same random rows (NULLs and ties in the
// keys): any aggregate takes it, and only the order-sensitive ones (array_agg, listagg, map_agg,
// multimap_agg) depend on it, with FILTER and DISTINCT; Trino's errors for keys that are not
// orderable and for DISTINCT calls ordered by something other than their arguments.

import { expect } from 'chai';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineAndDuckDb, sortedRowTexts } from '../support/engine-and-duckdb.js';
import type { EngineHarness } from '../support/engine-harness.js';
import { seededRandom } from '../support/seeded-random.js';

describe('ORDER BY inside aggregate calls', function () {
  this.timeout(120_000);
  let both: EngineAndDuckDb;
  let engine: EngineHarness;

  before(async () => {
    both = await EngineAndDuckDb.open();
    engine = both.engine;
    const next = seededRandom(25);
    const value = (n: number) => (next() < 0.15 ? 'NULL' : String(Math.floor(next() * n)));
    // id is unique: the last key of every order that must be total.
    const rows = Array.from(
      { length: 400 },
      (_, id) => `(${id}, ${Math.floor(next() * 5)}, ${value(30)}, ${value(6)}, ${value(8)}, 'k${Math.floor(next() * 4)}')`,
    );
    await both.runOnBoth(
      'CREATE TABLE t (id integer, g integer, x integer, y integer, z integer, k varchar)',
      `INSERT INTO t VALUES ${rows.join(', ')}`,
    );
  });

  after(() => both.close());

  /** Our rows of `ours` are DuckDB's of `theirs` (the same question in DuckDB's words). */
  async function expectSame(ours: string, theirs: string): Promise<string[]> {
    const rows = sortedRowTexts(await engine.rows(ours));
    expect(rows).to.deep.equal(sortedRowTexts(await duckRows(both.duck, theirs)), ours);
    return rows;
  }

  it('takes ORDER BY in any aggregate; an order-insensitive one gives what it gives without it', async () => {
    const sql =
      'SELECT g, count(x ORDER BY y), count(*), sum(x ORDER BY y DESC, id), min(x ORDER BY z NULLS FIRST), max(DISTINCT x ORDER BY x), bool_or(x > 20 ORDER BY id) FROM t GROUP BY g';
    const rows = await expectSame(sql, sql);
    expect(rows).to.have.length(5);
    expect(await engine.rows('SELECT count(x ORDER BY y), sum(x ORDER BY y DESC) FROM t')).to.deep.equal(
      await engine.rows('SELECT count(x), sum(x) FROM t'),
    );
  });

  it('drops the ORDER BY of an order-insensitive aggregate from the plan (its keys are not even read)', async () => {
    const [[plan]] = await engine.rows('EXPLAIN SELECT count(o_custkey ORDER BY o_orderdate) FROM tpch.tiny.orders');
    expect(plan).to.match(/TableScan\[table = tpch:tiny\.orders, columns = \[o_custkey\]\]/);
  });

  it('orders array_agg by several keys with NULLs first or last, under FILTER', async () => {
    await expectSame(
      "SELECT g, array_join(array_agg(x ORDER BY y DESC NULLS FIRST, z NULLS LAST, id) FILTER (WHERE z > 2), ',', 'N') FROM t GROUP BY g",
      "SELECT g, array_to_string(list_transform(array_agg(x ORDER BY y DESC NULLS FIRST, z NULLS LAST, id) FILTER (WHERE z > 2), e -> coalesce(CAST(e AS varchar), 'N')), ',') FROM t GROUP BY g",
    );
  });

  it('orders the distinct values of a DISTINCT call (one NULL among them), with plain calls beside it', async () => {
    const rows = await expectSame(
      "SELECT g, array_join(array_agg(DISTINCT y ORDER BY y DESC NULLS LAST) FILTER (WHERE x < 25), ',', 'N'), count(*) FROM t GROUP BY g",
      "SELECT g, array_to_string(list_transform(array_agg(DISTINCT y ORDER BY y DESC NULLS LAST) FILTER (WHERE x < 25), e -> coalesce(CAST(e AS varchar), 'N')), ',') , count(*) FROM t GROUP BY g",
    );
    expect(rows.some((r) => r.includes(',N|'))).to.equal(true);
  });

  it("feeds map_agg and multimap_agg their rows in the call's order: the first value of a key wins, arrays keep the order", async () => {
    // Per key: the value of the first row in the order (map_agg), all of them in order (multimap_agg).
    const perKey = (aggregate: string, order: string) =>
      `SELECT g, key, element_at(m, key) FROM (SELECT g, ${aggregate}(k, x ORDER BY ${order}) FILTER (WHERE z <> 3) AS m FROM t GROUP BY g) CROSS JOIN UNNEST(map_keys(m)) AS u(key)`;
    await expectSame(
      `SELECT g, key, v FROM (${perKey('map_agg', 'y DESC, id')}) r(g, key, v)`,
      'SELECT g, k, first(x ORDER BY y DESC, id) FROM t WHERE z <> 3 GROUP BY g, k',
    );
    await expectSame(
      `SELECT g, key, v FROM (${perKey('map_agg', 'id DESC')}) r(g, key, v)`,
      'SELECT g, k, first(x ORDER BY id DESC) FROM t WHERE z <> 3 GROUP BY g, k',
    );
    await expectSame(
      `SELECT g, key, array_join(v, ',', 'N') FROM (${perKey('multimap_agg', 'y NULLS FIRST, id DESC')}) r(g, key, v)`,
      "SELECT g, k, string_agg(coalesce(CAST(x AS varchar), 'N'), ',' ORDER BY y NULLS FIRST, id DESC) FROM t WHERE z <> 3 GROUP BY g, k",
    );
  });

  it("fails with Trino's errors: keys that are not orderable, DISTINCT ordered by other than its arguments", async () => {
    const failure = async (sql: string) => {
      const error = (await engine.rows(sql).catch((e: unknown) => e)) as { errorName?: string; message: string };
      return [error.errorName, error.message];
    };
    expect(await failure('SELECT count(x ORDER BY m) FROM (VALUES (1, MAP(ARRAY[1], ARRAY[2]))) t(x, m)')).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:8: ORDER BY can only be applied to orderable types (actual: map(integer, integer))',
    ]);
    expect(await failure('SELECT array_agg(DISTINCT x ORDER BY y) FROM t')).to.deep.equal([
      'EXPRESSION_NOT_IN_DISTINCT',
      'line 1:38: For aggregate function with DISTINCT, ORDER BY expressions must appear in arguments',
    ]);
    expect(await failure('SELECT count(DISTINCT x ORDER BY id) FROM t')).to.deep.equal([
      'EXPRESSION_NOT_IN_DISTINCT',
      'line 1:34: For aggregate function with DISTINCT, ORDER BY expressions must appear in arguments',
    ]);
    expect(await engine.rows('SELECT count(DISTINCT t.x ORDER BY x DESC) = count(DISTINCT x) FROM t')).to.deep.equal([[true]]);
  });
});
