import { expect } from 'chai';
import { EngineError } from '../../src/errors/engine-error.js';
import { EngineHarness } from '../support/engine-harness.js';

async function expectError(h: EngineHarness, sql: string, name: string, message: string | RegExp): Promise<EngineError> {
  try {
    await h.query(sql);
  } catch (e) {
    expect(e).to.be.instanceOf(EngineError);
    const err = e as EngineError;
    expect(err.errorName, err.message).to.equal(name);
    if (typeof message === 'string') expect(err.message).to.equal(message);
    else expect(err.message).to.match(message);
    return err;
  }
  throw new Error(`expected ${sql} to fail with ${name}`);
}

describe('analyzer and planner, end to end in-process', () => {
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await h.run(
      'CREATE TABLE t (a integer, b varchar, c double, d decimal(10,2))',
      "INSERT INTO t VALUES (1, 'x', 1.5, 10.25), (2, 'y', 2.5, 20.50), (3, NULL, NULL, NULL), (2, 'z', 0.5, 1.00)",
      'CREATE TABLE u (a integer, e bigint)',
      'INSERT INTO u VALUES (1, 100), (2, 200), (4, 400)',
    );
  });

  it('selects constants without FROM with Trino literal types', async () => {
    const r = await h.query("SELECT 1, 2147483648, 1.50, 1e1, 'abc', true, NULL, DATE '2020-01-02'");
    expect(r.types).to.deep.equal(['integer', 'bigint', 'decimal(3,2)', 'double', 'varchar(3)', 'boolean', 'unknown', 'date']);
    expect(r.rows[0].slice(0, 2)).to.deep.equal([1, 2147483648n]);
    expect(r.columns.map((c) => c.name)).to.deep.equal(['_col0', '_col1', '_col2', '_col3', '_col4', '_col5', '_col6', '_col7']);
  });

  // Trino: the smallest bigint and integer are literals (TestSqlParser.testNumbers), typed by range;
  // one past either end of bigint is refused.
  it('reads the smallest bigint and integer as literals of their type, in projections and predicates', async () => {
    const r = await h.query(
      "SELECT -9223372036854775808, BIGINT '-9223372036854775808', -2147483648, -2147483649, typeof(-2147483648), typeof(-9223372036854775808)",
    );
    expect(r.types.slice(0, 4)).to.deep.equal(['bigint', 'bigint', 'integer', 'bigint']);
    expect(r.rows[0]).to.deep.equal([-9223372036854775808n, -9223372036854775808n, -2147483648, -2147483649n, 'integer', 'bigint']);
    const rows = await h.rows("SELECT x FROM (VALUES BIGINT '-9223372036854775808', 5) v(x) WHERE x = -9223372036854775808");
    expect(rows).to.deep.equal([[-9223372036854775808n]]);
    expect((await h.failure('SELECT -9223372036854775809')).message).to.equal('line 1:8: Invalid numeric literal: -9223372036854775809');
    expect((await h.failure('SELECT -(9223372036854775808)')).message).to.equal('line 1:10: Invalid numeric literal: 9223372036854775808');
  });

  it('filters, projects and orders', async () => {
    const rows = await h.rows('SELECT a, b FROM t WHERE a >= 2 ORDER BY a DESC, b');
    expect(rows).to.deep.equal([
      [3, null],
      [2, 'y'],
      [2, 'z'],
    ]);
  });

  it('orders NULLs last by default and first on request', async () => {
    expect((await h.rows('SELECT b FROM t ORDER BY b')).map((r) => r[0])).to.deep.equal(['x', 'y', 'z', null]);
    expect((await h.rows('SELECT b FROM t ORDER BY b NULLS FIRST')).map((r) => r[0])).to.deep.equal([null, 'x', 'y', 'z']);
  });

  it('aggregates with GROUP BY, HAVING and ordinal references', async () => {
    const rows = await h.rows('SELECT a, count(*), sum(d) FROM t GROUP BY 1 HAVING count(*) >= 1 ORDER BY 1');
    expect(rows).to.deep.equal([
      [1, 1n, 1025n],
      [2, 2n, 2150n],
      [3, 1n, null],
    ]);
  });

  it('computes global aggregates over empty input', async () => {
    expect(await h.rows('SELECT count(*), sum(a), max(b) FROM t WHERE a > 100')).to.deep.equal([[0n, null, null]]);
  });

  it('joins with ON, USING and comma joins', async () => {
    expect(await h.rows('SELECT t.a, e FROM t JOIN u ON t.a = u.a ORDER BY t.a, e')).to.deep.equal([
      [1, 100n],
      [2, 200n],
      [2, 200n],
    ]);
    expect(await h.rows("SELECT a, e FROM t JOIN u USING (a) WHERE b = 'x'")).to.deep.equal([[1, 100n]]);
    expect(await h.rows('SELECT count(*) FROM t, u WHERE t.a = u.a')).to.deep.equal([[3n]]);
    expect(await h.rows("SELECT u.a, t.b FROM t RIGHT JOIN u ON t.a = u.a AND t.b <> 'y' ORDER BY 1, 2")).to.deep.equal([
      [1, 'x'],
      [2, 'z'],
      [4, null],
    ]);
    expect((await h.rows('SELECT t.a, u.a FROM t FULL JOIN u ON t.a = u.a')).length).to.equal(5);
  });

  it('plans equality comma joins as hash joins, never cross joins', async () => {
    const plan = (await h.rows('EXPLAIN SELECT count(*) FROM t, u WHERE t.a = u.a'))[0][0] as string;
    expect(plan).to.match(/InnerJoin\[criteria/);
    expect(plan).not.to.match(/CrossJoin/);
  });

  it('evaluates uncorrelated and correlated subqueries', async () => {
    expect(await h.rows('SELECT a FROM t WHERE a IN (SELECT a FROM u) ORDER BY a')).to.deep.equal([[1], [2], [2]]);
    expect(await h.rows('SELECT a FROM t WHERE a NOT IN (SELECT a FROM u) ORDER BY a')).to.deep.equal([[3]]);
    expect(await h.rows('SELECT a FROM u WHERE EXISTS (SELECT 1 FROM t WHERE t.a = u.a) ORDER BY a')).to.deep.equal([[1], [2]]);
    expect(await h.rows('SELECT a FROM u WHERE NOT EXISTS (SELECT 1 FROM t WHERE t.a = u.a)')).to.deep.equal([[4]]);
    expect(await h.rows('SELECT a, (SELECT count(*) FROM t WHERE t.a = u.a) FROM u ORDER BY a')).to.deep.equal([
      [1, 1n],
      [2, 2n],
      [4, 0n],
    ]);
    expect(await h.rows('SELECT a, (SELECT count(*) FROM t WHERE t.a < u.a) FROM u ORDER BY a')).to.deep.equal([
      [1, 0n],
      [2, 1n],
      [4, 4n],
    ]);
    expect(await h.rows('SELECT (SELECT max(e) FROM u)')).to.deep.equal([[400n]]);
  });

  it('follows NULL semantics of NOT IN with a NULL in the subquery', async () => {
    expect(await h.rows('SELECT count(*) FROM u WHERE a NOT IN (SELECT a FROM t UNION ALL SELECT NULL)')).to.deep.equal([[0n]]);
  });

  it('fails a scalar subquery that returns several rows', async () => {
    await expectError(h, 'SELECT (SELECT a FROM t)', 'SUBQUERY_MULTIPLE_ROWS', 'Scalar sub-query has returned multiple rows');
  });

  it('runs set operations, VALUES and WITH', async () => {
    expect(await h.rows('SELECT a FROM t UNION SELECT a FROM u ORDER BY 1')).to.deep.equal([[1], [2], [3], [4]]);
    expect(await h.rows('SELECT a FROM t INTERSECT SELECT a FROM u ORDER BY 1')).to.deep.equal([[1], [2]]);
    expect(await h.rows('SELECT a FROM t EXCEPT SELECT a FROM u')).to.deep.equal([[3]]);
    expect(await h.rows('WITH x (n) AS (VALUES 1, 2), y AS (SELECT n * 10 AS m FROM x) SELECT sum(m) FROM y')).to.deep.equal([[30n]]);
  });

  it('supports GROUPING SETS, ROLLUP and grouping()', async () => {
    const rows = await h.rows('SELECT a, grouping(a), count(*) FROM t GROUP BY ROLLUP (a) ORDER BY 2, 1');
    expect(rows).to.deep.equal([
      [1, 0n, 1n],
      [2, 0n, 2n],
      [3, 0n, 1n],
      [null, 1n, 4n],
    ]);
  });

  it('reports missing tables and columns with Trino messages and positions', async () => {
    const err = await expectError(
      h,
      'SELECT * FROM memory.default.nope',
      'TABLE_NOT_FOUND',
      "line 1:15: Table 'memory.default.nope' does not exist",
    );
    expect(err.location).to.deep.equal({ line: 1, column: 15 });
    await expectError(h, 'SELECT x FROM t', 'COLUMN_NOT_FOUND', "line 1:8: Column 'x' cannot be resolved");
    await expectError(h, 'SELECT a FROM t, u', 'AMBIGUOUS_NAME', "line 1:8: Column 'a' is ambiguous");
    await expectError(h, "SELECT a + 'x' FROM t", 'TYPE_MISMATCH', /line 1:10: /);
    await expectError(
      h,
      'SELECT b, count(*) FROM t GROUP BY a',
      'EXPRESSION_NOT_AGGREGATE',
      "line 1:8: 'b' must be an aggregate expression or appear in GROUP BY clause",
    );
    await expectError(
      h,
      'SELECT a FROM t WHERE a',
      'TYPE_MISMATCH',
      'line 1:23: WHERE clause must evaluate to a boolean: actual type integer',
    );
  });

  it('runs window functions', async () => {
    const rows = await h.rows('SELECT a, b, row_number() OVER (PARTITION BY a ORDER BY b), sum(a) OVER () FROM t ORDER BY a, b');
    expect(rows).to.deep.equal([
      [1, 'x', 1n, 8n],
      [2, 'y', 1n, 8n],
      [2, 'z', 2n, 8n],
      [3, null, 1n, 8n],
    ]);
  });

  it('supports USE, SET SESSION and prepared statements', async () => {
    await h.run('CREATE SCHEMA memory.s2', 'USE memory.s2', 'CREATE TABLE v (x integer)', 'INSERT INTO v VALUES 7');
    expect(await h.rows('SELECT x FROM v')).to.deep.equal([[7]]);
    await h.run('USE memory.default');
    await h.run("SET SESSION join_distribution_type = 'BROADCAST'");
    expect(h.session.properties.get('join_distribution_type')).to.equal('BROADCAST');
    await h.run('PREPARE p FROM SELECT a FROM t WHERE a = ? OR b = ?');
    expect(await h.rows("EXECUTE p USING 1, 'z'")).to.deep.equal([[1], [2]]);
  });

  it('deletes rows and drops tables', async () => {
    await h.run('CREATE TABLE w AS SELECT * FROM u');
    expect(await h.rows('DELETE FROM w WHERE e > 150')).to.deep.equal([[2n]]);
    expect(await h.rows('SELECT a FROM w')).to.deep.equal([[1]]);
    await h.run('DROP TABLE w');
    await expectError(h, 'SELECT * FROM w', 'TABLE_NOT_FOUND', "line 1:15: Table 'memory.default.w' does not exist");
  });

  it('answers session functions and current time in the session time zone', async () => {
    expect(await h.rows('SELECT current_user, current_catalog, current_schema, current_timezone()')).to.deep.equal([
      ['test', 'memory', 'default', 'UTC'],
    ]);
    // The harness session starts at 2026-11-21 12:00:00 UTC.
    expect(await h.rows('SELECT CAST(current_date AS varchar), CAST(current_timestamp AS varchar)')).to.deep.equal([
      ['2026-11-21', '2026-11-21 12:00:00.000 UTC'],
    ]);
    const shifted = new EngineHarness();
    shifted.session.timeZone = '-05:30';
    expect(await shifted.rows('SELECT CAST(localtimestamp AS varchar)')).to.deep.equal([['2026-11-21 06:30:00.000']]);
  });
});
