// Identifier case as Trino treats it: a name resolves a column or a relation ignoring case, quoted or
// not (Field.canResolve: equalsIgnoreCase), and a new column is stored in lower case (ColumnMetadata),
// so CREATE TABLE t ("D" integer) in the memory or lake catalog has a column d that `d`, `D` and "D"
// all name. Two columns that differ only in case make a reference ambiguous.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { LakeFixture, duckDbRows } from '../connectors/lake/lake-fixture.js';

describe('identifier case (Trino: names resolve ignoring case; new columns are lower case)', () => {
  const engine = new EngineHarness();

  before(async () => {
    await engine.run(
      'CREATE TABLE memory.default.cased ("D" integer, "Mixed" varchar)',
      "INSERT INTO memory.default.cased VALUES (1, 'a')",
    );
  });

  it('stores a quoted upper-case column in lower case and resolves it however it is spelled', async () => {
    expect((await engine.rows('SHOW COLUMNS FROM memory.default.cased')).map((r) => r[0])).to.deep.equal(['d', 'mixed']);
    const { rows, columns } = await engine.query('SELECT d, D, "D", "d", c.MIXED, "C"."Mixed" FROM memory.default.CASED c');
    expect(rows).to.deep.equal([[1, 1, 1, 1, 'a', 'a']]);
    expect(columns.map((c) => c.name)).to.deep.equal(['d', 'd', 'D', 'd', 'mixed', 'Mixed']);
  });

  it('resolves the quoted names of derived columns ignoring case, and finds two that differ only in case ambiguous', async () => {
    expect(await engine.rows('SELECT x, "x" FROM (SELECT 1 AS "X")')).to.deep.equal([[1, 1]]);
    expect(await engine.rows('SELECT d FROM (VALUES 2) t("D")')).to.deep.equal([[2]]);
    expect((await engine.failure('SELECT d FROM (VALUES (1, 2)) t("D", d)')).message).to.equal("line 1:8: Column 'd' is ambiguous");
  });

  it('names columns ignoring case in INSERT, UPDATE, MERGE and ALTER TABLE', async () => {
    await engine.run(
      'CREATE TABLE memory.default.changed ("K" integer, "V" integer)',
      'INSERT INTO memory.default.changed ("K", V) VALUES (1, 10), (2, 20)',
      'UPDATE memory.default.changed SET "V" = 11 WHERE "K" = 1',
      'MERGE INTO memory.default.changed t USING (VALUES 2, 3) s(k) ON t.K = s.k WHEN MATCHED THEN UPDATE SET "V" = 22 WHEN NOT MATCHED THEN INSERT ("K", "V") VALUES (s.k, 33)',
      'ALTER TABLE memory.default.changed RENAME COLUMN "V" TO "W"',
    );
    expect(await engine.rows('SELECT k, w FROM memory.default.changed ORDER BY 1')).to.deep.equal([
      [1, 11],
      [2, 22],
      [3, 33],
    ]);
    expect((await engine.failure('ALTER TABLE memory.default.changed ADD COLUMN "K" integer')).message).to.equal(
      "line 1:1: Column 'K' already exists",
    );
    expect((await engine.failure('CREATE TABLE memory.default.twice ("A" integer, a integer)')).message).to.equal(
      "line 1:49: Column name 'a' specified more than once",
    );
    await engine.run('CREATE TABLE memory.default.made AS SELECT 1 AS "X"', 'ALTER TABLE memory.default.changed DROP COLUMN "W"');
    expect((await engine.rows('SHOW COLUMNS FROM memory.default.made')).map((r) => r[0])).to.deep.equal(['x']);
    expect((await engine.rows('SHOW COLUMNS FROM memory.default.changed')).map((r) => r[0])).to.deep.equal(['k']);
  });

  describe('in the lake catalog', () => {
    const lake = LakeFixture.create();
    after(() => lake.remove());

    it('stores new columns in lower case and reads a Parquet file whose columns are upper case by any spelling', async () => {
      await lake.harness.run('CREATE TABLE lake.default.cased ("D" integer)', 'INSERT INTO lake.default.cased VALUES 5');
      expect(await lake.harness.rows('SELECT d, "D" FROM lake.default.cased')).to.deep.equal([[5, 5]]);
      expect((await lake.harness.rows('SHOW COLUMNS FROM lake.default.cased')).map((r) => r[0])).to.deep.equal(['d']);
      const folder = lake.path('data/upper');
      lake.file('data/upper/.keep', '');
      await duckDbRows(`COPY (SELECT 7 AS "D", 'x' AS "Mixed") TO '${folder}/part.parquet' (FORMAT parquet)`);
      await lake.harness.run(`CREATE TABLE lake.default.upper WITH (external_location = 'file://${folder}/')`);
      expect(await lake.harness.rows('SELECT d, mixed, "MIXED" FROM lake.default.upper')).to.deep.equal([[7, 'x', 'x']]);
    });
  });
});
