// How a call finds its function when routines share names with built-in functions, in Trino's
// order (its SqlPath: the query's inline routines, then system.builtin, then sql.path's schemas):
// TestInlineFunctions' masking cases, routines named like aggregates (an inline count() hides the
// aggregate; a catalog sum() is reached by its full name, the built-in sum by its simple one),
// inline routines seeing only those declared before them, catalog routines in views (and the view
// failing as INVALID_VIEW once the routine is dropped), and SHOW FUNCTIONS listing the path's routines.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { MemoryConnector } from '../../src/connectors/memory/memory-connector.js';
import { loadConfig } from '../../src/config/config-loader.js';

/** An engine with a memory catalog `example`, its schema `default` on sql.path and the default function schema. */
function engineWithPath(): EngineHarness {
  const engine = new EngineHarness();
  engine.catalogs.register('example', new MemoryConnector('example'));
  engine.catalogs.sqlEnvironment = loadConfig({
    flags: { 'sql-default-function-catalog': 'example', 'sql-default-function-schema': 'default', 'sql-path': 'example.default' },
  }).sql;
  return engine;
}

async function rows(engine: EngineHarness, sql: string): Promise<unknown[][]> {
  return (await engine.query(sql)).rows;
}

async function failure(engine: EngineHarness, sql: string): Promise<[string | undefined, string]> {
  const error = await engine.failure(sql);
  return [error.errorName, error.message];
}

describe('SQL routines named like built-in functions, in views, and in SHOW FUNCTIONS', function () {
  this.timeout(60_000);

  it('an inline routine masks a built-in scalar for the arguments it takes, and only those (TestInlineFunctions)', async () => {
    const engine = new EngineHarness();
    expect(await rows(engine, 'WITH FUNCTION abs(x integer) RETURNS integer RETURN x * 2 SELECT abs(-10)')).to.deep.equal([[-20]]);
    // abs(varchar) does not take -3: the built-in abs does.
    expect(await rows(engine, "WITH FUNCTION abs(x varchar) RETURNS varchar RETURN reverse(x) SELECT abs('abc'), abs(-3)")).to.deep.equal([
      ['cba', 3],
    ]);
  });

  it('an inline count() or sum(x integer) hides the aggregate: calls of the name are the routine, per row', async () => {
    const engine = new EngineHarness();
    const count = 'WITH FUNCTION count() RETURNS bigint RETURN 42';
    expect(await rows(engine, `${count} SELECT count()`)).to.deep.equal([[42n]]);
    // count(*) is count() without arguments, as Trino parses it.
    expect(await rows(engine, `${count} SELECT count(*) FROM (VALUES 1, 2, 3) t(x)`)).to.deep.equal([[42n], [42n], [42n]]);
    expect(await failure(engine, `${count} SELECT count(x) FROM (VALUES 1, 2, 3) t(x)`)).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      'line 1:55: Unexpected parameters (integer) for function count. Expected: count()',
    ]);
    const sum = 'WITH FUNCTION sum(x integer) RETURNS integer RETURN x * 10';
    expect(await rows(engine, `${sum} SELECT sum(x) FROM (VALUES 1, 2, 3) t(x)`)).to.deep.equal([[10], [20], [30]]);
    expect(await rows(engine, 'WITH FUNCTION max(x bigint) RETURNS bigint RETURN x * 2 SELECT max(1)')).to.deep.equal([[2n]]);
    expect(await rows(engine, 'WITH FUNCTION rank() RETURNS bigint RETURN 7 SELECT rank()')).to.deep.equal([[7n]]);
    expect(await failure(engine, 'WITH FUNCTION a(x integer) RETURNS INTEGER RETURN a(x) SELECT a(10)')).to.deep.equal([
      'NOT_SUPPORTED',
      'line 1:6: Recursive language functions are not supported: a(integer):integer',
    ]);
    // Without the routine, the aggregate.
    expect(await rows(engine, 'SELECT count(*), sum(x) FROM (VALUES 1, 2, 3) t(x)')).to.deep.equal([[3n, 6n]]);
  });

  it('a catalog routine named like a built-in: the built-in first by simple name, the routine by its full name or where the built-in does not fit', async () => {
    const engine = engineWithPath();
    await engine.query('CREATE FUNCTION example.default.sum(x integer) RETURNS integer RETURN x * 10');
    await engine.query('CREATE FUNCTION example.default.abs(x varchar) RETURNS varchar RETURN reverse(x)');
    await engine.query('CREATE FUNCTION example.default.length(x bigint) RETURNS bigint RETURN x + 1');
    expect(await rows(engine, 'SELECT example.default.sum(4)')).to.deep.equal([[40]]);
    expect(await rows(engine, 'SELECT sum(x) FROM (VALUES 1, 2, 3) t(x)')).to.deep.equal([[6n]]);
    expect(await rows(engine, "SELECT abs(-3), abs('abc')")).to.deep.equal([[3, 'cba']]);
    // The built-in length(varchar) fits 'abcd'; only the routine takes a bigint.
    expect(await rows(engine, "SELECT length('abcd'), length(BIGINT '4')")).to.deep.equal([[4n, 5n]]);
  });

  it("a catalog routine's body does not see the query's inline routines (Trino rebuilds a stored routine's path without them)", async () => {
    const engine = engineWithPath();
    await engine.query('CREATE FUNCTION example.default.absolute(x integer) RETURNS integer RETURN abs(x)');
    expect(
      await rows(
        engine,
        'WITH FUNCTION abs(x integer) RETURNS integer RETURN x * 2 SELECT abs(-10), example.default.absolute(-10), absolute(-3)',
      ),
    ).to.deep.equal([[-20, 10, 3]]);
  });

  it('an inline routine sees the routines declared before it, not after (TestInlineFunctions)', async () => {
    const engine = new EngineHarness();
    expect(
      await failure(
        engine,
        'WITH FUNCTION a(x integer) RETURNS integer RETURN b(x), FUNCTION b(x integer) RETURNS integer RETURN x * 2 SELECT a(10)',
      ),
    ).to.deep.equal(['FUNCTION_NOT_FOUND', "line 1:51: Function 'b' not registered"]);
    expect(
      await rows(
        engine,
        'WITH FUNCTION abs(x integer) RETURNS integer RETURN x * 2, FUNCTION wrap_abs(x integer) RETURNS integer RETURN abs(x) SELECT wrap_abs(-10)',
      ),
    ).to.deep.equal([[-20]]);
  });

  it('a view calls catalog routines; once one is dropped the view fails as INVALID_VIEW', async () => {
    const engine = engineWithPath();
    await engine.query('CREATE FUNCTION example.default.twice(x bigint) RETURNS bigint RETURN x * 2');
    await engine.query('CREATE FUNCTION example.default.plus1(x bigint) RETURNS bigint RETURN example.default.twice(x) + 1');
    await engine.query("CREATE TABLE memory.default.t AS SELECT * FROM (VALUES BIGINT '1', 2, 3) t(a)");
    await engine.query('CREATE VIEW memory.default.v AS SELECT a, example.default.plus1(a) AS b, twice(a) AS c FROM memory.default.t');
    expect(await rows(engine, 'SELECT * FROM memory.default.v ORDER BY a')).to.deep.equal([
      [1n, 3n, 2n],
      [2n, 5n, 4n],
      [3n, 7n, 6n],
    ]);
    // The query's inline routine of the same name is not in the view's sight.
    expect(
      await rows(engine, 'WITH FUNCTION twice(x bigint) RETURNS bigint RETURN 0 SELECT twice(c) FROM memory.default.v ORDER BY a'),
    ).to.deep.equal([[0n], [0n], [0n]]);
    expect(
      await rows(engine, 'WITH FUNCTION twice(x bigint) RETURNS bigint RETURN 0 SELECT c FROM memory.default.v ORDER BY a'),
    ).to.deep.equal([[2n], [4n], [6n]]);
    await engine.query('DROP FUNCTION example.default.twice(bigint)');
    const [name, message] = await failure(engine, 'SELECT * FROM memory.default.v');
    expect(name).to.equal('INVALID_VIEW');
    expect(message).to.match(/^line 1:15: Failed analyzing stored view 'memory.default.v': line 1:\d+: Function 'twice' not registered$/);
  });

  it('SHOW FUNCTIONS lists the routines of sql.path with the built-ins, in Trino order; FROM a schema lists its routines', async () => {
    const engine = engineWithPath();
    await engine.query("CREATE FUNCTION example.default.abs(x varchar) RETURNS varchar COMMENT 'reversed' RETURN reverse(x)");
    await engine.query('CREATE FUNCTION example.default.zz_answer() RETURNS bigint RETURN 42');
    await engine.query('CREATE FUNCTION example.default.Ab_second(x bigint) RETURNS double NOT DETERMINISTIC RETURN random() + x');
    const listed = await rows(engine, "SHOW FUNCTIONS LIKE 'ab%'");
    expect(listed.map((r) => r.slice(0, 5))).to.deep.include.members([['abs', 'varchar', 'varchar', 'scalar', true]]);
    expect(listed.find((r) => r[2] === 'varchar')?.[5]).to.equal('reversed');
    expect(listed.map((r) => r[0])).to.deep.equal([...listed.map((r) => r[0] as string)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(listed.filter((r) => r[0] === 'ab_second')).to.deep.equal([['ab_second', 'double', 'bigint', 'scalar', false, '']]);
    expect(await rows(engine, "SHOW FUNCTIONS LIKE 'zz%'")).to.deep.equal([['zz_answer', 'bigint', '', 'scalar', true, '']]);
    expect((await rows(engine, 'SHOW FUNCTIONS FROM example.default')).map((r) => r.slice(0, 3))).to.deep.equal([
      ['ab_second', 'double', 'bigint'],
      ['abs', 'varchar', 'varchar'],
      ['zz_answer', 'bigint', ''],
    ]);
  });
});
