// listagg ... WITHIN GROUP: the examples of Trino's functions/aggregate.md with their documented
// results, the overflow behaviours at Trino's 1,048,576-byte limit, and string_agg of DuckDB as a
// second opinion per group on tpch.tiny (through the engine's partial and final steps).

import { expect } from 'chai';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('listagg', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();

  it('the documented examples', async () => {
    const rows = async (sql: string) => (await engine.query(sql)).rows;
    expect(
      await rows("SELECT listagg(value, ',') WITHIN GROUP (ORDER BY value) csv_value FROM (VALUES 'a', 'c', 'b') t(value)"),
    ).to.deep.equal([['a,b,c']]);
    expect(
      await rows("SELECT listagg(CAST(v AS VARCHAR), ',') WITHIN GROUP (ORDER BY v) csv_value FROM (VALUES 1, 3, 2) t(v)"),
    ).to.deep.equal([['1,2,3']]);
    expect(
      await rows(
        "SELECT listagg(value, ',' ON OVERFLOW ERROR) WITHIN GROUP (ORDER BY value) csv_value FROM (VALUES 'a', 'b', 'c') t(value)",
      ),
    ).to.deep.equal([['a,b,c']]);
    expect(
      await rows(
        "SELECT listagg(value, ',' ON OVERFLOW TRUNCATE '.....' WITH COUNT) WITHIN GROUP (ORDER BY value) FROM (VALUES 'a', 'b', 'c') t(value)",
      ),
    ).to.deep.equal([['a,b,c']]);
    expect(
      await rows(
        "SELECT id, listagg(value, ',') WITHIN GROUP (ORDER BY o) csv_value FROM (VALUES (100, 1, 'a'), (200, 3, 'c'), (200, 2, 'b')) t(id, o, value) GROUP BY id ORDER BY id",
      ),
    ).to.deep.equal([
      [100, 'a'],
      [200, 'b,c'],
    ]);
    const megacities = `SELECT country, listagg(city, ',') WITHIN GROUP (ORDER BY population DESC) FILTER (WHERE population >= 10_000_000) megacities
      FROM (VALUES ('India', 'Bangalore', 13_700_000), ('India', 'Chennai', 12_200_000), ('India', 'Ranchi', 1_547_000), ('Austria', 'Vienna', 1_897_000), ('Poland', 'Warsaw', 1_765_000)) t(country, city, population)
      GROUP BY country ORDER BY country`;
    expect(await rows(megacities)).to.deep.equal([
      ['Austria', null],
      ['India', 'Bangalore,Chennai'],
      ['Poland', null],
    ]);
  });

  it('skips NULL values, separates with nothing by default, takes DISTINCT', async () => {
    const { rows } = await engine.query(
      "SELECT listagg(v) WITHIN GROUP (ORDER BY v DESC), listagg(DISTINCT v, '-') WITHIN GROUP (ORDER BY v), listagg(n) WITHIN GROUP (ORDER BY v) FROM (VALUES ('a', CAST(NULL AS varchar)), (NULL, NULL), ('b', NULL), ('a', NULL)) t(v, n)",
    );
    expect(rows).to.deep.equal([['baa', 'a-b', null]]);
  });

  it('past 1,048,576 bytes: ERROR fails the query, TRUNCATE ends with the filler and the omitted count', async () => {
    const big = "FROM (SELECT n, array_join(repeat('x', 1000), '') s FROM UNNEST(sequence(1, 1100)) t(n))";
    const error = await engine.failure(`SELECT listagg(s, ',') WITHIN GROUP (ORDER BY n) ${big}`);
    expect([error.errorName, error.rawMessage]).to.deep.equal([
      'EXCEEDED_FUNCTION_MEMORY_LIMIT',
      'Concatenated string has the length in bytes larger than the maximum output length 1048576',
    ]);
    const [[withCount, withoutCount]] = (
      await engine.query(
        `SELECT listagg(s, ',' ON OVERFLOW TRUNCATE '[more]' WITH COUNT) WITHIN GROUP (ORDER BY n), listagg(s, ',' ON OVERFLOW TRUNCATE WITHOUT COUNT) WITHIN GROUP (ORDER BY n) ${big}`,
      )
    ).rows as string[][];
    // 1,047 values of 1,000 bytes and their separators fit (1,047,046 bytes); the 1,048th would not.
    expect(withCount.endsWith(',[more](53)')).to.equal(true);
    expect(withCount.length).to.equal(1047 * 1001 + '[more](53)'.length);
    expect(withoutCount.endsWith('x,...')).to.equal(true);
  });

  it('refuses a value that is not varchar and a separator that is not a literal, as Trino', async () => {
    const error = await engine.failure("SELECT listagg(v, ',') WITHIN GROUP (ORDER BY v) FROM (VALUES 1, 2) t(v)");
    expect([error.errorName, error.rawMessage]).to.deep.equal([
      'TYPE_MISMATCH',
      "Expected expression of varchar, but 'v' has integer type",
    ]);
    expect((await engine.failure("SELECT listagg(v, v) WITHIN GROUP (ORDER BY v) FROM (VALUES 'a') t(v)")).errorName).to.equal(
      'SYNTAX_ERROR',
    );
  });

  it('as a window function keeps its WITHIN GROUP order, as Trino does (TestListagg)', async () => {
    const sql = "SELECT listagg(v, ',') WITHIN GROUP (ORDER BY v DESC) OVER () FROM (VALUES 'a', 'b') t(v)";
    expect(await engine.rows(sql)).to.deep.equal([['b,a'], ['b,a']]);
  });

  it('equals DuckDB string_agg per group on tpch.tiny, ordered by a key', async () => {
    const duck = await duckDbWithTpch('tiny', 1);
    try {
      const ours = await engine.query(
        "SELECT o_orderpriority, listagg(CAST(o_orderkey AS varchar), '|') WITHIN GROUP (ORDER BY o_totalprice DESC, o_orderkey) FROM tpch.tiny.orders WHERE o_orderkey < 3000 GROUP BY 1 ORDER BY 1",
      );
      const theirs = await duckRows(
        duck,
        "SELECT o_orderpriority, string_agg(CAST(o_orderkey AS VARCHAR), '|' ORDER BY o_totalprice DESC, o_orderkey) FROM orders WHERE o_orderkey < 3000 GROUP BY 1 ORDER BY 1",
      );
      expect(ours.rows).to.deep.equal(theirs);
    } finally {
      duck.closeSync();
    }
  });
});
