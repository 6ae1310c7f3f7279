// The SQL environment of routines (Trino's sql.default-function-catalog, sql.default-function-schema
// and sql.path): udf/sql/examples.md's setup, where CREATE FUNCTION answer() stores the routine in
// example.default and `SELECT answer() + 5` finds it on the path (the settings' checks are in
// test/server/config.test.ts).

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { MemoryConnector } from '../../src/connectors/memory/memory-connector.js';
import { loadConfig } from '../../src/config/config-loader.js';

describe('SQL routines: default function schema and SQL path', function () {
  this.timeout(60_000);

  it('examples.md: CREATE FUNCTION answer() without catalog and schema, called by its simple name (47)', async () => {
    const engine = new EngineHarness();
    engine.catalogs.register('example', new MemoryConnector('example'));
    engine.catalogs.sqlEnvironment = loadConfig({
      flags: { 'sql-default-function-catalog': 'example', 'sql-default-function-schema': 'default', 'sql-path': 'example.default' },
    }).sql;
    await engine.query('CREATE FUNCTION answer() RETURNS BIGINT RETURN 42');
    expect((await engine.query('SELECT answer() + 5')).rows).to.deep.equal([[47n]]);
    expect((await engine.query('SELECT example.default.answer()')).rows).to.deep.equal([[42n]]);
    // A routine on the path calls another by its simple name; an inline routine of the same signature comes first.
    await engine.query('CREATE FUNCTION twice_answer() RETURNS BIGINT RETURN answer() * 2');
    expect((await engine.query('SELECT twice_answer()')).rows).to.deep.equal([[84n]]);
    expect((await engine.query('WITH FUNCTION answer() RETURNS bigint RETURN 1 SELECT answer()')).rows).to.deep.equal([[1n]]);
    await engine.query('DROP FUNCTION twice_answer()');
    await engine.query('DROP FUNCTION answer()');
    const error = await engine.failure('SELECT answer()');
    expect([error.errorName, error.message]).to.deep.equal(['FUNCTION_NOT_FOUND', "line 1:8: Function 'answer' not registered"]);
  });

  it("a view calls routines by simple name on the path it was created with, as Trino's view keeps its path", async () => {
    const engine = new EngineHarness();
    engine.catalogs.register('example', new MemoryConnector('example'));
    engine.catalogs.register('other', new MemoryConnector('other'));
    const environment = (path: string) =>
      loadConfig({
        flags: { 'sql-default-function-catalog': path.split('.')[0], 'sql-default-function-schema': 'default', 'sql-path': path },
      }).sql;
    engine.catalogs.sqlEnvironment = environment('other.default');
    await engine.query('CREATE FUNCTION answer() RETURNS BIGINT RETURN 0');
    engine.catalogs.sqlEnvironment = environment('example.default');
    await engine.query('CREATE FUNCTION answer() RETURNS BIGINT RETURN 42');
    await engine.query('CREATE VIEW memory.default.answered AS SELECT answer() AS a');
    // The server's path changes (a restart with another sql.path): the view keeps finding example.default's answer.
    engine.catalogs.sqlEnvironment = environment('other.default');
    expect((await engine.query('SELECT answer()')).rows).to.deep.equal([[0n]]);
    expect((await engine.query('SELECT a FROM memory.default.answered')).rows).to.deep.equal([[42n]]);
  });
});
