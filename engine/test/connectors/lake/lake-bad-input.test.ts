// Bad input fails its query with a clear error naming the file (and line and column where there is
// one), and the engine keeps answering: a bad value, a CSV row with too many fields, a JSON line
// that does not parse, a truncated gzip file, a partition folder of another column, a file deleted
// between planning and reading; and catalog properties and locations that cannot work.

import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { rmSync } from 'node:fs';
import { ConfigError } from '../../../src/config/config-error.js';
import { lakeConfig } from '../../../src/connectors/hive/hive-config.js';
import { allSplits } from '../../../src/spi/connector.js';
import { LocalFileSystem } from '../../../src/connectors/hive/file-system/local-file-system.js';
import { csvFormat } from '../../../src/connectors/hive/formats/csv/csv-format.js';
import { DEFAULT_FORMAT_OPTIONS } from '../../../src/connectors/hive/metastore/lake-table.js';
import { BIGINT, VARCHAR } from '../../../src/types/types.js';
import { LakeFixture, duckDbRows } from './lake-fixture.js';

describe('lake: bad input', function () {
  let lake: LakeFixture;

  beforeEach(() => {
    lake = LakeFixture.create();
  });
  afterEach(() => lake.remove());

  /** Creates a table over one file; its query's failure. */
  async function failureReading(
    name: string,
    columns: string,
    format: string,
    file: string,
    content: string | Uint8Array,
  ): Promise<{ name: string; message: string }> {
    lake.file(`data/${name}/${file}`, content);
    await lake.harness.query(
      `CREATE TABLE lake.default.${name} (${columns}) WITH (format = '${format}', external_location = '${lake.uri(`data/${name}`)}')`,
    );
    const failure = await lake.failure(`SELECT * FROM lake.default.${name}`);
    // The engine goes on answering.
    expect(await lake.rows('SELECT count(*) FROM tpch.tiny.region')).to.deep.equal([['5']]);
    return failure;
  }

  it('a value not of its column type fails naming the file, line and column', async () => {
    const failure = await failureReading(
      'badvalue',
      'id bigint, name varchar, d date',
      'CSV',
      'a.csv',
      '1,a,2024-01-01\n2,b,2024-01-02\n3,"c",2024-13-45\n',
    );
    expect(failure.name).to.equal('HIVE_BAD_DATA');
    expect(failure.message).to.equal(`${lake.uri('data/badvalue')}a.csv:3:7: column 'd': Value cannot be cast to date: 2024-13-45`);
  });

  it('a bad record past the first byte range names its line in the whole file', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `${i},x`);
    lines[1500] = '1500,y,extra';
    const text = `${lines.join('\n')}\n`;
    const path = lake.file('data/toomany/a.csv', text);
    const columns = [
      { name: 'id', type: BIGINT },
      { name: 'v', type: VARCHAR },
    ];
    const file = { location: `file://${path}`, size: text.length };
    const stats = { bytesRead: 0, bytesSkipped: 0, rowGroupsRead: 0, rowGroupsSkipped: 0 };
    const start = text.indexOf('\n1200,') + 3;
    let message = '';
    try {
      for await (const page of csvFormat.read({
        fs: new LocalFileSystem(),
        file,
        range: { start, length: text.length - start },
        columns,
        tableColumns: columns,
        options: DEFAULT_FORMAT_OPTIONS,
        stats,
      }))
        void page;
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).to.equal(`file://${path}:1501:8: malformed CSV record: more than 2 fields: the table has 2 columns`);
    const failure = await failureReading('toomany2', 'id bigint, v varchar', 'CSV', 'a.csv', text);
    expect(failure.message).to.equal(
      `${lake.uri('data/toomany2')}a.csv:1501:8: malformed CSV record: more than 2 fields: the table has 2 columns`,
    );
  });

  it('a CSV row with fewer fields than the table has columns reads NULLs in the rest, as Trino reads it (DuckDB with null_padding agrees)', async () => {
    const path = lake.file('data/short/a.csv', '1,a,2024-01-01\n2,b\n3\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.short (id bigint, name varchar, d date) WITH (format = 'CSV', external_location = '${lake.uri('data/short')}')`,
    );
    const sql = (from: string) => `SELECT id, name, CAST(d AS varchar) FROM ${from} ORDER BY id`;
    const duck = await duckDbRows(
      sql(
        `read_csv('${path}', auto_detect = false, header = false, delim = ',', quote = '"', null_padding = true, columns = {'id': 'BIGINT', 'name': 'VARCHAR', 'd': 'DATE'})`,
      ),
    );
    expect(await lake.rows(sql('lake.default.short'))).to.deep.equal(duck);
    expect(duck[2]).to.deep.equal(['3', null, null]);
  });

  it('a JSON line that does not parse, and one that is not an object, fail naming their line', async () => {
    const bad = await failureReading('badjson', 'id bigint', 'JSON', 'a.json', '{"id": 1}\n{"id": 2,\n');
    expect(bad.name).to.equal('HIVE_BAD_DATA');
    expect(bad.message).to.match(new RegExp(`^${lake.uri('data/badjson')}a\\.json:2:1: malformed JSON: `));
    const array = await failureReading('arrayjson', 'id bigint', 'JSON', 'a.json', '[1, 2]\n');
    expect(array.message).to.equal(`${lake.uri('data/arrayjson')}a.json:1:1: a line of a JSON file must hold one JSON object`);
    const type = await failureReading('typejson', 'id bigint', 'JSON', 'a.json', '{"id": {"a": 1}}\n');
    expect(type.message).to.equal(`${lake.uri('data/typejson')}a.json:1:1: column 'id': {"a":1} is not a bigint`);
  });

  it('a truncated gzip file, and one of a compression it cannot read, fail naming them', async () => {
    const whole = gzipSync(Buffer.from('1,a\n'.repeat(1000)));
    const failure = await failureReading('gz', 'id bigint, v varchar', 'CSV', 'a.csv.gz', whole.subarray(0, whole.length - 20));
    expect(failure.name).to.equal('HIVE_BAD_DATA');
    expect(failure.message).to.contain(`${lake.uri('data/gz')}a.csv.gz: not a readable gzip file`);
    const zstd = await failureReading('zst', 'id bigint', 'CSV', 'a.csv.zst', new Uint8Array([0x28, 0xb5, 0x2f, 0xfd]));
    expect(zstd).to.deep.equal({
      name: 'NOT_SUPPORTED',
      message: `${lake.uri('data/zst')}a.csv.zst: zst compression is not supported (text files may be plain or .gz)`,
    });
  });

  it('a partition folder that does not match the partition columns fails naming the folder', async () => {
    lake.file('data/parts/dt=2024-01-01/a.csv', '1\n');
    lake.file('data/parts/day=2024-01-02/a.csv', '2\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.parts (id bigint, dt date) WITH (format = 'CSV', partitioned_by = ARRAY['dt'], external_location = '${lake.uri('data/parts')}')`,
    );
    const failure = await lake.failure('SELECT * FROM lake.default.parts');
    expect(failure.name).to.equal('HIVE_PARTITION_SCHEMA_MISMATCH');
    expect(failure.message).to.equal(
      `Partition folder ${lake.uri('data/parts')}day=2024-01-02/ does not match the table's partition column 'dt' (expected dt=<value>)`,
    );
    lake.file('data/values/dt=yesterday/a.csv', '1\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.vals (id bigint, dt date) WITH (format = 'CSV', partitioned_by = ARRAY['dt'], external_location = '${lake.uri('data/values')}')`,
    );
    const value = await lake.failure('SELECT * FROM lake.default.vals');
    expect(value.name).to.equal('HIVE_INVALID_PARTITION_VALUE');
    expect(value.message).to.equal(
      `Partition folder ${lake.uri('data/values')}dt=yesterday/: invalid value 'yesterday' for partition column 'dt': Value cannot be cast to date: yesterday`,
    );
  });

  it('a file deleted between planning and reading fails naming it', async () => {
    const path = lake.file('data/gone/a.csv', '1\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.gone (id bigint) WITH (format = 'CSV', external_location = '${lake.uri('data/gone')}')`,
    );
    const table = (await lake.connector.getTable(lake.harness.session, 'default', 'gone'))!;
    const splits = await allSplits(lake.connector.getSplits(lake.harness.session, table));
    expect(splits).to.have.length(1);
    rmSync(path);
    let message = '';
    try {
      for await (const page of lake.connector.createPageSource(lake.harness.session, splits[0], ['id'])) void page;
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).to.equal(`file://${path}: does not exist`);
  });

  it('locations and catalog properties that cannot work: named at the query, or at startup', async () => {
    const missing = await lake.failure(
      `CREATE TABLE lake.default.x (id bigint) WITH (format = 'CSV', external_location = '${lake.uri('nothing/here')}')`,
    );
    expect(missing.message).to.contain(
      `External location ${lake.uri('nothing/here')} of table 'lake.default.x' does not exist or is empty`,
    );
    const s3 = await lake.failure("CREATE TABLE lake.default.y (id bigint) WITH (format = 'CSV', external_location = 's3://bucket/y/')");
    expect(s3.message).to.contain("Location s3://bucket/y/: s3:// locations need fs.native-s3.enabled=true in catalog 'lake'");
    const notUri = await lake.failure(
      "CREATE TABLE lake.default.z (id bigint) WITH (format = 'CSV', external_location = 'relative/folder/z')",
    );
    expect(notUri.name).to.equal('INVALID_TABLE_PROPERTY');
    // A plain absolute path is no location either: it needs file://.
    const plainPath = await lake.failure(
      `CREATE TABLE lake.default.z (id bigint) WITH (format = 'CSV', external_location = '${lake.path('z')}')`,
    );
    expect(plainPath.name).to.equal('INVALID_TABLE_PROPERTY');
    expect(() =>
      lakeConfig('lake', { 'hive.metastore.catalog.dir': 'file:///x', 'hive.metastore.uri': 'thrift://x', 's3.regoin': 'eu' }),
    ).to.throw(ConfigError, "Catalog 'lake': unknown hive connector properties: hive.metastore.uri, s3.regoin");
    expect(() => lakeConfig('lake', {})).to.throw(ConfigError, 'hive.metastore.catalog.dir is required');
    expect(() => lakeConfig('lake', { 'hive.metastore': 'thrift', 'hive.metastore.catalog.dir': 'file:///x' })).to.throw(
      ConfigError,
      "hive.metastore must be 'file'",
    );
  });
});
