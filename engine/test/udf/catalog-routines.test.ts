// Catalog routines (sql/create-function.md, drop-function.md, show-create-function.md,
// show-functions.md, udf/function.md, udf/sql/examples.md) stored by a memory catalog named
// `example`, as the pages name it: their documented results as the oracle, and Trino's errors.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { MemoryConnector } from '../../src/connectors/memory/memory-connector.js';

function engineWithExample(): EngineHarness {
  const engine = new EngineHarness();
  engine.catalogs.register('example', new MemoryConnector('example'));
  return engine;
}

describe('SQL routines stored in a catalog', function () {
  this.timeout(60_000);

  it('create-function.md and function.md: meaning_of_life, created and called by its full name', async () => {
    const engine = engineWithExample();
    await engine.query('CREATE FUNCTION example.default.meaning_of_life() RETURNS bigint BEGIN RETURN 42; END');
    expect((await engine.query('SELECT example.default.meaning_of_life()')).rows).to.deep.equal([[42n]]);
  });

  it('examples.md: answer() from the catalog, called several times without repeating its definition', async () => {
    const engine = engineWithExample();
    await engine.query('CREATE FUNCTION example.default.answer() RETURNS BIGINT RETURN 42');
    expect((await engine.query('SELECT example.default.answer() + 1')).rows).to.deep.equal([[43n]]);
    expect((await engine.query("SELECT 'The answer is ' || CAST(example.default.answer() as varchar)")).rows).to.deep.equal([
      ['The answer is 42'],
    ]);
  });

  it('a catalog routine calls another, is replaced by CREATE OR REPLACE, and is called beside an inline routine of the same simple name', async () => {
    const engine = engineWithExample();
    await engine.query('CREATE FUNCTION example.default.answer() RETURNS BIGINT RETURN 42');
    await engine.query('CREATE FUNCTION example.default.plus(x bigint) RETURNS BIGINT RETURN example.default.answer() + x');
    expect((await engine.query('SELECT example.default.plus(1)')).rows).to.deep.equal([[43n]]);
    await engine.query('CREATE OR REPLACE FUNCTION example.default.answer() RETURNS BIGINT RETURN 7');
    expect((await engine.query('SELECT example.default.plus(1)')).rows).to.deep.equal([[8n]]);
    expect(
      (await engine.query('WITH FUNCTION plus(x bigint) RETURNS bigint RETURN x - 1 SELECT plus(example.default.plus(1))')).rows,
    ).to.deep.equal([[7n]]);
  });

  it('is called in INSERT, UPDATE, DELETE and MERGE too', async () => {
    const engine = engineWithExample();
    await engine.query('CREATE FUNCTION example.default.inc(x bigint) RETURNS bigint RETURN x + 1');
    await engine.query("CREATE TABLE t AS SELECT BIGINT '1' AS a");
    await engine.query('INSERT INTO t VALUES (example.default.inc(5))');
    await engine.query('UPDATE t SET a = example.default.inc(a) WHERE example.default.inc(a) > 2');
    expect((await engine.query('SELECT a FROM t ORDER BY a')).rows).to.deep.equal([[1n], [7n]]);
    await engine.query('DELETE FROM t WHERE example.default.inc(a) = 8');
    await engine.query('MERGE INTO t USING (VALUES 1) AS s (k) ON t.a = s.k WHEN MATCHED THEN UPDATE SET a = example.default.inc(a) * 100');
    expect((await engine.query('SELECT a FROM t')).rows).to.deep.equal([[200n]]);
  });

  it('show-create-function.md: the statement that creates each overload', async () => {
    const engine = engineWithExample();
    await engine.query("CREATE FUNCTION example.default.meaning_of_life() RETURNS bigint COMMENT 'life' RETURN 42");
    await engine.query(
      'CREATE FUNCTION example.default.meaning_of_life(x bigint) RETURNS bigint BEGIN DECLARE y bigint DEFAULT 2; RETURN x * y; END',
    );
    const { rows, columns } = await engine.query('SHOW CREATE FUNCTION example.default.meaning_of_life');
    expect(columns.map((c) => c.name)).to.deep.equal(['Create Function']);
    expect(rows).to.deep.equal([
      ["CREATE FUNCTION example.default.meaning_of_life() RETURNS bigint COMMENT 'life' RETURN 42"],
      ['CREATE FUNCTION example.default.meaning_of_life(x bigint) RETURNS bigint BEGIN DECLARE y bigint DEFAULT 2; RETURN x * y; END'],
    ]);
    // What SHOW CREATE FUNCTION prints creates the same routine again.
    await engine.query('DROP FUNCTION example.default.meaning_of_life(bigint)');
    await engine.query(rows[1][0] as string);
    expect((await engine.query('SELECT example.default.meaning_of_life(21)')).rows).to.deep.equal([[42n]]);
  });

  it('show-functions.md: SHOW FUNCTIONS FROM example.default lists the routines, LIKE filters them', async () => {
    const engine = engineWithExample();
    await engine.query("CREATE FUNCTION example.default.answer() RETURNS BIGINT COMMENT 'Provide the answer' RETURN 42");
    await engine.query("CREATE FUNCTION example.default.hello(fullname VARCHAR) RETURNS VARCHAR RETURN 'Hello, ' || fullname || '!'");
    expect((await engine.query('SHOW FUNCTIONS FROM example.default')).rows).to.deep.equal([
      ['answer', 'bigint', '', 'scalar', true, 'Provide the answer'],
      ['hello', 'varchar', 'varchar', 'scalar', true, ''],
    ]);
    expect((await engine.query("SHOW FUNCTIONS FROM example.default LIKE 'h%'")).rows.map((r) => r[0])).to.deep.equal(['hello']);
  });

  it('drop-function.md: DROP FUNCTION by name and parameter types; IF EXISTS', async () => {
    const engine = engineWithExample();
    await engine.query('CREATE FUNCTION example.default.multiply_by_two(x bigint) RETURNS bigint RETURN x * 2');
    await engine.query('CREATE FUNCTION example.default.meaning_of_life() RETURNS bigint RETURN 42');
    await engine.query('DROP FUNCTION example.default.meaning_of_life()');
    await engine.query('DROP FUNCTION example.default.multiply_by_two(bigint)');
    const gone = await engine.failure('SELECT example.default.meaning_of_life()');
    expect([gone.errorName, gone.message]).to.deep.equal([
      'FUNCTION_NOT_FOUND',
      "line 1:8: Function 'example.default.meaning_of_life' not registered",
    ]);
    const missing = await engine.failure('DROP FUNCTION example.default.meaning_of_life()');
    expect([missing.errorName, missing.message]).to.deep.equal(['NOT_FOUND', 'line 1:1: Function not found']);
    await engine.query('DROP FUNCTION IF EXISTS example.default.meaning_of_life()');
  });

  it("refuses what Trino refuses, with Trino's messages", async () => {
    const engine = engineWithExample();
    await engine.query('CREATE FUNCTION example.default.answer() RETURNS BIGINT RETURN 42');
    const cases: [string, string, string][] = [
      ['CREATE FUNCTION example.default.answer() RETURNS BIGINT RETURN 1', 'ALREADY_EXISTS', 'line 1:1: Function already exists'],
      [
        'CREATE FUNCTION answer() RETURNS bigint RETURN 42',
        'NOT_SUPPORTED',
        'line 1:17: Catalog and schema must be specified when function schema is not configured',
      ],
      [
        'CREATE FUNCTION default.answer() RETURNS bigint RETURN 42',
        'NOT_SUPPORTED',
        'line 1:17: Function name must be unqualified or fully qualified with catalog and schema',
      ],
      [
        'CREATE FUNCTION tpch.tiny.answer() RETURNS bigint RETURN 42',
        'NOT_SUPPORTED',
        'line 1:1: This connector does not support creating functions',
      ],
      [
        "CREATE FUNCTION example.default.bad() RETURNS bigint RETURN 'x'",
        'TYPE_MISMATCH',
        'line 1:61: Value of RETURN must evaluate to bigint (actual: varchar(1))',
      ],
      ['CREATE FUNCTION example.missing.f() RETURNS bigint RETURN 1', 'SCHEMA_NOT_FOUND', "line 1:1: Schema 'missing' does not exist"],
      ['SHOW CREATE FUNCTION example.default.nothing', 'NOT_FOUND', 'line 1:1: Function not found: example.default.nothing'],
    ];
    for (const [sql, name, message] of cases) {
      const error = await engine.failure(sql);
      expect([error.errorName, error.message], sql).to.deep.equal([name, message]);
    }
  });
});
