// Corrupt Parquet files under a lake table: each query over one fails with HIVE_BAD_DATA naming the
// file (Trino's error for a ParquetCorruptionException), a file deleted between planning and reading
// with HIVE_FILE_NOT_FOUND, and the engine goes on answering, over the good files too.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { readFileSync, rmSync } from 'node:fs';
import { duckRows } from '../../../scripts/tpch/duckdb-tpch.js';
import { allSplits } from '../../../src/spi/connector.js';
import { LakeFixture } from './lake-fixture.js';
import { openDuck } from './parquet/parquet-test-support.js';

/** Bytes from a fixed linear congruential sequence: "random", and the same in every run. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** The file's footer with its length and magic: the last 8 + length bytes. */
function footerOf(file: Buffer): Buffer {
  return file.subarray(file.length - 8 - file.readUInt32LE(file.length - 8));
}

describe('lake: corrupt Parquet files', function () {
  this.timeout(60_000);
  let lake: LakeFixture;
  let duck: DuckDBConnection;
  let good: Buffer;
  /** Where column v's chunk lies, and its first data page. */
  let chunk: { start: number; size: number; dataPage: number };

  before(async () => {
    lake = LakeFixture.create();
    duck = await openDuck();
    const path = lake.file('source/good.parquet', '');
    await duck.run(`COPY (SELECT i AS id, md5(i::VARCHAR) AS v FROM range(5000) r(i)) TO '${path}' (FORMAT PARQUET, COMPRESSION GZIP)`);
    good = readFileSync(path);
    const [[dictionary, data, size]] = (
      await duckRows(
        duck,
        `SELECT dictionary_page_offset, data_page_offset, total_compressed_size FROM parquet_metadata('${path}') WHERE path_in_schema = 'v'`,
      )
    ).map((r) => r.map(Number));
    chunk = { start: dictionary > 0 ? Math.min(dictionary, data) : data, size, dataPage: data };
  });
  after(() => lake.remove());

  const cases: [string, () => Buffer, RegExp][] = [
    ['random bytes', () => noise(5000, 17), /it does not end with the Parquet magic bytes PAR1/],
    [
      'bad magic bytes',
      () => Buffer.concat([good.subarray(0, good.length - 4), Buffer.from('PAR0')]),
      /it does not end with the Parquet magic bytes PAR1/,
    ],
    [
      'a file cut within its footer',
      () => good.subarray(0, good.length - 8 - (footerOf(good).length >> 1)),
      /it does not end with the Parquet magic bytes PAR1/,
    ],
    [
      'a footer with bytes cut out of it',
      () => {
        const footer = footerOf(good);
        return Buffer.concat([good.subarray(0, good.length - footer.length), footer.subarray(0, 40), footer.subarray(footer.length - 8)]);
      },
      /its footer length \d+ exceeds the file|footer cannot be decoded/,
    ],
    [
      'a truncated column chunk (the footer kept)',
      () => Buffer.concat([good.subarray(0, chunk.start + (chunk.size >> 1)), footerOf(good)]),
      /the file ends within bytes \d+\.\.\d+ its metadata points at/,
    ],
    [
      'a corrupt gzip-compressed page',
      () => {
        const damaged = Buffer.from(good);
        for (let i = chunk.dataPage + 100; i < chunk.dataPage + 120; i++) damaged[i] ^= 0x5a;
        return damaged;
      },
      /column 'v' of row group 0: corrupt compressed page: /,
    ],
  ];

  for (const [index, [name, damaged, reason]] of cases.entries()) {
    it(`${name}: HIVE_BAD_DATA naming the file; the engine goes on answering`, async () => {
      const table = `bad${index}`;
      lake.file(`data/${table}/part-0.parquet`, good);
      const path = lake.file(`data/${table}/part-1.parquet`, damaged());
      await lake.harness.query(
        `CREATE TABLE lake.default.${table} (id bigint, v varchar) WITH (external_location = '${lake.uri(`data/${table}`)}')`,
      );
      // Read in this thread (parallel_min_splits = 0), then on worker threads: the error crosses back whole.
      for (const minSplits of [0, 1]) {
        await lake.harness.query(`SET SESSION parallel_min_splits = ${minSplits}`);
        const failure = await lake.failure(`SELECT count(*), max(v) FROM lake.default.${table}`);
        expect(failure.name, failure.message).to.equal('HIVE_BAD_DATA');
        expect(failure.message).to.contain(`Corrupt Parquet file file://${path}: `);
        expect(failure.message).to.match(reason, failure.message);
        expect(await lake.rows('SELECT count(*) FROM tpch.tiny.region')).to.deep.equal([['5']]);
      }
      rmSync(path);
      expect(await lake.rows(`SELECT count(*), min(id), max(id) FROM lake.default.${table}`)).to.deep.equal([['5000', '0', '4999']]);
    });
  }

  it('a Parquet file deleted between planning and reading: HIVE_FILE_NOT_FOUND naming it', async () => {
    const path = lake.file('data/gone/part-0.parquet', good);
    await lake.harness.query(`CREATE TABLE lake.default.gone (id bigint, v varchar) WITH (external_location = '${lake.uri('data/gone')}')`);
    const table = (await lake.connector.getTable(lake.harness.session, 'default', 'gone'))!;
    const splits = await allSplits(lake.connector.getSplits(lake.harness.session, table));
    rmSync(path);
    let error: { errorName?: string; message?: string } = {};
    try {
      for await (const page of lake.connector.createPageSource(lake.harness.session, splits[0], ['id'])) void page;
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.errorName).to.equal('HIVE_FILE_NOT_FOUND');
    expect(error.message).to.equal(`file://${path}: does not exist`);
  });
});
