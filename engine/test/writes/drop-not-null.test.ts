// ALTER TABLE ... ALTER COLUMN ... DROP NOT NULL on memory tables (before: NOT_SUPPORTED): the column
// takes NULLs afterwards, keeping its rows, as DuckDB after the same statements; Trino's errors.

import { expect } from 'chai';
import { DuckDBInstance } from '@duckdb/node-api';
import { EngineHarness } from '../support/engine-harness.js';

describe('ALTER TABLE ... ALTER COLUMN ... DROP NOT NULL', () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = new EngineHarness();
    await h.run('CREATE TABLE users (id integer NOT NULL, name varchar)', "INSERT INTO users VALUES (1, 'alice'), (2, 'bob')");
  });

  it('lets the column hold NULL afterwards, keeping its rows, as DuckDB', async () => {
    const statements = [
      'CREATE TABLE users (id integer NOT NULL, name varchar)',
      "INSERT INTO users VALUES (1, 'alice'), (2, 'bob')",
      'ALTER TABLE users ALTER COLUMN id DROP NOT NULL',
      "INSERT INTO users VALUES (NULL, 'carol')",
    ];
    const before = await h.failure("INSERT INTO users VALUES (NULL, 'carol')");
    expect(before.errorName).to.equal('CONSTRAINT_VIOLATION');
    const { result } = await h.query('ALTER TABLE users ALTER COLUMN id DROP NOT NULL');
    expect(result.updateType).to.equal('DROP NOT NULL');
    await h.run("INSERT INTO users VALUES (NULL, 'carol')");
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    for (const sql of statements) await duck.run(sql);
    const select = 'SELECT id, name FROM users ORDER BY name';
    const theirs = (await duck.runAndReadAll(select)).getRows().map((r) => r.map((v) => (v === null ? null : String(v))));
    duck.closeSync();
    expect((await h.rows(select)).map((r) => r.map((v) => (v === null ? null : String(v))))).to.deep.equal(theirs);
    expect((await h.rows('SHOW CREATE TABLE users'))[0][0]).to.not.contain('NOT NULL');
  });

  it("fails with Trino's errors, and IF EXISTS is quiet about a missing table", async () => {
    const cases: [sql: string, errorName: string, message: string][] = [
      ['ALTER TABLE users ALTER COLUMN name DROP NOT NULL', 'NOT_SUPPORTED', 'Column is already nullable'],
      ['ALTER TABLE users ALTER COLUMN zip DROP NOT NULL', 'COLUMN_NOT_FOUND', "Column 'zip' does not exist"],
      ['ALTER TABLE nobody ALTER COLUMN id DROP NOT NULL', 'TABLE_NOT_FOUND', "Table 'memory.default.nobody' does not exist"],
    ];
    for (const [sql, errorName, message] of cases) {
      const error = await h.failure(sql);
      expect([error.errorName, error.rawMessage], sql).to.deep.equal([errorName, message]);
    }
    await h.run('ALTER TABLE IF EXISTS nobody ALTER COLUMN id DROP NOT NULL');
  });
});
