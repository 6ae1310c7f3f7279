// ALTER TABLE ... ADD / DROP / RENAME COLUMN, RENAME TO, SET PROPERTIES and COMMENT ON on memory
// tables: the rows afterwards as DuckDB has them after the same statements, what SHOW CREATE TABLE,
// DESCRIBE and information_schema show, and Trino's errors.

import { expect } from 'chai';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { EngineHarness } from '../support/engine-harness.js';

describe('ALTER TABLE and COMMENT ON on memory tables', () => {
  let h: EngineHarness;
  let duck: DuckDBConnection;

  beforeEach(async () => {
    h = new EngineHarness();
    duck = await (await DuckDBInstance.create(':memory:')).connect();
    const values = Array.from({ length: 9000 }, (_, i) => `(${i}, 'n${i % 13}', ${i % 5 === 0 ? 'NULL' : i / 4})`).join(', ');
    for (const sql of ['CREATE TABLE t (id bigint, name varchar, x double)', `INSERT INTO t VALUES ${values}`]) {
      await h.run(sql);
      await duck.run(sql);
    }
  });

  afterEach(() => duck.closeSync());

  async function sameRows(table: string): Promise<void> {
    const select = `SELECT * FROM ${table} ORDER BY 1`;
    const text = (rows: unknown[][]) => rows.map((r) => r.map((x) => (x === null ? null : String(x))));
    const ours = await h.query(select);
    const theirs = await duck.runAndReadAll(select);
    expect(ours.columns.map((c) => c.name)).to.deep.equal(theirs.columnNames());
    expect(text(ours.rows)).to.deep.equal(text(theirs.getRowsJS()));
  }

  it('changes columns and names as DuckDB does, keeping the rows', async () => {
    const statements = [
      'ALTER TABLE t ADD COLUMN flag boolean',
      'UPDATE t SET flag = id % 2 = 0 WHERE id < 100',
      'ALTER TABLE t DROP COLUMN name',
      'ALTER TABLE t RENAME COLUMN x TO quarter',
      'INSERT INTO t VALUES (100000, 1.5, true)',
      'ALTER TABLE t RENAME TO t2',
    ];
    for (const sql of statements) {
      await h.run(sql);
      await duck.run(sql);
    }
    await sameRows('t2');
    expect(await h.rows('SHOW TABLES')).to.deep.equal([['t2']]);
    expect(await h.rows('DESCRIBE t2')).to.deep.equal([
      ['id', 'bigint', '', ''],
      ['quarter', 'double', '', ''],
      ['flag', 'boolean', '', ''],
    ]);
    await h.run('CREATE SCHEMA other', 'ALTER TABLE t2 RENAME TO other.t3');
    expect(await h.rows('SELECT count(*) FROM other.t3')).to.deep.equal([[9001n]]);
    // A target without a schema is in the table's schema, not the session's (as Trino resolves it).
    await h.run('ALTER TABLE other.t3 RENAME TO t4');
    expect(await h.rows('SHOW TABLES FROM other')).to.deep.equal([['t4']]);
  });

  it('keeps IF EXISTS and IF NOT EXISTS quiet', async () => {
    for (const sql of [
      'ALTER TABLE IF EXISTS nosuch ADD COLUMN c bigint',
      'ALTER TABLE t ADD COLUMN IF NOT EXISTS id bigint',
      'ALTER TABLE t DROP COLUMN IF EXISTS nosuch',
      'ALTER TABLE t RENAME COLUMN IF EXISTS nosuch TO y',
      'ALTER TABLE IF EXISTS nosuch RENAME TO u',
    ]) {
      await h.run(sql);
    }
    await sameRows('t');
  });

  it('shows comments set by COMMENT ON in SHOW CREATE TABLE, DESCRIBE, information_schema and SHOW CREATE VIEW', async () => {
    await h.run(
      "COMMENT ON TABLE t IS 'the table'",
      "COMMENT ON COLUMN t.name IS 'a name'",
      'CREATE VIEW v AS SELECT id FROM t',
      "COMMENT ON VIEW v IS 'the view'",
      "COMMENT ON COLUMN v.id IS 'key'",
    );
    expect(await h.rows('SHOW CREATE TABLE t')).to.deep.equal([
      ["CREATE TABLE memory.default.t (\n   id bigint,\n   name varchar COMMENT 'a name',\n   x double\n)\nCOMMENT 'the table'"],
    ]);
    expect((await h.rows('DESCRIBE t'))[1]).to.deep.equal(['name', 'varchar', '', 'a name']);
    expect(
      await h.rows(
        "SELECT column_name, comment FROM information_schema.columns WHERE table_name IN ('t', 'v') ORDER BY table_name, ordinal_position",
      ),
    ).to.deep.equal([
      ['id', null],
      ['name', 'a name'],
      ['x', null],
      ['id', 'key'],
    ]);
    expect(await h.rows('SHOW CREATE VIEW v')).to.deep.equal([
      ["CREATE VIEW memory.default.v COMMENT 'the view' SECURITY DEFINER AS\nSELECT id FROM t"],
    ]);
    await h.run('COMMENT ON TABLE t IS NULL', 'COMMENT ON COLUMN t.name IS NULL');
    expect(await h.rows('SHOW CREATE TABLE t')).to.deep.equal([
      ['CREATE TABLE memory.default.t (\n   id bigint,\n   name varchar,\n   x double\n)'],
    ]);
    expect(await h.rows('SELECT count(*) FROM v')).to.deep.equal([[9000n]]);
  });

  it("fails with Trino's errors", async () => {
    await h.run('CREATE VIEW v AS SELECT id FROM t', 'CREATE TABLE one (a bigint)', 'CREATE TABLE u (a bigint)');
    const cases: [string, string, string][] = [
      ['ALTER TABLE nosuch ADD COLUMN c bigint', 'TABLE_NOT_FOUND', "line 1:1: Table 'memory.default.nosuch' does not exist"],
      ['ALTER TABLE t ADD COLUMN id bigint', 'COLUMN_ALREADY_EXISTS', "line 1:1: Column 'id' already exists"],
      [
        'ALTER TABLE t ADD COLUMN c bigint NOT NULL',
        'NOT_SUPPORTED',
        "line 1:1: Unable to add NOT NULL column 'c' for non-empty table: memory.default.t",
      ],
      ['ALTER TABLE t ADD COLUMN c nosuchtype', 'TYPE_NOT_FOUND', 'line 1:28: Unknown type: nosuchtype'],
      ['ALTER TABLE t DROP COLUMN nosuch', 'COLUMN_NOT_FOUND', "line 1:1: Column 'nosuch' does not exist"],
      ['ALTER TABLE one DROP COLUMN a', 'NOT_SUPPORTED', 'line 1:1: Cannot drop the only column in a table'],
      ['ALTER TABLE t RENAME COLUMN nosuch TO y', 'COLUMN_NOT_FOUND', "line 1:1: Column 'nosuch' does not exist"],
      ['ALTER TABLE t RENAME COLUMN id TO name', 'COLUMN_ALREADY_EXISTS', "line 1:1: Column 'name' already exists"],
      ['ALTER TABLE t RENAME TO u', 'TABLE_ALREADY_EXISTS', "line 1:1: Target table 'memory.default.u' already exists"],
      [
        'ALTER TABLE t RENAME TO v',
        'GENERIC_USER_ERROR',
        "line 1:1: Target table 'memory.default.v' does not exist, but a view with that name exists.",
      ],
      ['ALTER TABLE t RENAME TO tpch.tiny.x', 'NOT_SUPPORTED', 'line 1:1: Table rename across catalogs is not supported'],
      [
        'ALTER TABLE t SET PROPERTIES x = 1',
        'INVALID_TABLE_PROPERTY',
        "line 1:30: Catalog 'memory' table property 'x' does not exist. Catalog 'memory' has no table properties",
      ],
      ['ALTER TABLE v SET PROPERTIES x = 1', 'NOT_SUPPORTED', 'line 1:1: Cannot set properties to a view in ALTER TABLE'],
      // As Trino's memory connector (before: "ALTER TABLE ... ADD COLUMN ... FIRST is not supported").
      [
        'ALTER TABLE t ADD COLUMN c bigint FIRST',
        'NOT_SUPPORTED',
        'line 1:1: This connector does not support adding columns with FIRST clause',
      ],
      [
        'ALTER TABLE t ADD COLUMN c bigint AFTER id',
        'NOT_SUPPORTED',
        'line 1:1: This connector does not support adding columns with AFTER clause',
      ],
      ['ALTER TABLE tpch.tiny.nation ADD COLUMN c bigint', 'NOT_SUPPORTED', 'line 1:1: This connector does not support adding columns'],
      [
        "COMMENT ON TABLE v IS 'x'",
        'TABLE_NOT_FOUND',
        "line 1:1: Table 'memory.default.v' does not exist, but a view with that name exists. Did you mean COMMENT ON VIEW memory.default.v IS ...?",
      ],
      [
        "COMMENT ON VIEW t IS 'x'",
        'TABLE_NOT_FOUND',
        "line 1:1: View 'memory.default.t' does not exist, but a table with that name exists. Did you mean COMMENT ON TABLE memory.default.t IS ...?",
      ],
      ["COMMENT ON TABLE nosuch IS 'x'", 'TABLE_NOT_FOUND', 'line 1:1: Table does not exist: memory.default.nosuch'],
      ["COMMENT ON COLUMN t.nosuch IS 'x'", 'COLUMN_NOT_FOUND', 'line 1:1: Column does not exist: nosuch'],
      ["COMMENT ON COLUMN nosuch IS 'x'", 'MISSING_TABLE', 'line 1:1: Table must be specified'],
    ];
    for (const [sql, name, message] of cases) {
      const e = await h.failure(sql);
      expect([e.errorName, e.message], sql).to.deep.equal([name, message]);
    }
    await sameRows('t');
  });
});
