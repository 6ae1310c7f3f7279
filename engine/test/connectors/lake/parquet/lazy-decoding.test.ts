// With a constraint, the reader decodes the constrained columns first, drops the rows that cannot
// satisfy it, and decodes the other columns only for the rows left. Every column of every type is
// read alongside, so a row taken from the wrong place in any column shows: our rows, unfiltered,
// must be exactly DuckDB's WHERE over the same file (DuckDB's files: several row groups, dictionary
// pages; ours: one row group of several pages with a page index), for constraints that keep no
// row, every row, scattered rows, and rows around NULLs.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ParquetFileWriter } from '../../../../src/connectors/hive/formats/parquet/parquet-writer.js';
import type { TableConstraint } from '../../../../src/spi/connector.js';
import type { Page } from '../../../../src/columnar/page.js';
import { ALL_TYPES_COLUMNS, createAllTypesTable } from './duckdb-files.js';
import { TempDir, openDuck, readWithDuck, readWithFormat } from './parquet-test-support.js';
import { TestFileSystem } from './test-file-system.js';

const ROWS = 60_000;

/** A constraint, DuckDB's WHERE of the same rows, and how many rows it keeps. */
interface Case {
  name: string;
  constraint: TableConstraint;
  where: string;
  rows: number | 'some';
}

const CASES: Case[] = [
  { name: 'every row', constraint: [{ column: 'id', low: { value: 0n, inclusive: true } }], where: 'id >= 0', rows: ROWS },
  // Days are 37 apart (dt = i * 37 - 100000): a day between two of them is inside every min/max, held by no row.
  { name: 'no row (inside the statistics)', constraint: [{ column: 'dt', values: [1] }], where: "dt = DATE '1970-01-02'", rows: 0 },
  {
    name: 'scattered ids across row groups and pages',
    constraint: [{ column: 'id', values: [0n, 5n, 10_239n, 10_240n, 20_000n, 33_333n, 59_999n] }],
    where: 'id IN (0, 5, 10239, 10240, 20000, 33333, 59999)',
    rows: 7,
  },
  // DuckDB's second row group holds ids 10240..20479: its statistics cover the upper bound, not the exclusive lower one.
  {
    name: "a range whose ends are a row group's min and max",
    constraint: [{ column: 'id', low: { value: 10_240n, inclusive: false }, high: { value: 20_479n, inclusive: true } }],
    where: 'id > 10240 AND id <= 20479',
    rows: 10_239,
  },
  {
    name: 'an integer range over a column with NULLs',
    constraint: [{ column: 'i32', low: { value: -1_000_000_000, inclusive: false }, high: { value: -990_000_000, inclusive: true } }],
    where: 'i32 > -1000000000 AND i32 <= -990000000',
    rows: 'some',
  },
  { name: 'tinyint with NULLs', constraint: [{ column: 'ti', values: [-128, 0, 127] }], where: 'ti IN (-128, 0, 127)', rows: 'some' },
  // A few hundred values and no NULLs: dictionary pages, judged through their dictionaries.
  {
    name: 'dictionary integers without NULLs',
    constraint: [{ column: 'uti', values: [0, 7, 200] }],
    where: 'uti IN (0, 7, 200)',
    rows: 'some',
  },
  {
    name: 'a dictionary range without NULLs',
    constraint: [{ column: 'uti', low: { value: 250, inclusive: false } }],
    where: 'uti > 250',
    rows: 'some',
  },
  { name: 'smallint range', constraint: [{ column: 'si', low: { value: 32_000, inclusive: true } }], where: 'si >= 32000', rows: 'some' },
  {
    name: 'bigint beyond 2^53',
    constraint: [{ column: 'bi', low: { value: 4_400_000_000_000_000_000n, inclusive: false } }],
    where: 'bi > 4400000000000000000',
    rows: 'some',
  },
  {
    name: 'unsigned decimal(20,0) (bigint storage)',
    constraint: [{ column: 'ubi', high: { value: 1_844_674_407_370_955n * 3n, inclusive: true } }],
    where: 'ubi <= 5534023222112865',
    rows: 'some',
  },
  {
    name: 'decimal(4,2)',
    constraint: [{ column: 'dec4', low: { value: 9_000n, inclusive: true }, high: { value: 9_100n, inclusive: false } }],
    where: 'dec4 >= 90.00 AND dec4 < 91.00',
    rows: 'some',
  },
  {
    name: 'decimal(9,3) with NULLs',
    constraint: [{ column: 'dec9', high: { value: -990_000_000n, inclusive: true } }],
    where: 'dec9 <= -990000.000',
    rows: 'some',
  },
  {
    name: 'decimal(18,4) beyond 2^53',
    constraint: [{ column: 'dec18', low: { value: 99_000_000_000_000_0000n, inclusive: true } }],
    where: 'dec18 >= 99000000000000.0000',
    rows: 'some',
  },
  {
    name: 'decimal(38,10) with NULLs',
    constraint: [{ column: 'dec38', values: [-7_123_456_789_012_345_678_0123456789n, 8_123_456_789_012_345_678_0123456789n] }],
    where: 'dec38 IN (-7123456789012345678.0123456789, 8123456789012345678.0123456789)',
    rows: 'some',
  },
  {
    name: 'a string range in code point order (surrogate pairs, NULLs)',
    constraint: [{ column: 'v', low: { value: 'ünïcødé 😀 5', inclusive: false }, high: { value: 'ünïcødé 😀 6', inclusive: true } }],
    where: "v > 'ünïcødé 😀 5' AND v <= 'ünïcødé 😀 6'",
    rows: 'some',
  },
  {
    name: 'dictionary strings with NULLs',
    constraint: [{ column: 'vlow', values: ['beta', ''] }],
    where: "vlow IN ('beta', '')",
    rows: 'some',
  },
  {
    name: 'varbinary',
    constraint: [{ column: 'bl', values: [Uint8Array.of(0xff, 0x00, 0x80)] }],
    where: "bl = '\\xFF\\x00\\x80'::BLOB",
    rows: 'some',
  },
  { name: 'boolean with NULLs', constraint: [{ column: 'b', values: [true] }], where: 'b', rows: 'some' },
  {
    name: 'timestamp(3) with NULLs',
    constraint: [{ column: 'tsms', high: { value: -5_990_000_000_000_000, inclusive: false } }],
    where: 'epoch_us(tsms) < -5990000000000000',
    rows: 'some',
  },
  {
    name: 'time',
    constraint: [{ column: 'tm', low: { value: 86_000_000_000, inclusive: true } }],
    where: "tm >= TIME '23:53:20'",
    rows: 'some',
  },
  {
    name: 'two constraints together (an id range and a dictionary string)',
    constraint: [
      { column: 'id', low: { value: 15_000n, inclusive: true }, high: { value: 45_000n, inclusive: false } },
      { column: 'vlow', values: ['gamma'] },
    ],
    where: "id >= 15000 AND id < 45000 AND vlow = 'gamma'",
    rows: 'some',
  },
  // Each keeps at most half of the rows before it: the next are decoded and tested only for the rows left.
  {
    name: 'three constraints, the first selective (integers, then strings with NULLs, then integers with NULLs among the rows left)',
    constraint: [
      { column: 'uti', low: { value: 230, inclusive: false } },
      { column: 'vlow', values: ['beta', ''] },
      { column: 'i32', high: { value: -1_500_000_000, inclusive: false } },
    ],
    where: "uti > 230 AND vlow IN ('beta', '') AND i32 < -1500000000",
    rows: 'some',
  },
  // A dictionary column without NULLs tested only on the rows taken from its pages (through its dictionary).
  {
    name: 'a selective integer range, then a dictionary range without NULLs among the rows left',
    constraint: [
      { column: 'i32', high: { value: -1_500_000_000, inclusive: false } },
      { column: 'uti', high: { value: 100, inclusive: true } },
    ],
    where: 'i32 < -1500000000 AND uti <= 100',
    rows: 'some',
  },
  // A string constraint listed first is tested after the integer ones (parquet-reader.ts, testingOrder):
  // its strings decode only for the rows those keep.
  {
    name: 'a dictionary string constraint listed before a selective integer range (tested after it)',
    constraint: [
      { column: 'vlow', values: ['beta', ''] },
      { column: 'i32', high: { value: -1_500_000_000, inclusive: false } },
    ],
    where: "vlow IN ('beta', '') AND i32 < -1500000000",
    rows: 'some',
  },
  {
    name: 'a string range and a varbinary value listed before an id range that keeps a third',
    constraint: [
      { column: 'v', low: { value: 'str-3', inclusive: false } },
      { column: 'bl', values: [Uint8Array.of(0xff, 0x00, 0x80)] },
      { column: 'id', low: { value: 20_000n, inclusive: true }, high: { value: 40_000n, inclusive: false } },
    ],
    where: "v > 'str-3' AND bl = '\\xFF\\x00\\x80'::BLOB AND id >= 20000 AND id < 40000",
    rows: 'some',
  },
  // The first keeps most rows (tested again after the others), the second few.
  {
    name: 'two constraints, the first keeping most rows',
    constraint: [
      { column: 'uti', low: { value: 10, inclusive: false } },
      { column: 'si', low: { value: 32_000, inclusive: true } },
    ],
    where: 'uti > 10 AND si >= 32000',
    rows: 'some',
  },
];

describe('Parquet reads decode the other columns only for the rows a constraint keeps', function () {
  this.timeout(300_000);
  let duck: DuckDBConnection;
  let dir: TempDir;
  const files: { name: string; path: string; location: string }[] = [];

  before(async () => {
    duck = await openDuck();
    dir = new TempDir();
    await createAllTypesTable(duck, 't', ROWS);
    const duckFile = dir.file('duck.parquet');
    await duck.run(`COPY t TO '${duckFile.path}' (FORMAT PARQUET, ROW_GROUP_SIZE 10240)`);
    const pages: Page[] = (await readWithFormat(duckFile.location, ALL_TYPES_COLUMNS)).pages;
    const ourFile = dir.file('ours.parquet');
    const fs = new TestFileSystem();
    const writer = new ParquetFileWriter(ALL_TYPES_COLUMNS, await fs.create(ourFile.location), { rows: ROWS, bytes: 1 << 30 });
    for (const page of pages) await writer.append(page);
    await writer.finish();
    files.push({ name: "DuckDB's file", ...duckFile }, { name: 'our file', ...ourFile });
  });
  after(() => dir.dispose());

  for (const c of CASES) {
    it(c.name, async () => {
      for (const file of files) {
        const ours = await readWithFormat(file.location, ALL_TYPES_COLUMNS, { constraint: c.constraint });
        const theirs = await readWithDuck(duck, file.path, ALL_TYPES_COLUMNS, `WHERE ${c.where} ORDER BY id`);
        if (c.rows === 'some') expect(theirs.length, file.name).to.be.within(1, ROWS - 1);
        else expect(theirs.length, file.name).to.equal(c.rows);
        expect(ours.rows, file.name).to.deep.equal(theirs);
      }
    });
  }

  it('a double range keeps NaN (the engine decides it) and drops the other rows that cannot match', async () => {
    const constraint: TableConstraint = [
      { column: 'd', low: { value: -6.9e12, inclusive: true }, high: { value: -6.8e12, inclusive: false } },
    ];
    for (const file of files) {
      const ours = await readWithFormat(file.location, ALL_TYPES_COLUMNS, { constraint });
      const theirs = await readWithDuck(duck, file.path, ALL_TYPES_COLUMNS, `WHERE (d >= -6.9e12 AND d < -6.8e12) OR isnan(d) ORDER BY id`);
      expect(theirs.length, file.name).to.be.within(2, ROWS - 1);
      expect(ours.rows, file.name).to.deep.equal(theirs);
    }
  });

  it('strings compare in code point order where UTF-16 units disagree (U+E000..U+FFFF against characters beyond U+FFFF)', async () => {
    const file = dir.file('code-points.parquet');
    const characters = [0x61, 0xe000, 0xfffd, 0x1f600, 0x10ffff];
    const rows = characters.map((c, i) => `(${i}, chr(${c}) || 'x')`).join(', ');
    await duck.run(`COPY (SELECT * FROM (VALUES ${rows}) t(id, v)) TO '${file.path}' (FORMAT PARQUET)`);
    const columns = ALL_TYPES_COLUMNS.filter((c) => c.name === 'id' || c.name === 'v');
    for (const [low, high] of [
      [0xfffd, undefined],
      [undefined, 0xe000],
      [0xe000, 0x1f600],
    ] as const) {
      const constraint: TableConstraint = [
        {
          column: 'v',
          ...(low === undefined ? {} : { low: { value: String.fromCodePoint(low), inclusive: false } }),
          ...(high === undefined ? {} : { high: { value: String.fromCodePoint(high), inclusive: true } }),
        },
      ];
      const where = [low === undefined ? undefined : `v > chr(${low})`, high === undefined ? undefined : `v <= chr(${high})`]
        .filter((w) => w !== undefined)
        .join(' AND ');
      const theirs = await readWithDuck(duck, file.path, columns, `WHERE ${where} ORDER BY id`);
      expect(theirs.length, where).to.be.within(1, characters.length - 1);
      expect((await readWithFormat(file.location, columns, { constraint })).rows, where).to.deep.equal(theirs);
    }
  });
});
