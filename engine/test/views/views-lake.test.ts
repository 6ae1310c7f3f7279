// Views in the lake catalog: kept in the file metastore as Trino keeps them (a VIRTUAL_VIEW entry
// holding the view's JSON), so that a view survives a restart and every node that sees the folder
// sees it; listed apart from tables; and the lake's refusal of row changes on its tables.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HiveConnector } from '../../src/connectors/hive/hive-connector.js';
import { LakeFixture } from '../connectors/lake/lake-fixture.js';
import { EngineHarness } from '../support/engine-harness.js';

describe('views in the lake catalog', () => {
  let lake: LakeFixture;

  beforeEach(async () => {
    lake = LakeFixture.create();
    await lake.harness.run(
      'CREATE TABLE lake.default.t (a bigint, b varchar)',
      "INSERT INTO lake.default.t VALUES (1, 'x'), (2, 'y'), (3, 'x')",
    );
  });

  afterEach(() => lake.remove());

  it("keeps a view in Trino's file metastore layout, and reads it back after a restart", async () => {
    lake.harness.session.catalog = 'lake';
    await lake.harness.run("CREATE VIEW xs COMMENT 'only x' AS SELECT a, upper(b) AS b FROM t WHERE b = 'x'");
    const entry = JSON.parse(readFileSync(join(lake.root, 'catalog', 'default', 'xs', '.trinoSchema'), 'utf8')) as {
      tableType: string;
      viewOriginalText: string;
    };
    expect(entry.tableType).to.equal('VIRTUAL_VIEW');
    const encoded = /^\/\* Presto View: (.*) \*\/$/.exec(entry.viewOriginalText);
    expect(JSON.parse(Buffer.from(encoded![1], 'base64').toString('utf8'))).to.deep.equal({
      originalSql: "SELECT a, upper(b) AS b FROM t WHERE b = 'x'",
      catalog: 'lake',
      schema: 'default',
      columns: [
        { name: 'a', type: 'bigint' },
        { name: 'b', type: 'varchar' },
      ],
      comment: 'only x',
      owner: 'test',
      runAsInvoker: false,
      path: [],
    });
    // A new engine over the same folder: another node, or this one after a restart.
    const restarted = new EngineHarness();
    restarted.catalogs.register('lake', new HiveConnector('lake', { catalogDir: `file://${join(lake.root, 'catalog')}/`, fileSystem: {} }));
    restarted.session.catalog = 'lake';
    expect(await restarted.rows('SHOW TABLES')).to.deep.equal([['t'], ['xs']]);
    expect(await restarted.rows('SELECT a, b FROM xs ORDER BY a')).to.deep.equal([
      [1n, 'X'],
      [3n, 'X'],
    ]);
    expect(
      await restarted.rows("SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'default' ORDER BY 1"),
    ).to.deep.equal([
      ['t', 'BASE TABLE'],
      ['xs', 'VIEW'],
    ]);
    expect(await restarted.rows('SHOW CREATE VIEW xs')).to.deep.equal([
      ["CREATE VIEW lake.default.xs COMMENT 'only x' SECURITY DEFINER AS\nSELECT a, upper(b) AS b FROM t WHERE b = 'x'"],
    ]);
  });

  it("keeps the SQL path it was created with in Trino's view JSON, and calls routines on it after a restart without sql.path", async () => {
    lake.harness.catalogs.sqlEnvironment = { path: [{ catalog: 'lake', schema: 'default' }] };
    await lake.harness.run(
      'CREATE FUNCTION lake.default.answer() RETURNS bigint RETURN 42',
      'CREATE VIEW lake.default.answered AS SELECT answer() AS a',
    );
    const entry = JSON.parse(readFileSync(join(lake.root, 'catalog', 'default', 'answered', '.trinoSchema'), 'utf8')) as {
      viewOriginalText: string;
    };
    const encoded = /^\/\* Presto View: (.*) \*\/$/.exec(entry.viewOriginalText);
    expect(JSON.parse(Buffer.from(encoded![1], 'base64').toString('utf8')).path).to.deep.equal([
      { catalogName: 'lake', schemaName: 'default' },
    ]);
    const restarted = new EngineHarness();
    restarted.catalogs.register('lake', new HiveConnector('lake', { catalogDir: `file://${join(lake.root, 'catalog')}/`, fileSystem: {} }));
    expect(await restarted.rows('SELECT a FROM lake.default.answered')).to.deep.equal([[42n]]);
    expect((await restarted.failure('SELECT answer()')).errorName).to.equal('FUNCTION_NOT_FOUND');
  });

  it('resolves the view in the session catalog it was created in, replaces and drops it', async () => {
    lake.harness.session.catalog = 'lake';
    await lake.harness.run('CREATE VIEW v AS SELECT count(*) AS n FROM t');
    lake.harness.session.catalog = 'memory';
    expect(await lake.harness.rows('SELECT n FROM lake.default.v')).to.deep.equal([[3n]]);
    await lake.harness.run('CREATE OR REPLACE VIEW lake.default.v AS SELECT max(a) AS m FROM lake.default.t');
    expect(await lake.harness.rows('SELECT * FROM lake.default.v')).to.deep.equal([[3n]]);
    expect(await lake.harness.rows('SHOW TABLES FROM lake.default')).to.deep.equal([['t'], ['v']]);
    expect(await lake.failure('DROP SCHEMA lake.default')).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: "Schema 'lake.default' cannot be dropped",
    });
    await lake.harness.run('ALTER VIEW lake.default.v RENAME TO v2');
    expect(await lake.harness.rows('SHOW TABLES FROM lake.default')).to.deep.equal([['t'], ['v2']]);
    expect(await lake.harness.rows('SELECT * FROM lake.default.v2')).to.deep.equal([[3n]]);
    await lake.harness.run('DROP VIEW lake.default.v2');
    expect(await lake.harness.rows('SHOW TABLES FROM lake.default')).to.deep.equal([['t']]);
    // A schema with a view is not empty; CASCADE drops its views too.
    await lake.harness.run('CREATE SCHEMA lake.s', 'CREATE VIEW lake.s.w AS SELECT 1 AS one');
    expect(await lake.failure('DROP SCHEMA lake.s')).to.deep.equal({
      name: 'SCHEMA_NOT_EMPTY',
      message: "Cannot drop non-empty schema 's'",
    });
    await lake.harness.run('DROP SCHEMA lake.s CASCADE');
    expect(await lake.harness.rows('SHOW SCHEMAS FROM lake')).to.deep.equal([['default'], ['information_schema']]);
  });

  it('fails as Trino does for names taken and wrong kinds', async () => {
    await lake.harness.run('CREATE VIEW lake.default.v AS SELECT a FROM lake.default.t');
    const cases: [string, string, string][] = [
      ['CREATE VIEW lake.default.v AS SELECT 1 AS x', 'TABLE_ALREADY_EXISTS', "line 1:1: View already exists: 'lake.default.v'"],
      ['CREATE VIEW lake.default.t AS SELECT 1 AS x', 'TABLE_ALREADY_EXISTS', "line 1:1: Table already exists: 'lake.default.t'"],
      ['CREATE TABLE lake.default.v (x integer)', 'ALREADY_EXISTS', "line 1:14: Table 'lake.default.v' already exists"],
      [
        'DROP TABLE lake.default.v',
        'GENERIC_USER_ERROR',
        "line 1:1: Table 'lake.default.v' does not exist, but a view with that name exists. Did you mean DROP VIEW lake.default.v?",
      ],
      [
        'DROP VIEW lake.default.t',
        'GENERIC_USER_ERROR',
        "line 1:1: View 'lake.default.t' does not exist, but a table with that name exists. Did you mean DROP TABLE lake.default.t?",
      ],
      ['CREATE VIEW lake.nosuch.v AS SELECT 1 AS x', 'SCHEMA_NOT_FOUND', "line 1:13: Schema 'nosuch' does not exist"],
    ];
    for (const [sql, name, message] of cases) expect(await lake.failure(sql), sql).to.deep.equal({ name, message });
  });

  it('keeps COMMENT ON a lake table and its columns in the metastore, and refuses renames', async () => {
    await lake.harness.run("COMMENT ON TABLE lake.default.t IS 'letters'", "COMMENT ON COLUMN lake.default.t.b IS 'a letter'");
    const restarted = new EngineHarness();
    restarted.catalogs.register('lake', new HiveConnector('lake', { catalogDir: `file://${join(lake.root, 'catalog')}/`, fileSystem: {} }));
    const [[text]] = await restarted.rows('SHOW CREATE TABLE lake.default.t');
    expect(String(text)).to.match(
      /^CREATE TABLE lake\.default\.t \(\n   a bigint,\n   b varchar COMMENT 'a letter'\n\)\nCOMMENT 'letters'\nWITH \(/,
    );
    expect(await restarted.rows('SELECT count(*) FROM lake.default.t')).to.deep.equal([[3n]]);
    await lake.harness.run('COMMENT ON TABLE lake.default.t IS NULL');
    expect(String((await restarted.rows('SHOW CREATE TABLE lake.default.t'))[0][0])).to.not.contain("COMMENT 'letters'");
    expect(await lake.failure('ALTER TABLE lake.default.t RENAME COLUMN a TO c')).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: 'line 1:1: This connector does not support renaming columns',
    });
    expect(await lake.failure('ALTER TABLE lake.default.t RENAME TO lake.default.u')).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: 'line 1:1: This connector does not support renaming tables',
    });
    await lake.harness.run('CREATE VIEW lake.default.v AS SELECT a FROM lake.default.t', "COMMENT ON VIEW lake.default.v IS 'view of t'");
    expect(await restarted.rows('SHOW CREATE VIEW lake.default.v')).to.deep.equal([
      ["CREATE VIEW lake.default.v COMMENT 'view of t' SECURITY DEFINER AS\nSELECT a FROM lake.default.t"],
    ]);
  });

  it("refuses row changes on lake tables with Trino's message for non-transactional Hive tables", async () => {
    const message = 'line 1:1: Modifying Hive table rows is only supported for transactional tables';
    for (const sql of ['DELETE FROM lake.default.t WHERE a = 1', "UPDATE lake.default.t SET b = 'z'"]) {
      expect(await lake.failure(sql), sql).to.deep.equal({ name: 'NOT_SUPPORTED', message });
    }
    expect(await lake.rows('SELECT count(*) FROM lake.default.t')).to.deep.equal([['3']]);
  });
});
