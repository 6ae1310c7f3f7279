// reduce_agg: the documented examples (functions/aggregate.md), Trino's own cases
// (AbstractTestEngineOnlyQueries), the state folded over many rows checked against sum/count/max on
// the same rows, partial states merged with the combine function when a table's splits are
// aggregated on several worker threads, and the refusals (state types Trino does not keep,
// lambdas that refer to columns, lambdas given to another aggregate).

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('reduce_agg', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const rows = (sql: string) => engine.rows(sql);

  it('gives the documented results', async () => {
    const values = 'VALUES (1, 3), (1, 4), (1, 5), (2, 6), (2, 7)';
    expect(
      await rows(
        `SELECT id, reduce_agg(value, 0, (a, b) -> a + b, (a, b) -> a + b) FROM (${values}) AS t(id, value) GROUP BY id ORDER BY id`,
      ),
    ).to.deep.equal([
      [1, 12],
      [2, 13],
    ]);
    expect(
      await rows(
        `SELECT id, reduce_agg(value, 1, (a, b) -> a * b, (a, b) -> a * b) FROM (${values}) AS t(id, value) GROUP BY id ORDER BY id`,
      ),
    ).to.deep.equal([
      [1, 60],
      [2, 42],
    ]);
  });

  it("gives Trino's results for double and varchar states", async () => {
    const doubles = 'VALUES (1, CAST(5 AS DOUBLE)), (1, 6), (1, 7), (2, 8), (2, 9), (3, 10)';
    expect(
      await rows(`SELECT x, reduce_agg(y, 1, (a, b) -> a * b, (a, b) -> a * b) FROM (${doubles}) AS t(x, y) GROUP BY x ORDER BY x`),
    ).to.deep.equal([
      [1, 210],
      [2, 72],
      [3, 10],
    ]);
    const texts = "VALUES ('1', '5'), ('1', '6'), ('1', '7'), ('2', '8'), ('2', '9'), ('3', '10')";
    expect(
      await rows(`SELECT x, reduce_agg(y, '', (a, b) -> a || b, (a, b) -> a || b) FROM (${texts}) AS t(x, y) GROUP BY x ORDER BY x`),
    ).to.deep.equal([
      ['1', '567'],
      ['2', '89'],
      ['3', '10'],
    ]);
  });

  it('folds every non-null value of a group, as sum, count and max do', async () => {
    const [row] = await rows(`SELECT
        reduce_agg(l_linenumber, 0, (s, x) -> s + x, (p, q) -> p + q) = sum(l_linenumber),
        reduce_agg(l_quantity, 0e0, (s, x) -> s + x, (p, q) -> p + q) = sum(CAST(l_quantity AS double)),
        reduce_agg(l_linenumber, 0, (s, x) -> greatest(s, x), (p, q) -> greatest(p, q)) = max(l_linenumber),
        reduce_agg(CASE WHEN l_linenumber > 3 THEN l_orderkey END, BIGINT '0', (s, x) -> s + 1, (p, q) -> p + q) = count_if(l_linenumber > 3)
      FROM tpch.tiny.lineitem`);
    expect(row).to.deep.equal([true, true, true, true]);
    expect(await rows('SELECT reduce_agg(x, 0, (s, v) -> s + v, (p, q) -> p + q) FROM (VALUES CAST(NULL AS integer)) t(x)')).to.deep.equal([
      [null],
    ]);
  });

  it('merges the partial states of worker threads with the combine function', async () => {
    await engine.run(
      'CREATE TABLE many_splits AS SELECT a.x * 1000 + b.x AS x FROM UNNEST(sequence(1, 1000)) a(x) CROSS JOIN UNNEST(sequence(1, 300)) b(x)',
    );
    const [[plan]] = await rows("EXPLAIN SELECT reduce_agg(x, BIGINT '0', (s, v) -> s + 1, (p, q) -> p + q) FROM many_splits");
    expect(plan).to.contain('Aggregate(PARTIAL)');
    expect(
      await rows(
        "SELECT x % 3, reduce_agg(x, BIGINT '0', (s, v) -> s + 1, (p, q) -> p + q) - count(*) FROM many_splits GROUP BY 1 ORDER BY 1",
      ),
    ).to.deep.equal([
      [0n, 0n],
      [1n, 0n],
      [2n, 0n],
    ]);
    // A combine function that marks a merge shows that partial states met (1000 rather than the count).
    expect(await rows("SELECT reduce_agg(x, BIGINT '0', (s, v) -> s + 1, (p, q) -> 1000) FROM many_splits")).to.deep.equal([[1000n]]);
  });

  it('refuses what Trino refuses', async () => {
    const failure = async (sql: string) => {
      const e = await engine.failure(sql);
      return [e.errorName, e.rawMessage];
    };
    expect(await failure('SELECT reduce_agg(x, ARRAY[1], (a, b) -> a, (a, b) -> a) FROM (VALUES 1) t(x)')).to.deep.equal([
      'NOT_SUPPORTED',
      'State type not supported for reduce_agg: array(integer)',
    ]);
    expect((await failure('SELECT reduce_agg(x, 0, (a, b) -> a + x, (a, b) -> a + b) FROM (VALUES 1) t(x)'))[0]).to.equal('NOT_SUPPORTED');
    expect((await failure('SELECT sum(x -> x) FROM (VALUES 1) t(x)'))[0]).to.equal('FUNCTION_NOT_FOUND');
    expect((await failure('SELECT reduce_agg(x, 0, (a) -> a, (a, b) -> a + b) FROM (VALUES 1) t(x)'))[0]).to.equal(
      'INVALID_PARAMETER_USAGE',
    );
  });
});
