// Column DEFAULT values on memory tables, as Trino's memory connector keeps them: CREATE TABLE and
// ALTER TABLE ... ADD COLUMN store the literal; an INSERT (or MERGE ... INSERT) that leaves a column
// out writes its default, as DuckDB does on the same statements; rows already in the table when a
// column is added read NULL for it (Trino's memory connector pads old pages with NULLs, unlike
// DuckDB and PostgreSQL, which fill in the default); SHOW CREATE TABLE and information_schema show
// it. Trino's errors: a literal that does not convert (INVALID_DEFAULT_COLUMN_VALUE), and a catalog
// that keeps no defaults (the lake, as Trino's Hive connector).

import { expect } from 'chai';
import { EngineAndDuckDb } from '../support/engine-and-duckdb.js';
import { LakeFixture } from '../connectors/lake/lake-fixture.js';

describe('column DEFAULT values', function () {
  this.timeout(60_000);

  describe('on memory tables', () => {
    let both: EngineAndDuckDb;
    beforeEach(async () => {
      both = await EngineAndDuckDb.open();
    });
    afterEach(() => both.close());

    it('writes the defaults of the columns an INSERT leaves out, as DuckDB', async () => {
      await both.runOnBoth(
        "CREATE TABLE t (id integer, price double DEFAULT 1.5, day date DEFAULT DATE '2020-01-02', note varchar DEFAULT 'none', plain integer)",
        'INSERT INTO t (id) VALUES (1)',
        "INSERT INTO t (id, note) VALUES (2, 'given')",
        'INSERT INTO t (note, id, plain) VALUES (NULL, 3, 7)',
      );
      const rows = await both.expectSame('SELECT id, price, CAST(day AS varchar), note, plain FROM t');
      expect(rows).to.deep.equal(['1|1.5|2020-01-02|none|NULL', '2|1.5|2020-01-02|given|NULL', '3|1.5|2020-01-02|NULL|7']);
      await both.runOnBoth('MERGE INTO t USING (SELECT 4 AS k) s ON t.id = s.k WHEN NOT MATCHED THEN INSERT (id) VALUES (s.k)');
      await both.expectSame('SELECT id, price, note FROM t');
    });

    it("adds a column with a default (Trino's documented example): old rows read NULL, new rows left without it get the default", async () => {
      const h = both.engine;
      await h.run('CREATE TABLE users (name varchar, country varchar)', "INSERT INTO users VALUES ('ann', 'US')");
      await h.run("ALTER TABLE users ADD COLUMN zip varchar DEFAULT '90210'", "INSERT INTO users (name, country) VALUES ('bob', 'CA')");
      expect(await h.rows('SELECT name, zip FROM users ORDER BY name')).to.deep.equal([
        ['ann', null],
        ['bob', '90210'],
      ]);
      expect(await h.rows('SHOW CREATE TABLE users')).to.deep.equal([
        ["CREATE TABLE memory.default.users (\n   name varchar,\n   country varchar,\n   zip varchar DEFAULT '90210'\n)"],
      ]);
      expect(
        await h.rows(
          "SELECT column_name, column_default FROM information_schema.columns WHERE table_name = 'users' ORDER BY ordinal_position",
        ),
      ).to.deep.equal([
        ['name', null],
        ['country', null],
        ['zip', "'90210'"],
      ]);
    });

    it("fails a default that does not convert to the column's type, at the literal", async () => {
      const h = both.engine;
      await h.run('CREATE TABLE u (a integer)');
      const cases: [string, string][] = [
        ["ALTER TABLE u ADD COLUMN n integer DEFAULT 'abc'", "line 1:44: ''abc'' is not a valid INTEGER literal"],
        ["ALTER TABLE u ADD COLUMN c varchar(2) DEFAULT 'abc'", "line 1:47: ''abc'' is not a valid VARCHAR(2) literal"],
        ["CREATE TABLE v (d date DEFAULT 'yesterday')", "line 1:32: ''yesterday'' is not a valid DATE literal"],
      ];
      for (const [sql, message] of cases) {
        const e = await h.failure(sql);
        expect([e.errorName, e.message], sql).to.deep.equal(['INVALID_DEFAULT_COLUMN_VALUE', message]);
      }
      expect(await h.rows("SELECT column_name FROM information_schema.columns WHERE table_name = 'u'")).to.deep.equal([['a']]);
    });
  });

  describe('on lake tables', () => {
    let lake: LakeFixture;
    beforeEach(() => {
      lake = LakeFixture.create();
    });
    afterEach(() => lake.remove());

    it("refuses them as Trino's Hive connector does", async () => {
      await lake.harness.run('CREATE TABLE lake.default.users (name varchar)');
      for (const sql of [
        "ALTER TABLE lake.default.users ADD COLUMN zip varchar DEFAULT '90210'",
        'CREATE TABLE lake.default.t (a integer DEFAULT 1)',
      ]) {
        const e = await lake.harness.failure(sql);
        expect([e.errorName, e.rawMessage], sql).to.deep.equal([
          'NOT_SUPPORTED',
          `Catalog 'lake' does not support default value for column name '${sql.includes('zip') ? 'zip' : 'a'}'`,
        ]);
      }
    });
  });
});
