// A split reads its file through one open handle: the bytes of every range are the file's (also
// across request boundaries and past the end), and the file is closed when the split ends, stops
// early, is cancelled or fails — counted as this process's open descriptors of the file.

import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync, statSync } from 'node:fs';
import { LocalFileSystem } from '../../../src/connectors/hive/file-system/local-file-system.js';
import { LakePageSource } from '../../../src/connectors/hive/read/lake-page-source.js';
import type { LakeSplitInfo } from '../../../src/connectors/hive/splits/lake-split.js';
import { BIGINT } from '../../../src/types/types.js';
import { duckDbRows, LakeFixture } from './lake-fixture.js';
import { FORMAT_OPTIONS } from './parquet/parquet-test-support.js';

/** This process's open descriptors of the file at `path`. */
function openDescriptors(path: string): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) n++;
    } catch {
      // Closed while listed.
    }
  }
  return n;
}

describe('lake file reader', () => {
  let lake: LakeFixture;
  before(() => {
    lake = LakeFixture.create();
  });
  after(() => lake.remove());

  it('reads ranges of one open file: within, across and past the end, concurrently; closes it once', async () => {
    const content = randomBytes(300_000);
    const path = lake.file('data/bytes.bin', content);
    const fs = new LocalFileSystem();
    const reader = fs.openReader(`file://${path}`);
    const ranges: [number, number][] = [
      [0, 10],
      [65_530, 20],
      [100_000, 150_000],
      [299_990, 10],
      [299_995, 100],
      [300_000, 5],
    ];
    const read = await Promise.all(ranges.map(([offset, length]) => reader.readRange(offset, length)));
    read.forEach((bytes, i) => {
      const [offset, length] = ranges[i];
      expect(Buffer.from(bytes).equals(content.subarray(offset, offset + length)), `range ${offset}+${length}`).to.equal(true);
    });
    expect(openDescriptors(path)).to.equal(1);
    await reader.close();
    await reader.close();
    expect(openDescriptors(path)).to.equal(0);
    // A read after closing (a footer read another split shares) opens the file for itself.
    expect(Buffer.from(await reader.readRange(5, 5)).equals(content.subarray(5, 10))).to.equal(true);
    expect(openDescriptors(path)).to.equal(0);
  });

  it('a missing file fails naming it, and closing leaves nothing open', async () => {
    const reader = new LocalFileSystem().openReader(`file://${lake.path('data/none.parquet')}`);
    let message = '';
    await reader.readRange(0, 4).catch((e: Error) => (message = e.message));
    expect(message).to.contain('none.parquet');
    await reader.close();
  });

  describe('a split of a Parquet file', () => {
    let path: string;
    let split: LakeSplitInfo;
    before(async () => {
      ({ path } = await lake.duckDbTable('groups', 'i::BIGINT AS i, i * 7 AS j', 'ROW_GROUP_SIZE 1000'));
      const size = statSync(path).size;
      split = {
        location: `file://${path}`,
        size,
        lastModified: statSync(path).mtimeMs,
        start: 0,
        length: size,
        format: 'PARQUET',
        options: FORMAT_OPTIONS,
        dataColumns: [
          { name: 'i', type: BIGINT },
          { name: 'j', type: BIGINT },
        ],
        partitionColumns: [],
        partitionValues: [],
      };
    });

    it('reads every row group as DuckDB does and closes the file at the end', async () => {
      const source = new LakePageSource(new LocalFileSystem(), split, ['i', 'j']);
      let sum = 0n;
      let rows = 0;
      for await (const page of source) {
        const j = page.columns[1].values as BigInt64Array;
        for (let r = 0; r < page.rowCount; r++) sum += j[r];
        rows += page.rowCount;
      }
      const [[duckRowsCount, duckSum]] = await duckDbRows(`SELECT count(*)::BIGINT, sum(i * 7)::BIGINT FROM range(3000) r(i)`);
      expect([String(rows), String(sum)]).to.deep.equal([duckRowsCount, duckSum]);
      expect(openDescriptors(path)).to.equal(0);
    });

    it('keeps the file open while it reads, and closes it when its reader stops early', async () => {
      const pages = new LakePageSource(new LocalFileSystem(), split, ['i'])[Symbol.asyncIterator]();
      expect((await pages.next()).done).to.equal(false);
      expect(openDescriptors(path)).to.equal(1);
      await pages.return?.();
      expect(openDescriptors(path)).to.equal(0);
    });

    it('closes the file when the query is cancelled', async () => {
      const cancel = new AbortController();
      const pages = new LakePageSource(new LocalFileSystem(), split, ['i'], cancel.signal)[Symbol.asyncIterator]();
      expect((await pages.next()).done).to.equal(false);
      cancel.abort(new Error('cancelled by the test'));
      let failure = '';
      try {
        while (!(await pages.next()).done) {
          // Pages read before the abort was seen.
        }
      } catch (e) {
        failure = (e as Error).message;
      }
      expect(failure).to.contain('cancelled by the test');
      expect(openDescriptors(path)).to.equal(0);
    });

    it('closes the file when reading fails', async () => {
      const truncated = { ...split, dataColumns: [{ name: 'i', type: BIGINT }], size: split.size + 10, length: split.size + 10 };
      const pages = new LakePageSource(new LocalFileSystem(), truncated, ['i'])[Symbol.asyncIterator]();
      let failed = false;
      await pages.next().catch(() => (failed = true));
      expect(failed).to.equal(true);
      expect(openDescriptors(path)).to.equal(0);
    });

    it('leaves no file open after queries through the engine: whole, stopped by LIMIT, failed', async () => {
      const table = 'lake.default.groups';
      expect(await lake.rows(`SELECT count(*), sum(j) FROM ${table}`)).to.deep.equal([['3000', String((2999 * 3000 * 7) / 2)]]);
      expect(await lake.rows(`SELECT i FROM ${table} LIMIT 1`)).to.have.length(1);
      await lake.failure(`SELECT 1 / (i - i) FROM ${table}`);
      expect(openDescriptors(path)).to.equal(0);
    });
  });
});
