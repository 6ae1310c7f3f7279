// ALTER TABLE on lake tables: ADD COLUMN and DROP COLUMN change the metastore entry only, for formats
// read by column name (Parquet, JSON); files written before read NULL for an added column, which DuckDB
// reading the same files by name confirms. CSV tables, partition columns and renames are refused.

import { expect } from 'chai';
import { duckDbRows, LakeFixture } from '../connectors/lake/lake-fixture.js';

describe('lake: ALTER TABLE ADD and DROP COLUMN', function () {
  let lake: LakeFixture;

  beforeEach(() => {
    lake = LakeFixture.create();
  });
  afterEach(() => lake.remove());

  it('adds and drops columns of a Parquet table; old files read NULL for the new column, as DuckDB reads them', async () => {
    await lake.harness.run('CREATE TABLE lake.default.n AS SELECT n_nationkey, n_name, n_regionkey FROM tpch.tiny.nation');
    await lake.harness.run(
      'ALTER TABLE lake.default.n ADD COLUMN note varchar',
      "INSERT INTO lake.default.n VALUES (100, 'ATLANTIS', 9, 'lost')",
    );
    await lake.harness.run('ALTER TABLE lake.default.n DROP COLUMN n_regionkey');
    const files = `read_parquet('${lake.path('catalog/default/n')}/*.parquet', union_by_name = true)`;
    const expected = await duckDbRows(`SELECT n_nationkey, n_name, note FROM ${files} ORDER BY n_nationkey`);
    expect(expected).to.have.length(26);
    expect(expected.at(-1)).to.deep.equal(['100', 'ATLANTIS', 'lost']);
    expect(await lake.rows('SELECT * FROM lake.default.n ORDER BY n_nationkey')).to.deep.equal(expected);
    expect(await lake.rows('DESCRIBE lake.default.n')).to.deep.equal([
      ['n_nationkey', 'bigint', '', ''],
      ['n_name', 'varchar(25)', '', ''],
      ['note', 'varchar', '', ''],
    ]);
  });

  it('adds a column to a JSON table', async () => {
    await lake.harness.run(
      "CREATE TABLE lake.default.j WITH (format = 'JSON') AS SELECT 1 AS a",
      'ALTER TABLE lake.default.j ADD COLUMN b double',
      'INSERT INTO lake.default.j VALUES (2, 0.5)',
    );
    expect(await lake.rows('SELECT a, b FROM lake.default.j ORDER BY a')).to.deep.equal([
      [1, null],
      [2, 0.5],
    ]);
  });

  it('refuses what it cannot do safely', async () => {
    await lake.harness.run(
      "CREATE TABLE lake.default.c WITH (format = 'CSV') AS SELECT 'x' AS a, 'y' AS b",
      "CREATE TABLE lake.default.p WITH (partitioned_by = ARRAY['k']) AS SELECT 1 AS v, 2 AS k",
    );
    const cases: [string, string][] = [
      [
        'ALTER TABLE lake.default.c ADD COLUMN z varchar',
        'line 1:1: This connector does not support adding columns of CSV tables: their files are read by column position (lake.default.c)',
      ],
      [
        'ALTER TABLE lake.default.c DROP COLUMN b',
        'line 1:1: This connector does not support dropping columns of CSV tables: their files are read by column position (lake.default.c)',
      ],
      ['ALTER TABLE lake.default.p DROP COLUMN k', "line 1:1: Cannot drop partition column 'k' of lake.default.p"],
      ['ALTER TABLE lake.default.p DROP COLUMN v', 'line 1:1: Cannot drop the only data column of lake.default.p'],
      ['ALTER TABLE lake.default.p ADD COLUMN w integer NOT NULL', "line 1:1: Catalog 'lake' does not support NOT NULL for column 'w'"],
      ['ALTER TABLE lake.default.p RENAME COLUMN v TO w', 'line 1:1: This connector does not support renaming columns'],
    ];
    for (const [sql, message] of cases) expect(await lake.failure(sql), sql).to.deep.equal({ name: 'NOT_SUPPORTED', message });
    expect(await lake.rows('SELECT * FROM lake.default.p')).to.deep.equal([[1, 2]]);
  });
});
