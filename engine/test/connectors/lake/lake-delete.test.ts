// DELETE on the lake as Trino's Hive connector does it on non-transactional tables (HiveMetadata's
// applyDelete/executeDelete): all rows, or whole partitions when the WHERE is one Hive enforces on
// partition values; no count (Trino's executeDelete returns none: `rows` NULL, no update count).
// Any other WHERE, UPDATE and MERGE fail with Trino's "Modifying Hive table rows is only supported
// for transactional tables", TRUNCATE with its "does not support truncating tables", an
// unpartitioned external table with "Cannot delete from non-managed Hive table". DuckDB reading the
// table's files (hive partitioning) is the oracle for the rows left; a concurrent reader sees the
// rows before or after, never half; concurrent DELETEs and an optimize lose and keep nothing; a
// delete that fails leaves files and commit log as they were.

import { expect } from 'chai';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataFiles, duckDbRows, duckNationRows, LakeFixture } from './lake-fixture.js';

/** The folders directly below `dir`, hidden ones left out. */
function folders(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.') && statSync(join(dir, name)).isDirectory())
    .sort();
}

const NATION = 'SELECT n_nationkey, n_name, n_regionkey FROM tpch.tiny.nation';
const REFUSED = 'Modifying Hive table rows is only supported for transactional tables';

describe('lake: DELETE of whole partitions, and the row changes Trino refuses', function () {
  this.timeout(120_000);
  let lake: LakeFixture;
  beforeEach(() => {
    lake = LakeFixture.create();
  });
  afterEach(() => lake.remove());

  const duckRows = (dir: string, partitioned: boolean) => duckNationRows(dir, partitioned, 'nationkey, name, regionkey');

  async function engineRows(table: string): Promise<unknown[][]> {
    return lake.rows(`SELECT nationkey, name, regionkey FROM ${table} ORDER BY 1, 2, 3`);
  }

  async function partitionedTable(inserts: number): Promise<string> {
    await lake.harness.query(
      "CREATE TABLE lake.default.p (nationkey bigint, name varchar, regionkey bigint) WITH (partitioned_by = ARRAY['regionkey'])",
    );
    for (let i = 0; i < inserts; i++) await lake.harness.query(`INSERT INTO lake.default.p ${NATION}`);
    return lake.path('catalog/default/p');
  }

  it('DELETE without WHERE empties an unpartitioned table: no count, as Trino; its files gone; it takes rows again', async () => {
    await lake.harness.query('CREATE TABLE lake.default.t (nationkey bigint, name varchar, regionkey bigint)');
    for (let i = 0; i < 3; i++) await lake.harness.query(`INSERT INTO lake.default.t ${NATION}`);
    const dir = lake.path('catalog/default/t');
    expect(await duckRows(dir, false)).to.have.length(75);
    const result = await lake.harness.query('DELETE FROM lake.default.t');
    expect(result.rows).to.deep.equal([[null]]);
    expect(result.result.updateType).to.equal('DELETE');
    expect(result.result.updateCount).to.equal(undefined);
    expect(dataFiles(dir)).to.deep.equal([]);
    expect(await lake.rows('SELECT count(*) FROM lake.default.t')).to.deep.equal([['0']]);
    await lake.harness.query(`INSERT INTO lake.default.t ${NATION}`);
    expect(await engineRows('lake.default.t')).to.deep.equal(await duckRows(dir, false));
    expect(await duckRows(dir, false)).to.have.length(25);
    const stats = await lake.rows('SHOW STATS FOR lake.default.t');
    expect(stats[stats.length - 1][4]).to.equal(25);
  });

  it('DELETE WHERE on the partition column drops exactly the partitions it selects, folders and all', async () => {
    const dir = await partitionedTable(2);
    const all = await duckRows(dir, true);
    expect(all).to.have.length(50);
    expect(folders(dir)).to.deep.equal(['regionkey=0', 'regionkey=1', 'regionkey=2', 'regionkey=3', 'regionkey=4']);
    const steps: [where: string, left: (region: number) => boolean][] = [
      ['regionkey = 1', (r) => r !== 1],
      ['regionkey IN (2, 3) AND NOT regionkey = 3', (r) => r !== 1 && r !== 2],
      ['regionkey > 3 OR regionkey IS NULL', (r) => r === 0 || r === 3],
      ['regionkey BETWEEN 7 AND 9', (r) => r === 0 || r === 3],
    ];
    for (const [where, left] of steps) {
      const result = await lake.harness.query(`DELETE FROM lake.default.p WHERE ${where}`);
      expect(result.rows, where).to.deep.equal([[null]]);
      const expected = all.filter((row) => left(Number(row[2])));
      expect(await duckRows(dir, true), where).to.deep.equal(expected);
      expect(await engineRows('lake.default.p'), where).to.deep.equal(expected);
      expect(folders(dir), where).to.deep.equal([...new Set(expected.map((row) => `regionkey=${row[2]}`))].sort());
    }
    const stats = await lake.rows('SHOW STATS FOR lake.default.p');
    expect(stats[stats.length - 1][4]).to.equal(20);
  });

  it('a partition column of a text table, NULL partitions, and a multi-level partitioning', async () => {
    await lake.harness.query(
      "CREATE TABLE lake.default.j (id bigint, region varchar, year integer) WITH (format = 'JSON', partitioned_by = ARRAY['region', 'year'])",
    );
    await lake.harness.query(
      "INSERT INTO lake.default.j VALUES (1, 'a/b', 2020), (2, 'a/b', 2021), (3, NULL, 2020), (4, 'c', NULL), (5, 'c', 2021)",
    );
    await lake.harness.query("DELETE FROM lake.default.j WHERE region = 'a/b' AND year = 2020");
    await lake.harness.query('DELETE FROM lake.default.j WHERE region IS NULL');
    await lake.harness.query('DELETE FROM lake.default.j WHERE year IS NULL');
    expect(await lake.rows('SELECT id, region, year FROM lake.default.j ORDER BY id')).to.deep.equal([
      ['2', 'a/b', 2021],
      ['5', 'c', 2021],
    ]);
    const dir = lake.path('catalog/default/j');
    expect(folders(dir)).to.deep.equal(['region=a%2Fb', 'region=c']);
    expect(folders(join(dir, 'region=a%2Fb'))).to.deep.equal(['year=2021']);
    expect(folders(join(dir, 'region=c'))).to.deep.equal(['year=2021']);
    const stats = await lake.rows('SHOW STATS FOR lake.default.j');
    expect(stats[stats.length - 1][4]).to.equal(2);
  });

  it("other WHEREs, UPDATE, MERGE and TRUNCATE fail with Trino's errors and change nothing", async () => {
    const dir = await partitionedTable(1);
    const files = dataFiles(dir);
    const commits = readdirSync(join(dir, '.engine/commits'));
    const refusals: [sql: string, message: string][] = [
      ['DELETE FROM lake.default.p WHERE nationkey = 1', `line 1:1: ${REFUSED}`],
      ['DELETE FROM lake.default.p WHERE regionkey = 1 OR nationkey = 1', `line 1:1: ${REFUSED}`],
      ['DELETE FROM lake.default.p WHERE regionkey = 1 OR regionkey IS NULL AND nationkey > 3', `line 1:1: ${REFUSED}`],
      ['DELETE FROM lake.default.p WHERE regionkey + 1 = 2', `line 1:1: ${REFUSED}`],
      ['DELETE FROM lake.default.p WHERE regionkey = nationkey', `line 1:1: ${REFUSED}`],
      ['DELETE FROM lake.default.p WHERE regionkey < random(5)', `line 1:1: ${REFUSED}`],
      ['DELETE FROM lake.default.p WHERE regionkey IN (SELECT 1)', `line 1:1: ${REFUSED}`],
      ["UPDATE lake.default.p SET name = 'x' WHERE regionkey = 1", `line 1:1: ${REFUSED}`],
      [
        "MERGE INTO lake.default.p t USING (VALUES 1) s(k) ON t.nationkey = s.k WHEN MATCHED THEN UPDATE SET name = 'x'",
        `line 1:1: ${REFUSED}`,
      ],
      ['TRUNCATE TABLE lake.default.p', 'line 1:1: This connector does not support truncating tables'],
    ];
    for (const [sql, message] of refusals) {
      expect(await lake.failure(sql), sql).to.deep.equal({ name: 'NOT_SUPPORTED', message });
    }
    expect(dataFiles(dir)).to.deep.equal(files);
    expect(readdirSync(join(dir, '.engine/commits'))).to.deep.equal(commits);
    expect(await engineRows('lake.default.p')).to.have.length(25);
  });

  it('external tables: unpartitioned refused as Trino; partitions of a partitioned one leave the table, their files stay', async () => {
    const { table, path } = await lake.duckDbTable('ext', 'i::BIGINT AS id', 'ROW_GROUP_SIZE 1000');
    expect(await lake.failure(`DELETE FROM ${table}`)).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: 'Cannot delete from non-managed Hive table',
    });
    expect(await lake.rows(`SELECT count(*) FROM ${table}`)).to.deep.equal([['3000']]);
    expect(existsSync(path)).to.equal(true);

    const folder = lake.path('data/pext');
    lake.file('data/pext/.keep', '');
    await duckDbRows(
      `COPY (SELECT n_nationkey AS nationkey, n_name AS name, n_regionkey AS regionkey FROM (SELECT i AS n_nationkey, 'n' || i AS n_name, i % 5 AS n_regionkey FROM range(25) r(i))) TO '${folder}' (FORMAT PARQUET, PARTITION_BY (regionkey), OVERWRITE_OR_IGNORE)`,
    );
    const before = dataFiles(folder);
    await lake.harness.query(
      `CREATE TABLE lake.default.pext (nationkey bigint, name varchar, regionkey bigint) WITH (external_location = '${lake.uri('data/pext')}', partitioned_by = ARRAY['regionkey'])`,
    );
    const all = await duckRows(folder, true);
    expect(await engineRows('lake.default.pext')).to.deep.equal(all);
    await lake.harness.query('DELETE FROM lake.default.pext WHERE regionkey IN (0, 4)');
    expect(await engineRows('lake.default.pext')).to.deep.equal(all.filter((row) => ![0, 4].includes(Number(row[2]))));
    expect(dataFiles(folder)).to.deep.equal(before);
  });

  it('a reader during a DELETE sees the rows before or after it (or fails having listed a deleted file), never half', async () => {
    const dir = await partitionedTable(4);
    const rowsBefore = await duckRows(dir, true);
    const sums = (rows: unknown[][]) => `${rows.length},${rows.reduce((s, r) => s + Number(r[0]), 0)}`;
    const before = sums(rowsBefore);
    const after = sums(rowsBefore.filter((row) => Number(row[2]) > 1));
    let done = false;
    const deleting = lake.harness.query('DELETE FROM lake.default.p WHERE regionkey <= 1').finally(() => (done = true));
    const seen = new Set<string>();
    while (!done) {
      const read = await lake.harness.query('SELECT count(*), sum(nationkey) FROM lake.default.p').then(
        (r) => String(r.rows[0]),
        (e: Error) => (/does not exist|was rewritten by ALTER TABLE EXECUTE optimize or DELETE/.test(e.message) ? 'failed' : e.message),
      );
      seen.add(read);
    }
    await deleting;
    seen.add(String((await lake.harness.query('SELECT count(*), sum(nationkey) FROM lake.default.p')).rows[0]));
    for (const read of seen) expect(read).to.be.oneOf([before, after, 'failed']);
    expect(seen.has(after)).to.equal(true);
    expect(sums(await duckRows(dir, true))).to.equal(after);
  });

  it('DELETEs and an optimize at once: each DELETE selects again from what the others left; no row lost or kept twice', async () => {
    const dir = await partitionedTable(4);
    const all = await duckRows(dir, true);
    await lake.harness.query('SET SESSION lake.non_transactional_optimize_enabled = true');
    const outcomes = await Promise.allSettled([
      lake.harness.query('DELETE FROM lake.default.p WHERE regionkey IN (1, 2)'),
      lake.harness.query('DELETE FROM lake.default.p WHERE regionkey IN (2, 3)'),
      lake.harness.query('ALTER TABLE lake.default.p EXECUTE optimize'),
    ]);
    // The DELETEs always land; the optimize may find its files retired by them first, or deleted under its reading.
    expect(outcomes[0].status).to.equal('fulfilled');
    expect(outcomes[1].status).to.equal('fulfilled');
    if (outcomes[2].status === 'rejected')
      expect((outcomes[2].reason as { errorName: string }).errorName).to.be.oneOf([
        'HIVE_CONCURRENT_MODIFICATION_DETECTED',
        'HIVE_FILE_NOT_FOUND',
      ]);
    const expected = all.filter((row) => [0, 4].includes(Number(row[2])));
    expect(await duckRows(dir, true)).to.deep.equal(expected);
    expect(await engineRows('lake.default.p')).to.deep.equal(expected);
    // (A failed optimize's writer may leave an empty folder behind: no file of a deleted partition stays.)
    expect([...new Set(dataFiles(dir).map((f) => f.split('/')[0]))]).to.deep.equal(['regionkey=0', 'regionkey=4']);
    const stats = await lake.rows('SHOW STATS FOR lake.default.p');
    expect(stats[stats.length - 1][4]).to.equal(expected.length);
  });

  it('a DELETE that fails before its commit (a file it cannot read) leaves the table as it was', async () => {
    const dir = await partitionedTable(2);
    const files = dataFiles(dir);
    const commits = readdirSync(join(dir, '.engine/commits'));
    const victim = files.find((f) => f.startsWith('regionkey=2/')) as string;
    writeFileSync(join(dir, victim), 'not a parquet file at all');
    const failure = await lake.failure('DELETE FROM lake.default.p WHERE regionkey >= 2');
    expect(failure.name).to.equal('HIVE_BAD_DATA');
    expect(dataFiles(dir)).to.deep.equal(files);
    expect(readdirSync(join(dir, '.engine/commits'))).to.deep.equal(commits);
    expect(await lake.rows('SELECT count(*) FROM lake.default.p WHERE regionkey IN (0, 1, 3, 4)')).to.deep.equal([['40']]);
  });
});
