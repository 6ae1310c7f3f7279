// Files our Parquet writer makes are read by DuckDB's read_parquet with every value equal to the
// values written (DuckDB's own table is the oracle: its rows go through our reader into pages, our
// writer writes them, DuckDB reads the result); statistics and the page index let readers prune.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ParquetFormat } from '../../../../src/connectors/hive/formats/parquet/parquet-format.js';
import { ParquetFileWriter } from '../../../../src/connectors/hive/formats/parquet/parquet-writer.js';
import type { ColumnMetadata } from '../../../../src/spi/connector.js';
import type { Page } from '../../../../src/columnar/page.js';
import { INTERVAL_DAY_SECOND } from '../../../../src/types/types.js';
import { ALL_TYPES_COLUMNS, createAllTypesTable } from './duckdb-files.js';
import { FORMAT_OPTIONS, TempDir, openDuck, readWithDuck, readWithFormat } from './parquet-test-support.js';
import { TestFileSystem } from './test-file-system.js';

const ROWS = 30_000;

describe('Parquet files we write read equal in DuckDB', function () {
  this.timeout(120_000);
  let duck: DuckDBConnection;
  let dir: TempDir;
  let pages: Page[];

  before(async () => {
    duck = await openDuck();
    dir = new TempDir();
    await createAllTypesTable(duck, 't', ROWS);
    const source = dir.file('source.parquet');
    await duck.run(`COPY t TO '${source.path}' (FORMAT PARQUET)`);
    pages = (await readWithFormat(source.location, ALL_TYPES_COLUMNS)).pages;
  });
  after(() => dir.dispose());

  async function write(
    name: string,
    columns: readonly ColumnMetadata[],
    input: readonly Page[],
    rowGroupRows?: number,
  ): Promise<{ path: string; location: string; rows: number }> {
    const fs = new TestFileSystem();
    const file = dir.file(name);
    const output = await fs.create(file.location);
    const writer =
      rowGroupRows === undefined
        ? new ParquetFormat().createWriter(columns, FORMAT_OPTIONS, output)
        : new ParquetFileWriter(columns, output, { rows: rowGroupRows, bytes: 1 << 30 });
    for (const page of input) await writer.append(page);
    const { rows } = await writer.finish();
    return { ...file, rows };
  }

  it('every type: DuckDB reads the values DuckDB wrote, in several row groups', async () => {
    const file = await write('all-types.parquet', ALL_TYPES_COLUMNS, pages, 8192);
    expect(file.rows).to.equal(ROWS);
    const original = await duck.runAndReadAll('SELECT count(*) FROM t');
    expect(Number(original.getRows()[0][0])).to.equal(ROWS);
    const expected = await readWithDuck(duck, dir.file('source.parquet').path, ALL_TYPES_COLUMNS);
    const actual = await readWithDuck(duck, file.path, ALL_TYPES_COLUMNS);
    expect(actual.length).to.equal(ROWS);
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < ALL_TYPES_COLUMNS.length; c++) {
        if (actual[r][c] !== expected[r][c])
          expect.fail(`row ${r} column ${ALL_TYPES_COLUMNS[c].name}: DuckDB read ${actual[r][c]} from our file, wrote ${expected[r][c]}`);
      }
    }
    const groups = await duck.runAndReadAll(`SELECT count(DISTINCT row_group_id) FROM parquet_metadata('${file.path}')`);
    expect(Number(groups.getRows()[0][0])).to.equal(Math.ceil(ROWS / 8192));
  });

  it('DuckDB sees our statistics: min, max and null count of each row group', async () => {
    const file = await write('stats.parquet', ALL_TYPES_COLUMNS, pages, 8192);
    const stats = await duck.runAndReadAll(
      `SELECT stats_min_value, stats_max_value, stats_null_count FROM parquet_metadata('${file.path}') WHERE path_in_schema = 'i32' ORDER BY row_group_id`,
    );
    const expected = await duck.runAndReadAll(
      `SELECT min(i32)::VARCHAR, max(i32)::VARCHAR, count(*) - count(i32) FROM (SELECT i32, row_number() OVER () - 1 AS n FROM t) GROUP BY n // 8192 ORDER BY n // 8192`,
    );
    expect(stats.getRows().map((r) => r.map(String))).to.deep.equal(expected.getRows().map((r) => r.map(String)));
  });

  it('columns of few distinct values get a dictionary, unique and floating-point ones plain pages', async () => {
    const file = await write('encodings.parquet', ALL_TYPES_COLUMNS, pages, 8192);
    const encodings = await duck.runAndReadAll(
      `SELECT path_in_schema, string_agg(DISTINCT encodings, ';') FROM parquet_metadata('${file.path}') WHERE path_in_schema IN ('id', 'vlow', 'uti', 'ti', 'dt', 'd', 'tsms') GROUP BY 1 ORDER BY 1`,
    );
    expect(encodings.getRows().map((r) => `${r[0]}: ${r[1]}`)).to.deep.equal([
      'd: PLAIN, RLE',
      'dt: PLAIN, RLE',
      'id: PLAIN, RLE',
      'ti: PLAIN, RLE, RLE_DICTIONARY',
      'tsms: PLAIN, RLE',
      'uti: PLAIN, RLE, RLE_DICTIONARY',
      'vlow: PLAIN, RLE, RLE_DICTIONARY',
    ]);
  });

  it('our reader reads our files back equal (round trip)', async () => {
    const file = await write('round-trip.parquet', ALL_TYPES_COLUMNS, pages, 4096);
    const expected = await readWithDuck(duck, dir.file('source.parquet').path, ALL_TYPES_COLUMNS);
    const ours = await readWithFormat(file.location, ALL_TYPES_COLUMNS);
    expect(ours.rows).to.deep.equal(expected);
  });

  it('an empty file (no rows) is valid Parquet that DuckDB reads as empty', async () => {
    const file = await write('empty.parquet', ALL_TYPES_COLUMNS, []);
    const count = await duck.runAndReadAll(`SELECT count(*) FROM read_parquet('${file.path}')`);
    expect(Number(count.getRows()[0][0])).to.equal(0);
    expect((await readWithFormat(file.location, ALL_TYPES_COLUMNS)).rows).to.deep.equal([]);
  });

  it('a column of a type Parquet cannot hold fails with NOT_SUPPORTED naming it', async () => {
    const fs = new TestFileSystem();
    const output = await fs.create(dir.file('interval.parquet').location);
    expect(() => new ParquetFormat().createWriter([{ name: 'span', type: INTERVAL_DAY_SECOND }], FORMAT_OPTIONS, output))
      .to.throw(/Column 'span' of type interval day to second cannot be written/)
      .with.property('errorName', 'NOT_SUPPORTED');
  });
});
