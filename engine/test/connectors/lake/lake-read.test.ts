// Reading CSV and JSON files through lake tables gives what DuckDB reads from the same files with
// the same declared columns: several files of a folder (hidden ones left out), quoting, NULLs,
// gzip, byte ranges, Hive partition folders (pruned by the query's predicate), and tables whose
// columns are read from their files.

import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { LocalFileSystem } from '../../../src/connectors/hive/file-system/local-file-system.js';
import { csvFormat } from '../../../src/connectors/hive/formats/csv/csv-format.js';
import type { FileFormat } from '../../../src/connectors/hive/formats/file-format.js';
import { jsonFormat } from '../../../src/connectors/hive/formats/json/json-format.js';
import { DEFAULT_FORMAT_OPTIONS } from '../../../src/connectors/hive/metastore/lake-table.js';
import type { ColumnMetadata } from '../../../src/spi/connector.js';
import { getScalar } from '../../../src/columnar/page.js';
import { BIGINT, DOUBLE, VARCHAR } from '../../../src/types/types.js';
import { duckDbRows, LakeFixture } from './lake-fixture.js';

const COLUMNS = 'id bigint, name varchar, price double, qty integer, d date, amount decimal(12,2), flag boolean';
const DUCK_COLUMNS =
  "{'id': 'BIGINT', 'name': 'VARCHAR', 'price': 'DOUBLE', 'qty': 'INTEGER', 'd': 'DATE', 'amount': 'DECIMAL(12,2)', 'flag': 'BOOLEAN'}";
const SELECT = 'SELECT id, name, price, qty, CAST(d AS varchar), CAST(amount AS varchar), flag FROM';

const FIRST = [
  'id,name,price,qty,d,amount,flag',
  '1,apple,1.5,10,2024-01-31,12.50,true',
  '2,"pear, green",2.25,-3,2024-02-29,0.05,false',
  '3,"say ""hi""",,7,,-1.00,',
  '4,"",1e3,0,1999-12-31,99999.99,true',
  '5,,0.1,2147483647,2024-12-01,,false',
].join('\r\n');
const SECOND = [
  'id,name,price,qty,d,amount,flag',
  '9223372036854775807,big,-0.0,1,1970-01-01,1234567890.12,true',
  '-9223372036854775808,small,3.5,-2147483648,2000-02-29,3.14,false',
  '',
].join('\n');

describe('lake: reading CSV and JSON files', function () {
  let lake: LakeFixture;

  beforeEach(() => {
    lake = LakeFixture.create();
  });
  afterEach(() => lake.remove());

  it('reads a folder of CSV files (header, quotes, NULLs, CRLF) as DuckDB does, leaving hidden files out', async () => {
    const a = lake.file('data/items/a.csv', FIRST);
    const b = lake.file('data/items/b.csv', SECOND);
    lake.file('data/items/.hidden.csv', 'id,name\n100,hidden\n');
    lake.file('data/items/_SUCCESS', '');
    lake.file('data/items/_tmp/c.csv', 'id,name\n101,underscored folder\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.items (${COLUMNS}) WITH (format = 'CSV', skip_header_line_count = 1, external_location = '${lake.uri('data/items')}')`,
    );
    const ours = await lake.rows(`${SELECT} lake.default.items ORDER BY id`);
    const duckFile = (path: string) =>
      `${SELECT} read_csv('${path}', header = true, columns = ${DUCK_COLUMNS}, allow_quoted_nulls = false)`;
    const duck = await duckDbRows(`${duckFile(a)} UNION ALL ${duckFile(b)} ORDER BY id`);
    expect(ours).to.have.length(7);
    expect(ours).to.deep.equal(duck);
    expect(ours.find((r) => r[0] === '3')?.[1]).to.equal('say "hi"');
    expect(ours.find((r) => r[0] === '4')?.[1]).to.equal('');
    expect(ours.find((r) => r[0] === '5')?.[1]).to.equal(null);
  });

  it('reads a gzip-compressed CSV file, and CSV with another separator, quote and escape character', async () => {
    const gz = lake.file('data/gz/a.csv.gz', gzipSync(Buffer.from(FIRST)));
    await lake.harness.query(
      `CREATE TABLE lake.default.gz (${COLUMNS}) WITH (format = 'CSV', skip_header_line_count = 1, external_location = '${lake.uri('data/gz')}')`,
    );
    expect(await lake.rows(`${SELECT} lake.default.gz ORDER BY id`)).to.deep.equal(
      await duckDbRows(`${SELECT} read_csv('${gz}', header = true, columns = ${DUCK_COLUMNS}, allow_quoted_nulls = false) ORDER BY id`),
    );
    const pipes = lake.file('data/pipes/a.txt', "1|'a|b'|'x\\'y'\n2|plain|'back\\\\slash'\n");
    await lake.harness.query(
      `CREATE TABLE lake.default.pipes (id bigint, name varchar, other varchar) WITH (format = 'CSV', csv_separator = '|', csv_quote = '''', csv_escape = '\\', external_location = '${lake.uri('data/pipes')}')`,
    );
    expect(await lake.rows('SELECT * FROM lake.default.pipes ORDER BY id')).to.deep.equal(
      await duckDbRows(
        `SELECT * FROM read_csv('${pipes}', header = false, delim = '|', quote = '''', escape = '\\', columns = {'id': 'BIGINT', 'name': 'VARCHAR', 'other': 'VARCHAR'}) ORDER BY id`,
      ),
    );
  });

  it('reads JSON lines as DuckDB does, keys matched regardless of case, exact 64-bit integers and decimals', async () => {
    const file = lake.file(
      'data/events/e.json',
      [
        '{"id": 1, "name": "apple", "price": 1.5, "qty": 10, "d": "2024-01-31", "amount": 12.5, "flag": true}',
        '{"ID": 2, "Name": "pear", "price": null, "qty": -3, "d": "2024-02-29", "amount": "0.05", "flag": false}',
        '{"id": 9223372036854775807, "name": "big", "price": 3, "amount": 1234567890.12}',
        '',
        '{"id": -9223372036854775808, "name": "small \\"quoted\\"", "price": -0.5, "qty": 0, "d": null, "amount": -1, "flag": null}',
      ].join('\n'),
    );
    await lake.harness.query(
      `CREATE TABLE lake.default.events (${COLUMNS}) WITH (format = 'JSON', external_location = '${lake.uri('data/events')}')`,
    );
    const ours = await lake.rows(`${SELECT} lake.default.events ORDER BY id`);
    const duck = await duckDbRows(`${SELECT} read_json('${file}', format = 'newline_delimited', columns = ${DUCK_COLUMNS}) ORDER BY id`);
    // DuckDB matches keys by exact name: the row with upper-case keys (qty -3) is compared on its own.
    expect(ours.filter((r) => r[3] !== -3)).to.deep.equal(duck.filter((r) => r[3] !== -3));
    expect(ours.find((r) => r[0] === '2')).to.deep.equal(['2', 'pear', null, -3, '2024-02-29', '0.05', false]);
    expect(ours.find((r) => r[0] === '9223372036854775807')?.[5]).to.equal('1234567890.12');
  });

  it('reads a file in byte ranges that together give every row exactly once', async () => {
    const fs = new LocalFileSystem();
    const columns: ColumnMetadata[] = [
      { name: 'id', type: BIGINT },
      { name: 'name', type: VARCHAR },
      { name: 'x', type: DOUBLE },
    ];
    const csvLines = Array.from({ length: 150 }, (_, i) => `${i},${i % 7 === 0 ? `"n,${i}"` : `n${'z'.repeat(i % 13)}`},${i / 4}`);
    const jsonLines = Array.from({ length: 150 }, (_, i) => JSON.stringify({ id: i, name: `n,${'z'.repeat(i % 13)}`, x: i / 4 }));
    for (const [format, text] of [
      [csvFormat, `${csvLines.join('\n')}\n`],
      [jsonFormat, jsonLines.join('\n')],
    ] as [FileFormat, string][]) {
      const path = lake.file(`ranges/data.${format.name}`, text);
      const file = { location: `file://${path}`, size: Buffer.byteLength(text) };
      const read = async (range: { start: number; length: number }) => {
        const rows: unknown[][] = [];
        const stats = { bytesRead: 0, bytesSkipped: 0, rowGroupsRead: 0, rowGroupsSkipped: 0 };
        for await (const page of format.read({ fs, file, range, columns, tableColumns: columns, options: DEFAULT_FORMAT_OPTIONS, stats })) {
          for (let r = 0; r < page.rowCount; r++) rows.push(page.columns.map((c) => getScalar(c, r)));
        }
        return rows;
      };
      const whole = await read({ start: 0, length: file.size });
      for (const target of [3, 61, 1000]) {
        const ranges = format.ranges(file, DEFAULT_FORMAT_OPTIONS, target);
        expect(ranges.length, `${format.name} ranges of ${target} bytes`).to.equal(Math.ceil(file.size / target));
        const parts = (await Promise.all(ranges.map(read))).flat();
        expect(parts, `${format.name} in ranges of ${target} bytes`).to.deep.equal(whole);
      }
      expect(whole.map((r) => r[0])).to.deep.equal(Array.from({ length: 150 }, (_, i) => BigInt(i)));
    }
  });

  it('reads Hive partition folders as partition columns, and prunes folders the predicate excludes', async () => {
    lake.file('data/sales/dt=2024-01-01/region=eu/a.csv', '1,10.5\n2,20\n');
    lake.file('data/sales/dt=2024-01-01/region=us/a.csv', '3,30\n');
    lake.file('data/sales/dt=2024-01-02/region=eu/a.csv', '4,40\n5,50\n');
    lake.file('data/sales/dt=2024-01-02/region=a%2Fb/a.csv', '6,60\n');
    lake.file('data/sales/dt=__HIVE_DEFAULT_PARTITION__/region=eu/a.csv', '7,70\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.sales (id bigint, amount double, dt date, region varchar) WITH (format = 'CSV', partitioned_by = ARRAY['dt', 'region'], external_location = '${lake.uri('data/sales')}')`,
    );
    const duck = await duckDbRows(
      `SELECT id, amount, CAST(dt AS varchar), region FROM read_csv('${lake.path('data/sales')}/dt=2024*/*/*.csv', header = false, columns = {'id': 'BIGINT', 'amount': 'DOUBLE'}, hive_partitioning = true, hive_types = {'dt': DATE, 'region': VARCHAR}) ORDER BY id`,
    );
    const ours = await lake.rows('SELECT id, amount, CAST(dt AS varchar), region FROM lake.default.sales ORDER BY id');
    expect(ours.filter((r) => r[2] !== null)).to.deep.equal(duck.map((r) => (r[0] === '6' ? [...r.slice(0, 3), 'a/b'] : r)));
    expect(ours.find((r) => r[0] === '7')).to.deep.equal(['7', 70, null, 'eu']);
    expect(await lake.rows("SELECT id FROM lake.default.sales WHERE dt = DATE '2024-01-02' AND region = 'eu' ORDER BY id")).to.deep.equal([
      ['4'],
      ['5'],
    ]);
    const plan = String((await lake.rows("EXPLAIN ANALYZE SELECT count(*) FROM lake.default.sales WHERE dt = DATE '2024-01-01'"))[0][0]);
    expect(plan).to.match(/filesRead = 2\b/);
    expect(plan).to.match(/bytesRead = 17\b/);
  });

  it('prunes string partitions in code point order, as the predicate compares them (not UTF-16 units)', async () => {
    // U+FF71 sorts below U+1F600 by code point (and UTF-8 bytes); its UTF-16 unit is above the emoji's lead surrogate.
    for (const [id, region] of [
      [1, 'z'],
      [2, '\uFF71'],
      [3, '\u{1F600}'],
    ] as const)
      lake.file(`data/regions/region=${region}/a.csv`, `${id}\n`);
    await lake.harness.query(
      `CREATE TABLE lake.default.regions (id bigint, region varchar) WITH (format = 'CSV', partitioned_by = ARRAY['region'], external_location = '${lake.uri('data/regions')}')`,
    );
    const duck = (where: string) =>
      duckDbRows(
        `SELECT id FROM read_csv('${lake.path('data/regions')}/*/*.csv', header = false, columns = {'id': 'BIGINT'}, hive_partitioning = true, hive_types = {'region': VARCHAR}) WHERE ${where} ORDER BY id`,
      );
    for (const where of ["region > '\uFF71'", "region < '\u{1F600}'", "region BETWEEN 'a' AND '\uFF71'"]) {
      const expected = await duck(where);
      expect(expected.length, where).to.be.greaterThan(0);
      expect(await lake.rows(`SELECT id FROM lake.default.regions WHERE ${where} ORDER BY id`), where).to.deep.equal(expected);
    }
  });

  it('creates a table without a column list from its files: a CSV header, sampled JSON records', async () => {
    lake.file('data/people/p.csv', 'Name,Age,City\nann,31,paris\nbob,,lyon\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.people WITH (format = 'CSV', skip_header_line_count = 1, external_location = '${lake.uri('data/people')}')`,
    );
    expect(await lake.rows('DESCRIBE lake.default.people')).to.deep.equal([
      ['name', 'varchar', '', ''],
      ['age', 'varchar', '', ''],
      ['city', 'varchar', '', ''],
    ]);
    expect(await lake.rows('SELECT name, age FROM lake.default.people ORDER BY name')).to.deep.equal([
      ['ann', '31'],
      ['bob', null],
    ]);
    lake.file('data/noheader/p.csv', 'ann,31\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.noheader WITH (format = 'CSV', external_location = '${lake.uri('data/noheader')}')`,
    );
    expect((await lake.rows('DESCRIBE lake.default.noheader')).map((r) => r[0])).to.deep.equal(['col0', 'col1']);
    lake.file('data/logs/l.json', '{"id": 1, "msg": "a", "ok": true}\n{"id": 2, "ms": 1.5, "ok": false}\n');
    await lake.harness.query(`CREATE TABLE lake.default.logs WITH (format = 'JSON', external_location = '${lake.uri('data/logs')}')`);
    expect((await lake.rows('DESCRIBE lake.default.logs')).map((r) => r.slice(0, 2))).to.deep.equal([
      ['id', 'bigint'],
      ['msg', 'varchar'],
      ['ok', 'boolean'],
      ['ms', 'double'],
    ]);
    expect(await lake.rows('SELECT id, ms FROM lake.default.logs ORDER BY id')).to.deep.equal([
      ['1', null],
      ['2', 1.5],
    ]);
    const memory = await lake.failure('CREATE TABLE memory.default.nothing');
    expect(memory.name).to.equal('NOT_SUPPORTED');
  });

  it('types the columns of a CSV table as declared: integers, decimals, dates, booleans', async () => {
    lake.file('data/types/t.csv', '1,2.5,2024-03-04,TRUE,x\n');
    await lake.harness.query(
      `CREATE TABLE lake.default.types (a integer, b decimal(5,1), c date, d boolean, e varchar(3)) WITH (format = 'CSV', external_location = '${lake.uri('data/types')}')`,
    );
    const result = await lake.harness.query('SELECT * FROM lake.default.types');
    expect(result.types).to.deep.equal(['integer', 'decimal(5,1)', 'date', 'boolean', 'varchar(3)']);
    expect(result.rows).to.deep.equal([[1, 25n, 19786, true, 'x']]);
  });
});
