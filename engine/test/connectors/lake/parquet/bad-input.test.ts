// Nested columns, unmappable types, corrupt and truncated files, and byte ranges: each read either
// returns DuckDB's rows exactly once or fails with a clear error naming the column or the file.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { readFileSync, writeFileSync } from 'node:fs';
import { ParquetFormat, describeParquetColumns } from '../../../../src/connectors/hive/formats/parquet/parquet-format.js';
import { EngineError } from '../../../../src/errors/engine-error.js';
import type { ColumnMetadata } from '../../../../src/spi/connector.js';
import { BIGINT, INTEGER, VARCHAR, timestamp, typeName, varchar } from '../../../../src/types/types.js';
import { FORMAT_OPTIONS, TempDir, openDuck, readWithDuck, readWithFormat } from './parquet-test-support.js';
import { TestFileSystem } from './test-file-system.js';

async function failure(p: Promise<unknown>): Promise<EngineError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(EngineError);
    return e as EngineError;
  }
  expect.fail('the read succeeded');
}

describe('Parquet: nested columns, bad files and byte ranges', function () {
  this.timeout(60_000);
  let duck: DuckDBConnection;
  let dir: TempDir;
  let nested: { path: string; location: string };

  before(async () => {
    duck = await openDuck();
    dir = new TempDir();
    nested = dir.file('nested.parquet');
    await duck.run(
      `COPY (SELECT i AS id, [i, i + 1] AS tags, {'a': i, 'b': 'x' || i} AS info, MAP {'k': i} AS attrs, [{'a': i}] AS events, 'n' || i AS name FROM range(100) r(i)) TO '${nested.path}' (FORMAT PARQUET)`,
    );
  });
  after(() => dir.dispose());

  it('inferColumns and describeParquetColumns list the nested columns with their Trino types (a list of primitives is an array, a map of primitives a map, a struct of primitives a row)', async () => {
    const fs = new TestFileSystem();
    const file = (await fs.stat(nested.location))!;
    const inferred = await new ParquetFormat().inferColumns(fs, file, FORMAT_OPTIONS);
    expect(inferred.map((c) => `${c.name} ${c.type.kind} ${typeName(c.type)}`)).to.deep.equal([
      'id bigint bigint',
      'tags array array(bigint)',
      'info row row("a" bigint, "b" varchar)',
      'attrs map map(varchar, bigint)',
      'events unsupported array(row(a bigint))',
      'name varchar varchar',
    ]);
    const described = await describeParquetColumns(fs, file);
    expect(described.map((c) => `${c.name} ${c.typeName}`)).to.deep.equal([
      'id bigint',
      'tags array(bigint)',
      'info row("a" bigint, "b" varchar)',
      'attrs map(varchar, bigint)',
      'events array(row(a bigint))',
      'name varchar',
    ]);
  });

  it('the flat columns of a file with nested ones read equal to DuckDB', async () => {
    const columns: ColumnMetadata[] = [
      { name: 'name', type: VARCHAR },
      { name: 'id', type: BIGINT },
    ];
    expect((await readWithFormat(nested.location, columns)).rows).to.deep.equal(await readWithDuck(duck, nested.path, columns));
  });

  it('a list column declared with another type fails naming column, file and both types', async () => {
    const e = await failure(readWithFormat(nested.location, [{ name: 'tags', type: VARCHAR }]));
    expect(e.errorName).to.equal('TYPE_MISMATCH');
    expect(e.message).to.equal(`Column 'tags' is declared as varchar, but the Parquet file ${nested.location} holds it as array(bigint)`);
  });

  it('a map column declared with another type fails naming column, file and both types', async () => {
    const e = await failure(readWithFormat(nested.location, [{ name: 'attrs', type: VARCHAR }]));
    expect(e.errorName).to.equal('TYPE_MISMATCH');
    expect(e.message).to.equal(
      `Column 'attrs' is declared as varchar, but the Parquet file ${nested.location} holds it as map(varchar, bigint)`,
    );
  });

  it('a struct column declared with another type fails naming column, file and both types', async () => {
    const e = await failure(readWithFormat(nested.location, [{ name: 'info', type: VARCHAR }]));
    expect([e.errorName, e.message]).to.deep.equal([
      'TYPE_MISMATCH',
      `Column 'info' is declared as varchar, but the Parquet file ${nested.location} holds it as row("a" bigint, "b" varchar)`,
    ]);
  });

  // A list of structs is the nested shape the reader cannot read yet.
  for (const [name, type] of [['events', 'array(row(a bigint))']]) {
    it(`reading nested column ${name} fails with NOT_SUPPORTED naming it and its type`, async () => {
      const e = await failure(
        readWithFormat(nested.location, [
          { name: 'id', type: BIGINT },
          { name, type: VARCHAR },
        ]),
      );
      expect(e.errorName).to.equal('NOT_SUPPORTED');
      expect(e.message).to.include(`Column '${name}' is ${type}`).and.include(nested.location);
    });
  }

  it('a column the file lacks reads as NULL; names match case-insensitively', async () => {
    const ours = await readWithFormat(nested.location, [
      { name: 'ID', type: BIGINT },
      { name: 'added_later', type: INTEGER },
    ]);
    expect(ours.rows.slice(0, 2)).to.deep.equal([
      ['0', 'NULL'],
      ['1', 'NULL'],
    ]);
  });

  it('a declared type the file cannot be read as fails naming column, file and both types; safe widenings read', async () => {
    const e = await failure(readWithFormat(nested.location, [{ name: 'name', type: INTEGER }]));
    expect(e.errorName).to.equal('TYPE_MISMATCH');
    expect(e.message).to.equal(`Column 'name' is declared as integer, but the Parquet file ${nested.location} holds it as varchar`);
    const widened = await readWithFormat(nested.location, [{ name: 'name', type: varchar(2) }]);
    expect(widened.rows.slice(9, 11)).to.deep.equal([['n9'], ['n1']]);
  });

  it('nanosecond timestamps round half up to microseconds; a declared timestamp(3) rounds to milliseconds', async () => {
    const file = dir.file('nanos.parquet');
    await duck.run(
      `COPY (SELECT * FROM (VALUES (1, make_timestamp_ns(1499)), (2, make_timestamp_ns(1500)), (3, make_timestamp_ns(-1500)), (4, make_timestamp_ns(-1501)), (5, make_timestamp_ns(1700000000123456789))) v(k, ts)) TO '${file.path}' (FORMAT PARQUET)`,
    );
    const micros = await readWithFormat(file.location, [{ name: 'ts', type: timestamp(6) }]);
    expect(micros.rows.map((r) => r[0])).to.deep.equal(['1', '2', '-1', '-2', '1700000000123457']);
    const millis = await readWithFormat(file.location, [{ name: 'ts', type: timestamp(3) }]);
    expect(millis.rows.map((r) => r[0])).to.deep.equal(['0', '0', '0', '0', '1700000000123000']);
  });

  describe('corrupt files fail naming the file', () => {
    let good: Buffer;
    before(async () => {
      const file = dir.file('good.parquet');
      await duck.run(`COPY (SELECT i AS id, 'v' || i AS v FROM range(5000) r(i)) TO '${file.path}' (FORMAT PARQUET)`);
      good = readFileSync(file.path);
    });

    const cases: [string, (b: Buffer) => Buffer, RegExp][] = [
      ['empty', () => Buffer.alloc(0), /0 bytes is too small for a Parquet file/],
      ['not Parquet (a CSV file)', () => Buffer.from('id,v\n1,a\n2,b\n3,c\n'), /does not end with the Parquet magic bytes PAR1/],
      ['truncated (its second half cut off)', (b) => b.subarray(0, b.length >> 1), /does not end with the Parquet magic bytes PAR1/],
      [
        'a footer length past the start of the file',
        (b) => {
          const c = Buffer.from(b);
          c.writeUInt32LE(0x7fffffff, c.length - 8);
          return c;
        },
        /footer length 2147483647 exceeds the file/,
      ],
      [
        'a scrambled footer',
        (b) => {
          const c = Buffer.from(b);
          const length = c.readUInt32LE(c.length - 8);
          for (let i = c.length - 8 - length; i < c.length - 8; i += 3) c[i] = 0xff;
          return c;
        },
        /footer cannot be decoded|Corrupt Parquet file/,
      ],
      [
        'scrambled column data',
        (b) => {
          const c = Buffer.from(b);
          for (let i = 4; i < c.length >> 1; i++) c[i] = (c[i] * 31 + 7) & 0xff;
          return c;
        },
        /Corrupt Parquet file .*(row group|column)/,
      ],
    ];
    for (const [name, damage, message] of cases) {
      it(name, async () => {
        const file = dir.file(`corrupt-${name.replace(/\W+/g, '-')}.parquet`);
        writeFileSync(file.path, damage(good));
        const e = await failure(
          readWithFormat(file.location, [
            { name: 'id', type: BIGINT },
            { name: 'v', type: VARCHAR },
          ]),
        );
        expect(e.message).to.match(message);
        expect(e.message).to.include(file.location);
      });
    }
  });

  it('byte ranges: each row group is read by exactly one range, whatever the cut', async () => {
    const file = dir.file('ranges.parquet');
    await duck.run(
      `COPY (SELECT i AS id, md5(i::VARCHAR) AS h FROM range(200000) r(i)) TO '${file.path}' (FORMAT PARQUET, ROW_GROUP_SIZE 20480)`,
    );
    const columns: ColumnMetadata[] = [{ name: 'id', type: BIGINT }];
    for (const targetBytes of [100_000, 333_333, 1_000_000, 1 << 30]) {
      const ours = await readWithFormat(file.location, columns, { targetBytes });
      expect(ours.rows.length, `${targetBytes}`).to.equal(200_000);
      expect(
        ours.rows.map((r) => Number(r[0])).every((id, i) => id === i),
        `${targetBytes}`,
      ).to.equal(true);
      expect(ours.stats.rowGroupsRead).to.equal(10);
    }
    const format = new ParquetFormat();
    const entry = (await new TestFileSystem().stat(file.location))!;
    expect(format.ranges(entry, FORMAT_OPTIONS, 1 << 30)).to.deep.equal([{ start: 0, length: entry.size }]);
  });

  it('byte ranges of a large file are at most 16 MiB (a few row groups), whatever the larger target', () => {
    const MIB = 1024 * 1024;
    const format = new ParquetFormat();
    const ranges = format.ranges({ location: 'file:///t/a.parquet', size: 72 * MIB }, FORMAT_OPTIONS, 32 * MIB);
    expect(ranges).to.deep.equal(
      [0, 16, 32, 48].map((m) => ({ start: m * MIB, length: 16 * MIB })).concat([{ start: 64 * MIB, length: 8 * MIB }]),
    );
    expect(format.ranges({ location: 'file:///t/b.parquet', size: 24 * MIB }, FORMAT_OPTIONS, 32 * MIB)).to.deep.equal([
      { start: 0, length: 24 * MIB },
    ]);
    expect(format.ranges({ location: 'file:///t/c.parquet', size: 12 * MIB }, FORMAT_OPTIONS, 2 * MIB)).to.have.length(6);
  });
});
