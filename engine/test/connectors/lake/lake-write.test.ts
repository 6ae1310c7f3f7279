// Writing lake tables: CTAS and INSERT write CSV and JSON files that DuckDB reads back with equal
// values, partitioned writes land in `col=value/` folders, a write becomes visible only when it
// commits (two at once both land; one that fails leaves nothing visible), DROP TABLE deletes a
// managed table's files and leaves an external table's alone.

import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HiveConnector } from '../../../src/connectors/hive/hive-connector.js';
import { CatalogManager } from '../../../src/connectors/catalog-manager.js';
import { duckDbRows, LakeFixture } from './lake-fixture.js';
import { dataFiles } from '../../writes/write-files.js';

const LINEITEM = `SELECT l_orderkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_shipdate, l_returnflag, l_comment, l_quantity > 25 AS big FROM tpch.tiny.lineitem WHERE l_orderkey < 3000`;
const COMPARED =
  'l_orderkey, l_linenumber, CAST(l_quantity AS varchar), CAST(l_extendedprice AS varchar), CAST(l_discount AS varchar), CAST(l_shipdate AS varchar), l_returnflag, l_comment, big';

describe('lake: writing tables', function () {
  let lake: LakeFixture;

  beforeEach(() => {
    lake = LakeFixture.create();
  });
  afterEach(() => lake.remove());

  for (const format of ['CSV', 'JSON'] as const) {
    it(`CREATE TABLE AS writes ${format} files DuckDB reads back with equal values`, async () => {
      const created = await lake.rows(`CREATE TABLE lake.default.items WITH (format = '${format}') AS ${LINEITEM}`);
      const expected = await lake.rows(`SELECT ${COMPARED} FROM (${LINEITEM}) ORDER BY l_orderkey, l_linenumber`);
      expect(created).to.deep.equal([[String(expected.length)]]);
      const dir = lake.path('catalog/default/items');
      const files = dataFiles(dir);
      expect(files).to.have.length(1);
      expect(files[0]).to.match(new RegExp(`^q\\d+_w[0-9a-f]{12}_[0-9a-f]{8}_0\\.${format.toLowerCase()}$`));
      const columns =
        "{'l_orderkey': 'BIGINT', 'l_linenumber': 'INTEGER', 'l_quantity': 'DECIMAL(12,2)', 'l_extendedprice': 'DECIMAL(12,2)', 'l_discount': 'DECIMAL(12,2)', 'l_shipdate': 'DATE', 'l_returnflag': 'VARCHAR', 'l_comment': 'VARCHAR', 'big': 'BOOLEAN'}";
      const read =
        format === 'CSV'
          ? `read_csv('${join(dir, files[0])}', header = false, columns = ${columns}, allow_quoted_nulls = false)`
          : `read_json('${join(dir, files[0])}', format = 'newline_delimited', columns = ${columns})`;
      expect(await duckDbRows(`SELECT ${COMPARED} FROM ${read} ORDER BY l_orderkey, l_linenumber`)).to.deep.equal(expected);
      expect(await lake.rows(`SELECT ${COMPARED} FROM lake.default.items ORDER BY l_orderkey, l_linenumber`)).to.deep.equal(expected);
    });
  }

  it('writes NULLs, empty strings, quotes, separators, line ends and extreme numbers so that they read back the same', async () => {
    const values =
      "(1, 'plain', 1.5E0, CAST(NULL AS bigint)), (2, '', -0.0E0, 9223372036854775807), (3, NULL, 1E300, -9223372036854775807 - 1), (4, 'a,\"b\"' || chr(10) || 'c', nan(), 0), (5, 'back\\slash', infinity(), 1)";
    for (const format of ['CSV', 'JSON']) {
      await lake.harness.query(
        `CREATE TABLE lake.default.t_${format} WITH (format = '${format}') AS SELECT * FROM (VALUES ${values}) AS v(id, s, x, b)`,
      );
      expect(await lake.rows(`SELECT * FROM lake.default.t_${format} ORDER BY id`), format).to.deep.equal(
        await lake.rows(`SELECT * FROM (VALUES ${values}) AS v(id, s, x, b) ORDER BY id`),
      );
    }
    const csv = dataFiles(lake.path('catalog/default/t_csv'))[0];
    const duck = await duckDbRows(
      `SELECT * FROM read_csv('${lake.path(`catalog/default/t_csv/${csv}`)}', header = false, columns = {'id': 'INTEGER', 's': 'VARCHAR', 'x': 'DOUBLE', 'b': 'BIGINT'}, allow_quoted_nulls = false) ORDER BY id`,
    );
    const ours = await lake.rows('SELECT * FROM lake.default.t_csv ORDER BY id');
    expect(duck.map((r) => r.map((v) => (typeof v === 'number' && Number.isNaN(v) ? 'NaN' : v)))).to.deep.equal(
      ours.map((r) => r.map((v) => (typeof v === 'number' && Number.isNaN(v) ? 'NaN' : v))),
    );
  });

  it('INSERT adds files; a partitioned table writes col=value folders that DuckDB reads as Hive partitions', async () => {
    await lake.harness.query(
      "CREATE TABLE lake.default.nations (name varchar, key bigint, region bigint) WITH (format = 'CSV', partitioned_by = ARRAY['region'])",
    );
    expect(
      await lake.rows(
        'INSERT INTO lake.default.nations SELECT n_name, n_nationkey, n_regionkey FROM tpch.tiny.nation WHERE n_nationkey < 10',
      ),
    ).to.deep.equal([['10']]);
    expect(
      await lake.rows(
        'INSERT INTO lake.default.nations SELECT n_name, n_nationkey, n_regionkey FROM tpch.tiny.nation WHERE n_nationkey >= 10',
      ),
    ).to.deep.equal([['15']]);
    const dir = lake.path('catalog/default/nations');
    const folders = [...new Set(dataFiles(dir).map((f) => f.split('/')[0]))];
    expect(folders).to.deep.equal(['region=0', 'region=1', 'region=2', 'region=3', 'region=4']);
    const expected = await lake.rows('SELECT n_name, n_nationkey, n_regionkey FROM tpch.tiny.nation ORDER BY n_nationkey');
    expect(await lake.rows('SELECT * FROM lake.default.nations ORDER BY key')).to.deep.equal(expected);
    expect(
      await duckDbRows(
        `SELECT name, key, region FROM read_csv('${dir}/*/*.csv', header = false, columns = {'name': 'VARCHAR', 'key': 'BIGINT'}, hive_partitioning = true, hive_types = {'region': BIGINT}) ORDER BY key`,
      ),
    ).to.deep.equal(expected);
    const plan = String((await lake.rows('EXPLAIN ANALYZE SELECT count(*) FROM lake.default.nations WHERE region = 2'))[0][0]);
    expect(plan).to.match(/filesRead = 2\b/);
  });

  it('two INSERTs at once both land: no row lost or doubled', async () => {
    await lake.harness.query("CREATE TABLE lake.default.c (id bigint, k varchar) WITH (format = 'JSON')");
    const inserts = Array.from({ length: 4 }, (_, i) =>
      lake.harness.query(`INSERT INTO lake.default.c SELECT n_nationkey + ${i * 100}, n_name FROM tpch.tiny.nation`),
    );
    await Promise.all(inserts);
    expect(await lake.rows('SELECT count(*), count(DISTINCT id), sum(id) FROM lake.default.c')).to.deep.equal([
      ['100', '100', String(4 * 300 + 25 * (0 + 100 + 200 + 300))],
    ]);
    const commits = readdirSync(lake.path('catalog/default/c/.engine/commits')).filter((f) => f.endsWith('.json'));
    expect(commits).to.have.length(4);
  });

  it('a write that fails leaves nothing visible and deletes its files; files of writes that never committed are not read', async () => {
    await lake.harness.query("CREATE TABLE lake.default.p (id bigint, part bigint) WITH (format = 'CSV', partitioned_by = ARRAY['part'])");
    await lake.harness.query('INSERT INTO lake.default.p VALUES (1, 1)');
    const before = dataFiles(lake.path('catalog/default/p'));
    const failure = await lake.failure(
      'INSERT INTO lake.default.p SELECT l_orderkey, l_orderkey FROM tpch.tiny.lineitem WHERE l_orderkey < 1000',
    );
    expect(failure.name).to.equal('HIVE_TOO_MANY_OPEN_PARTITIONS');
    expect(await lake.rows('SELECT * FROM lake.default.p')).to.deep.equal([['1', '1']]);
    expect(dataFiles(lake.path('catalog/default/p'))).to.deep.equal(before);
    // A file named like a write of ours that never committed (a crash between writing and committing) is invisible.
    writeFileSync(lake.path('catalog/default/p/part=1/q9_w0123456789ab_0.csv'), '99\n');
    writeFileSync(lake.path('catalog/default/p/part=1/external.csv'), '7\n');
    expect(await lake.rows('SELECT * FROM lake.default.p ORDER BY id')).to.deep.equal([
      ['1', '1'],
      ['7', '1'],
    ]);
  });

  it('tables survive a new connector over the same folder (a restart); DROP TABLE deletes a managed table and keeps an external one', async () => {
    await lake.harness.query("CREATE TABLE lake.default.m WITH (format = 'CSV') AS SELECT * FROM tpch.tiny.region");
    lake.file('data/ext/r.csv', '1,x\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.e (id bigint, v varchar) WITH (format = 'CSV', external_location = '${lake.uri('data/ext')}')`,
    );
    const restarted = new HiveConnector('lake', { catalogDir: `file://${lake.path('catalog')}/`, fileSystem: {} });
    const catalogs = new CatalogManager();
    catalogs.register('lake', restarted);
    expect((await restarted.listTables(lake.harness.session, 'default')).map((t) => t.table)).to.deep.equal(['e', 'm']);
    expect(await lake.rows('SELECT count(*) FROM lake.default.m')).to.deep.equal([['5']]);
    await lake.harness.query('DROP TABLE lake.default.m');
    await lake.harness.query('DROP TABLE lake.default.e');
    expect(existsSync(lake.path('catalog/default/m'))).to.equal(false);
    expect(readFileSync(lake.path('data/ext/r.csv'), 'utf8')).to.equal('1,x\n');
    expect(await lake.rows('SHOW TABLES FROM lake.default')).to.deep.equal([]);
    await lake.harness.query("CREATE TABLE lake.default.m WITH (format = 'CSV') AS SELECT 1 AS x");
    expect(await lake.rows('SELECT * FROM lake.default.m')).to.deep.equal([[1]]);
  });

  it('writes PARQUET by default (as Trino) and reads it back', async () => {
    await lake.harness.query("CREATE TABLE lake.default.q AS SELECT 1 AS x, 'a' AS y");
    const files = readdirSync(lake.path('catalog/default/q')).filter((name) => !name.startsWith('.'));
    expect(files).to.have.length(1);
    expect(
      readFileSync(lake.path(`catalog/default/q/${files[0]}`))
        .subarray(0, 4)
        .toString(),
    ).to.equal('PAR1');
    expect(await lake.rows('SELECT x, y FROM lake.default.q')).to.deep.equal([[1, 'a']]);
  });

  it('refuses writes to external tables, naming the table', async () => {
    lake.file('data/ext/r.csv', '1\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.e (id bigint) WITH (format = 'CSV', external_location = '${lake.uri('data/ext')}')`,
    );
    const external = await lake.failure('INSERT INTO lake.default.e VALUES (2)');
    expect(external.message).to.contain("Cannot write to external table 'lake.default.e'");
    expect(await lake.rows('SELECT * FROM lake.default.e')).to.deep.equal([['1']]);
  });
});
