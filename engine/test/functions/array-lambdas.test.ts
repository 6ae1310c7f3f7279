// Lambdas as Trino analyzes and runs them: argument types from the function's signature, a return
// variable widened to the body's type (reduce's state), no coercion of a body's type, captured and
// shadowed columns, Trino's errors for a misplaced lambda, a lambda of another arity or type, a
// lambda failing on a value; and NULL handling of the functions taking lambdas. Expected answers and
// messages are Trino's (its docs, and its own tests' cases in TestArray*Function).

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { formatValueAsText } from '../../src/types/values.js';

describe('lambda expressions and the array functions taking them', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  before(async () => {
    await engine.run(
      'CREATE TABLE t (k integer, a array(integer))',
      'INSERT INTO t VALUES (2, ARRAY[1, 2]), (3, ARRAY[4, NULL]), (NULL, ARRAY[5]), (4, NULL), (5, ARRAY[])',
    );
  });

  async function texts(sql: string): Promise<string[][]> {
    const { rows, columns } = await engine.query(sql);
    return rows.map((row) => row.map((v, i) => formatValueAsText(v, columns[i].type)));
  }

  async function failure(sql: string): Promise<[string, string]> {
    const error = await engine.failure(sql);
    return [error.errorName, error.message];
  }

  it("captures the row's columns; a parameter shadows a column of its name", async () => {
    expect(await texts('SELECT k, transform(a, x -> x * k), filter(a, k -> k > 1) FROM t ORDER BY k NULLS LAST')).to.deep.equal([
      ['2', '[2, 4]', '[2]'],
      ['3', '[12, NULL]', '[4]'],
      ['4', 'NULL', 'NULL'],
      ['5', '[]', '[]'],
      ['NULL', '[NULL]', '[5]'],
    ]);
    // Nested lambdas: the inner one sees the outer one's parameter and the row; an inner parameter shadows an outer one.
    expect(
      await texts(
        'SELECT transform(a, x -> transform(a, y -> x * 10 + y + k)), transform(a, x -> transform(ARRAY[7], x -> x)) FROM t WHERE k = 2',
      ),
    ).to.deep.equal([['[[13, 14], [23, 24]]', '[[7], [7]]']]);
  });

  it("runs in WHERE, in GROUP BY queries over grouped columns, and in an aggregation's argument", async () => {
    expect(await texts('SELECT k FROM t WHERE any_match(a, x -> x > k) ORDER BY k')).to.deep.equal([['3']]);
    expect(await texts('SELECT k, transform(a, x -> x + k) FROM t WHERE k < 4 GROUP BY k, a ORDER BY k')).to.deep.equal([
      ['2', '[3, 4]'],
      ['3', '[7, NULL]'],
    ]);
    expect(await texts('SELECT sum(reduce(a, 0, (s, x) -> s + coalesce(x, 0), s -> s * k)) FROM t')).to.deep.equal([['18']]);
    // A parameter named as a column that is not grouped is the parameter, not the column.
    expect(await texts('SELECT transform(a, k -> k * 10) FROM t GROUP BY a ORDER BY 1')).to.deep.equal([
      ['[]'],
      ['[10, 20]'],
      ['[40, NULL]'],
      ['[50]'],
      ['NULL'],
    ]);
    expect(await failure('SELECT transform(a, x -> x + k) FROM t GROUP BY a')).to.deep.equal([
      'EXPRESSION_NOT_AGGREGATE',
      "line 1:30: 'k' must be an aggregate expression or appear in GROUP BY clause",
    ]);
  });

  it('NULL arrays give NULL; a NULL element reaches the lambda as NULL', async () => {
    expect(
      await texts(
        'SELECT transform(CAST(NULL AS array(integer)), x -> x + 1), filter(CAST(NULL AS array(integer)), x -> true), reduce(NULL, 0, (s, x) -> s + x, s -> s)',
      ),
    ).to.deep.equal([['NULL', 'NULL', 'NULL']]);
    expect(await texts('SELECT transform(ARRAY[NULL, 3, NULL], x -> x IS NULL), transform(ARRAY[NULL, 3], x -> x + 1)')).to.deep.equal([
      ['[true, false, true]', '[NULL, 4]'],
    ]);
    // A NULL initial state is a state like any other.
    expect(
      await texts('SELECT reduce(ARRAY[NULL, 6, 10, NULL, 8], CAST(NULL AS bigint), (s, x) -> IF(s IS NULL OR x > s, x, s), s -> s)'),
    ).to.deep.equal([['10']]);
    expect(
      await texts('SELECT zip_with(ARRAY[1], ARRAY[2, 3], (x, y) -> coalesce(x, 0) + y), array_first(ARRAY[NULL, 2], x -> x IS NULL)'),
    ).to.deep.equal([['[3, 3]', 'NULL']]);
  });

  it('elements of every kind of column reach the lambda as values of their type', async () => {
    await engine.run(
      `CREATE TABLE typed AS SELECT * FROM (VALUES (ARRAY[true, false, NULL], ARRAY[DATE '2020-01-31'], ARRAY[CAST(1 AS decimal(30,2))], ARRAY[X'0102'], ARRAY[TIMESTAMP '2020-01-01 10:00:00.123'], ARRAY['ab', NULL])) v(b, d, l, y, ts, s)`,
    );
    expect(
      await texts(`SELECT filter(b, x -> x), transform(b, x -> NOT x), transform(d, x -> x + INTERVAL '1' MONTH), transform(l, x -> x * 2),
        transform(y, x -> length(x)), transform(ts, x -> hour(x)), transform(s, x -> upper(x) || '!') FROM typed`),
    ).to.deep.equal([['[true]', '[false, true, NULL]', '[2020-02-29]', '[2.00]', '[2]', '[10]', '[AB!, NULL]']]);
  });

  it("any_match / all_match / none_match: a NULL predicate result is unknown, as Trino's tests say", async () => {
    expect(
      await texts(`SELECT all_match(ARRAY[true, true, NULL], x -> x), all_match(ARRAY[NULL, NULL], x -> x > 1), all_match(ARRAY[NULL, NULL], x -> x IS NULL),
        any_match(ARRAY[false, false, NULL], x -> x), any_match(ARRAY[true, false, NULL], x -> x), any_match(ARRAY[NULL, NULL], x -> x > 1),
        none_match(ARRAY[false, NULL], x -> x), none_match(ARRAY[true, NULL], x -> x), none_match(ARRAY[], x -> x > 0)`),
    ).to.deep.equal([['NULL', 'NULL', 'true', 'NULL', 'true', 'NULL', 'NULL', 'false', 'true']]);
  });

  it("types: parameters from the signature, a result variable from the body, reduce's state widened to the body's type", async () => {
    const { types } =
      await engine.query(`SELECT transform(ARRAY[1], x -> CAST(x AS double)), transform(ARRAY['ab'], x -> length(x)), transform(ARRAY[], x -> x + 1),
      reduce(ARRAY[123456789012345, NULL, 54321], 0, (s, x) -> s + coalesce(x, 0), s -> s), reduce(ARRAY[1], 0, (s, x) -> s + x, s -> s > 0)`);
    expect(types).to.deep.equal(['array(double)', 'array(bigint)', 'array(integer)', 'bigint', 'boolean']);
    expect(await texts('SELECT reduce(ARRAY[123456789012345, NULL, 54321], 0, (s, x) -> s + coalesce(x, 0), s -> s)')).to.deep.equal([
      ['123456789066666'],
    ]);
  });

  it('refuses a lambda outside a function, a body that needs coercion, and arguments no signature takes, naming the function and its signatures', async () => {
    expect(await failure('SELECT x -> x + 1')).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:8: Lambda expression should always be used inside a function',
    ]);
    expect(await failure('SELECT coalesce(x -> 1, 2)')).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:17: Lambda expression should always be used inside a function',
    ]);
    expect(await failure('SELECT filter(ARRAY[1], x -> x + 1)')).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'line 1:8: Unexpected parameters (array(integer), <function>) for function filter. Expected: filter(array(T), function(T,boolean))',
    ]);
    // Trino does not coerce a lambda's result: a NULL for a boolean, a tinyint state for an integer S are refused.
    expect(await failure('SELECT filter(ARRAY[1], x -> NULL)')).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'line 1:8: Unexpected parameters (array(integer), <function>) for function filter. Expected: filter(array(T), function(T,boolean))',
    ]);
    expect(await failure('SELECT reduce(ARRAY[1, NULL, 2], 0, (s, x) -> CAST(s + x AS tinyint), s -> s)')).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'line 1:8: Unexpected parameters (array(integer), integer, <function>, <function>) for function reduce. Expected: reduce(array(T), S, function(S,T,S), function(S,R))',
    ]);
    expect(await failure('SELECT abs(x -> x)')).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'line 1:8: Unexpected parameters (<function>) for function abs. Expected: abs(bigint), abs(decimal(p,s)), abs(double), abs(integer), abs(number), abs(real), abs(smallint), abs(tinyint)',
    ]);
    expect(await failure('SELECT transform(ARRAY[1], 5)')).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'line 1:8: Unexpected parameters (array(integer), integer) for function transform. Expected: transform(array(T), function(T,U))',
    ]);
  });

  it('refuses a lambda of another arity, and a body that does not analyze, at the lambda', async () => {
    expect(await failure('SELECT transform(ARRAY[1], (x, y) -> x)')).to.deep.equal([
      'INVALID_PARAMETER_USAGE',
      'line 1:28: Expected a lambda that takes 1 argument(s) but got 2',
    ]);
    expect(await failure('SELECT array_sort(ARRAY[1, 2], x -> 1)')).to.deep.equal([
      'INVALID_PARAMETER_USAGE',
      'line 1:32: Expected a lambda that takes 2 argument(s) but got 1',
    ]);
    expect(await failure("SELECT transform(ARRAY[1], x -> x + 'a')")).to.deep.equal([
      'TYPE_MISMATCH',
      'line 1:35: Cannot apply operator: integer + varchar(1)',
    ]);
    expect(await failure('SELECT transform(ARRAY[1], x -> nosuch)')).to.deep.equal([
      'COLUMN_NOT_FOUND',
      "line 1:33: Column 'nosuch' cannot be resolved",
    ]);
    expect(await failure('SELECT transform(a, x -> x + sum(k)) FROM t GROUP BY a')).to.deep.equal([
      'EXPRESSION_NOT_SCALAR',
      'line 1:30: Lambda expression cannot contain aggregations, window functions or grouping operations: [sum(k)]',
    ]);
    expect(await failure('SELECT transform(a, x -> (SELECT 1)) FROM t')).to.deep.equal([
      'NOT_SUPPORTED',
      'line 1:26: Lambda expression cannot contain subqueries',
    ]);
  });

  it('an error inside a lambda fails the query with its own name; TRY inside or around the call catches it', async () => {
    expect((await engine.failure('SELECT transform(ARRAY[1, 0], x -> 10 / x)')).errorName).to.equal('DIVISION_BY_ZERO');
    expect((await engine.failure('SELECT transform(a, x -> x / (k - 2)) FROM t')).errorName).to.equal('DIVISION_BY_ZERO');
    expect(await texts('SELECT transform(ARRAY[1, 0], x -> try(10 / x)), try(transform(ARRAY[1, 0], x -> 10 / x))')).to.deep.equal([
      ['[10, NULL]', 'NULL'],
    ]);
    for (const sql of [
      'SELECT array_sort(ARRAY[1, 2, 3], (x, y) -> 2)',
      'SELECT array_sort(ARRAY[1, 2, 3], (x, y) -> CAST(NULL AS integer))',
    ]) {
      expect(await failure(sql), sql).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'Lambda comparator must return either -1, 0, or 1']);
    }
  });

  it('SHOW FUNCTIONS lists the function-typed parameters as Trino writes them, each form with its description', async () => {
    const { rows } = await engine.query("SHOW FUNCTIONS LIKE 'reduce'");
    expect(rows.map((r) => [r[0], r[1], r[2]])).to.deep.equal([['reduce', 'R', 'array(T), S, function(S,T,S), function(S,R)']]);
    // Each form of array_sort with its own description, as Trino lists them.
    const sorts = await engine.query("SHOW FUNCTIONS LIKE 'array_sort'");
    expect(sorts.rows.map((r) => [r[2], r[5]])).to.deep.equal([
      ['array(T)', 'Sorts the given array in ascending order according to the natural ordering of its elements'],
      ['array(T), function(T,T,integer)', 'Sorts the given array with a lambda comparator.'],
    ]);
  });
});
