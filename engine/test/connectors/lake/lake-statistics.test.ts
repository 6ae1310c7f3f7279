// Lake table statistics from the files' Parquet footers, as SHOW STATS prints them, against what
// DuckDB computes from the same files (row count, NULL count, min and max); partition columns from
// folder names; footers remembered by file version; a table of too many files has none; the
// optimizer builds joins on the smaller lake table and broadcasts or partitions by their row counts.

import { expect } from 'chai';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { LocalFileSystem } from '../../../src/connectors/hive/file-system/local-file-system.js';
import type { FileSystem } from '../../../src/connectors/hive/file-system/file-system.js';
import { FileSystems } from '../../../src/connectors/hive/file-system/file-systems.js';
import { FileMetastore } from '../../../src/connectors/hive/metastore/file-metastore.js';
import { FooterStatisticsCache } from '../../../src/connectors/hive/statistics/footer-statistics-cache.js';
import { lakeTableStatistics } from '../../../src/connectors/hive/statistics/lake-table-statistics.js';
import { duckDbRows, LakeFixture } from './lake-fixture.js';

/** DuckDB's rows for a table of every kind of column, NULLs in some, over several row groups. */
const DUCK_TABLE = `SELECT i::BIGINT AS id,
  CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 1000)::INTEGER - 300 END AS qty,
  CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 400) / 4.0 - 2.5 END::DOUBLE AS price,
  ((i % 10000) / 100.0 - 12.5)::DECIMAL(12,2) AS amount,
  DATE '2020-01-01' + (i % 900)::INTEGER AS d,
  TIMESTAMP '2024-03-01 10:00:00' + INTERVAL (i % 5000) SECOND AS ts,
  CASE WHEN i % 3 = 0 THEN NULL ELSE 'name ' || (i % 97) END AS name
  FROM range(20000) r(i)`;

const COLUMNS = ['id', 'qty', 'price', 'amount', 'd', 'ts', 'name'];

describe('lake: table statistics', function () {
  this.timeout(60_000);
  let lake: LakeFixture;

  beforeEach(() => {
    lake = LakeFixture.create();
  });
  afterEach(() => lake.remove());

  async function duckParquet(relative: string, select: string, rowGroupSize = 4096): Promise<string> {
    const path = lake.path(relative);
    lake.file(relative, '');
    await duckDbRows(`COPY (${select}) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE ${rowGroupSize})`);
    return path;
  }

  async function showStats(target: string): Promise<Record<string, unknown[]>> {
    const rows = await lake.rows(`SHOW STATS FOR ${target}`);
    return Object.fromEntries(rows.map((r) => [String(r[0]), r.slice(1)]));
  }

  it('SHOW STATS of a Parquet table: row count, NULL fractions, low and high values as DuckDB finds them', async () => {
    const first = await duckParquet('data/t/a.parquet', `${DUCK_TABLE} WHERE i < 12000`);
    await duckParquet('data/t/b.parquet', `${DUCK_TABLE} WHERE i >= 12000`);
    // A whole second, so that setting it again below gives the same time to the millisecond.
    const mtime = new Date('2025-06-01T12:00:00Z');
    utimesSync(first, mtime, mtime);
    await lake.harness.query(`CREATE TABLE lake.default.t WITH (external_location = '${lake.uri('data/t')}')`);
    const stats = await showStats('lake.default.t');

    const files = `read_parquet('${lake.path('data/t')}/*.parquet')`;
    const [[rows]] = await duckDbRows(`SELECT count(*) FROM ${files}`);
    const distinctCounts: Record<string, unknown> = {};
    expect(stats.null).to.deep.equal([null, null, null, Number(rows), null, null]);
    for (const name of COLUMNS) {
      const text = name === 'ts' ? `strftime(${name}, '%Y-%m-%d %H:%M:%S.%g')` : `CAST(${name} AS VARCHAR)`;
      const [duck] = await duckDbRows(
        `SELECT (count(*) - count(${name}))::DOUBLE / count(*), (SELECT ${text} FROM ${files} ORDER BY ${name} NULLS LAST LIMIT 1), (SELECT ${text} FROM ${files} ORDER BY ${name} DESC NULLS LAST LIMIT 1), count(DISTINCT ${name}) FROM ${files}`,
      );
      const [dataSize, distinct, nullsFraction, rowCount, low, high] = stats[name];
      expect([dataSize, rowCount], name).to.deep.equal([null, null]);
      distinctCounts[name] = distinct;
      // DuckDB gives the distinct count of dictionary-encoded row groups: the table's is inferred from them.
      if (distinct !== null) expect(Number(distinct), name).to.be.closeTo(Number(duck[3]), Number(duck[3]) * 0.05);
      expect(nullsFraction, name).to.be.closeTo(Number(duck[0]), 1e-12);
      if (name === 'name') {
        // Trino's statistics hold numbers: a varchar column has no low and high value.
        expect([low, high], name).to.deep.equal([null, null]);
      } else if (name === 'price' || name === 'amount') {
        expect([Number(low), Number(high)], name).to.deep.equal([Number(duck[1]), Number(duck[2])]);
      } else {
        expect([low, high], name).to.deep.equal([duck[1], duck[2]]);
      }
    }
    // The columns DuckDB encodes with dictionaries (of few distinct values) have them, the unique id has none.
    expect(Object.keys(distinctCounts).filter((c) => distinctCounts[c] !== null)).to.deep.equal(['price', 'name']);
    // Decimals and doubles print as Java prints a double (Trino's form), not as the decimal's text.
    expect(stats.amount.slice(4)).to.deep.equal(['-12.5', '87.49']);
    expect(stats.price.slice(4)).to.deep.equal(['-2.25', '97.25']);

    // The footers are remembered by (location, size, modification time): a file changed in place
    // but alike in both is not opened again (here it is no Parquet file any more)...
    const original = readFileSync(first);
    writeFileSync(first, Buffer.alloc(original.length, 0x20));
    utimesSync(first, mtime, mtime);
    expect(await showStats('lake.default.t')).to.deep.equal(stats);
    // ... while a new modification time has it read again (and it cannot be, so the figures are unknown).
    const later = new Date(mtime.getTime() + 5000);
    utimesSync(first, later, later);
    expect((await showStats('lake.default.t')).null[3]).to.equal(null);
  });

  it("our Parquet writer gives dictionary-encoded chunks' distinct counts: the table's distinct counts as DuckDB finds them", async () => {
    await lake.harness.query(
      `CREATE TABLE lake.default.w AS SELECT n_name, n_regionkey, l_shipdate, l_orderkey, l_comment
        FROM tpch.tiny.lineitem JOIN tpch.tiny.supplier ON l_suppkey = s_suppkey JOIN tpch.tiny.nation ON s_nationkey = n_nationkey`,
    );
    const stats = await showStats('lake.default.w');
    const files = `read_parquet('${lake.path('catalog/default/w')}/*.parquet')`;
    const [duck] = await duckDbRows(
      `SELECT count(DISTINCT n_name), count(DISTINCT n_regionkey), count(DISTINCT l_shipdate), count(DISTINCT l_orderkey) FROM ${files}`,
    );
    expect([stats.n_name[1], stats.n_regionkey[1]]).to.deep.equal([Number(duck[0]), Number(duck[1])]);
    // Inferred from the row groups' counts: a row group of a share of the table's values sees most of them.
    expect(stats.l_shipdate[1]).to.be.closeTo(Number(duck[2]), Number(duck[2]) * 0.05);
    expect(stats.l_orderkey[1]).to.be.closeTo(Number(duck[3]), Number(duck[3]) * 0.05);
    // Mostly distinct values are written plain: their count is unknown.
    expect(stats.l_comment[1]).to.equal(null);
  });

  it('partition columns: values, distinct count and NULL fraction from the folder names', async () => {
    await duckParquet('data/p/region=10/a.parquet', 'SELECT i::BIGINT AS id FROM range(30) r(i)');
    await duckParquet('data/p/region=10/b.parquet', 'SELECT i::BIGINT AS id FROM range(30, 50) r(i)');
    await duckParquet('data/p/region=-4/a.parquet', 'SELECT i::BIGINT AS id FROM range(50, 60) r(i)');
    await duckParquet('data/p/region=__HIVE_DEFAULT_PARTITION__/a.parquet', 'SELECT i::BIGINT AS id FROM range(60, 100) r(i)');
    await lake.harness.query(
      `CREATE TABLE lake.default.p (id bigint, region integer) WITH (partitioned_by = ARRAY['region'], external_location = '${lake.uri('data/p')}')`,
    );
    const stats = await showStats('lake.default.p');
    expect(stats.region).to.deep.equal([null, 2, 0.4, null, '-4', '10']);
    expect(stats.id).to.deep.equal([null, null, 0, null, '0', '99']);
    expect(stats.null[3]).to.equal(100);
    // A query's statistics carry the table's through projections; a filter makes them unknown.
    expect(await lake.rows('SHOW STATS FOR (SELECT region AS r, id FROM lake.default.p)')).to.deep.equal([
      ['r', null, 2, 0.4, null, '-4', '10'],
      ['id', null, null, 0, null, '0', '99'],
      [null, null, null, null, 100, null, null],
    ]);
    expect((await lake.rows('SHOW STATS FOR (SELECT id FROM lake.default.p WHERE id > 5)')).at(-1)).to.deep.equal([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('CSV files do not say their row count: only the partition folders are known', async () => {
    lake.file('data/c/k=1/a.csv', '1\n2\n');
    lake.file('data/c/k=2/a.csv', '3\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.c (v bigint, k bigint) WITH (format = 'CSV', partitioned_by = ARRAY['k'], external_location = '${lake.uri('data/c')}')`,
    );
    expect(await lake.rows('SHOW STATS FOR lake.default.c')).to.deep.equal([
      ['v', null, null, null, null, null, null],
      ['k', null, 2, 0, null, '1', '2'],
      [null, null, null, null, null, null, null],
    ]);
    // The engine's own writes counted their rows when they committed.
    await lake.harness.query("CREATE TABLE lake.default.w WITH (format = 'CSV') AS SELECT n_nationkey FROM tpch.tiny.nation");
    await lake.harness.query('INSERT INTO lake.default.w SELECT n_nationkey FROM tpch.tiny.nation WHERE n_regionkey = 1');
    expect((await lake.rows('SHOW STATS FOR lake.default.w')).at(-1)![4]).to.equal(30);
  });

  it('reads at most the given number of footers at once, and knows nothing of a table of more files than the limit', async () => {
    for (let i = 0; i < 6; i++) await duckParquet(`data/m/f${i}.parquet`, `SELECT ${i}::BIGINT AS id`);
    await lake.harness.query(`CREATE TABLE lake.default.m (id bigint) WITH (external_location = '${lake.uri('data/m')}')`);
    const table = (await lake.connector.getTable(lake.harness.session, 'default', 'm'))!;
    expect((await lake.connector.getTableStatistics(lake.harness.session, table))?.rowCount).to.equal(6);

    const local = new LocalFileSystem();
    let inFlight = 0;
    let most = 0;
    const counting: FileSystem = Object.assign(Object.create(local) as FileSystem, {
      readRange: async (location: string, offset: number, length: number) => {
        most = Math.max(most, ++inFlight);
        try {
          return await local.readRange(location, offset, length);
        } finally {
          inFlight--;
        }
      },
    });
    const metastore = new FileMetastore('lake', lake.uri('catalog'), new FileSystems('lake', {}));
    const lakeTable = (await metastore.getTable('default', 'm'))!;
    const statistics = (maxFiles: number) =>
      lakeTableStatistics({
        fs: counting,
        table: lakeTable,
        committed: new Set(),
        committedRows: 0,
        footers: new FooterStatisticsCache(),
        limits: { maxFiles, footersInParallel: 2 },
      });
    expect((await statistics(6))?.rowCount).to.equal(6);
    expect(most).to.equal(2);
    expect(await statistics(5)).to.equal(undefined);
  });

  describe('the optimizer uses them, as it uses tpch statistics', () => {
    /** The fragments of an EXPLAIN, by the tables they scan. */
    async function fragments(sql: string): Promise<{ scans: string[]; text: string }[]> {
      const plan = String((await lake.rows(`EXPLAIN ${sql}`))[0][0]);
      return plan
        .split(/^(?=Fragment \d+)/m)
        .map((text) => ({ scans: [...text.matchAll(/TableScan\[table = ([\w:.]+)/g)].map((m) => m[1]), text }));
    }

    /** How the fragment scanning `table` sends its rows, and whether it joins them with rows of another fragment there. */
    async function scanOf(sql: string, table: string): Promise<{ partitioning: string; joinsThere: boolean }> {
      const fragment = (await fragments(sql)).find((f) => f.scans.includes(table))!;
      return { partitioning: /Output partitioning: (\w+)/.exec(fragment.text)![1], joinsThere: fragment.text.includes('InnerJoin') };
    }

    beforeEach(async () => {
      await duckParquet('data/small/a.parquet', "SELECT i::BIGINT AS k, 'n' || i AS name FROM range(25) r(i)");
      await duckParquet('data/big/a.parquet', 'SELECT i::BIGINT AS k, i % 25 AS ref FROM range(600000) r(i)', 100_000);
      await duckParquet('data/big2/a.parquet', 'SELECT i::BIGINT AS k FROM range(600000) r(i)', 100_000);
      for (const name of ['small', 'big', 'big2'])
        await lake.harness.query(`CREATE TABLE lake.default.${name} WITH (external_location = '${lake.uri(`data/${name}`)}')`);
    });

    it('a join of a big and a small table builds on the small one (broadcast), whichever is written first', async () => {
      // A table this small would otherwise be read by every task of the join's stage (tiny-build-side.ts).
      lake.harness.session.properties.set('tiny_build_side_in_probe_stage', 'false');
      const lakeJoin = 'SELECT count(*) FROM lake.default.small s JOIN lake.default.big b ON s.k = b.ref';
      expect(await scanOf(lakeJoin, 'lake:default.small')).to.deep.equal({ partitioning: 'BROADCAST', joinsThere: false });
      expect(await scanOf(lakeJoin, 'lake:default.big')).to.deep.include({ joinsThere: true });
      const tpchJoin = 'SELECT count(*) FROM tpch.tiny.nation n JOIN tpch.tiny.customer c ON n.n_nationkey = c.c_nationkey';
      expect(await scanOf(tpchJoin, 'tpch:tiny.nation')).to.deep.equal({ partitioning: 'BROADCAST', joinsThere: false });
      expect(await scanOf(tpchJoin, 'tpch:tiny.customer')).to.deep.include({ joinsThere: true });
    });

    it('two tables too big to broadcast (over join_max_broadcast_table_size) are joined partitioned', async () => {
      // On one node every build side that fits is broadcast: a limit below these tables' sizes (600,000
      // and 1,500,000 keys of 8 bytes) leaves the choice to the statistics.
      lake.harness.session.properties.set('join_max_broadcast_table_size', '1MB');
      const lakeJoin = 'SELECT count(*) FROM lake.default.big a JOIN lake.default.big2 b ON a.k = b.k';
      expect(await scanOf(lakeJoin, 'lake:default.big')).to.deep.equal({ partitioning: 'HASH', joinsThere: false });
      expect(await scanOf(lakeJoin, 'lake:default.big2')).to.deep.equal({ partitioning: 'HASH', joinsThere: false });
      const tpchJoin = 'SELECT count(*) FROM tpch.sf1.orders o JOIN tpch.sf1.lineitem l ON o.o_orderkey = l.l_orderkey';
      expect(await scanOf(tpchJoin, 'tpch:sf1.orders')).to.deep.equal({ partitioning: 'HASH', joinsThere: false });
    });
  });
});
