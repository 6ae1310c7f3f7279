// Ranges of a Parquet file cut between its row groups (from a footer planning already read): over
// files of many, few, one and unevenly sized row groups, at several targets, the ranges cover the
// file and together read DuckDB's rows exactly once; a file of a few large row groups gives one
// range per row group, where byte ranges gave one range two of them.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { readParquetStatistics } from '../../../../src/connectors/hive/formats/parquet/file-statistics.js';
import { ParquetFormat } from '../../../../src/connectors/hive/formats/parquet/parquet-format.js';
import type { ColumnMetadata } from '../../../../src/spi/connector.js';
import { BIGINT, VARCHAR } from '../../../../src/types/types.js';
import { FORMAT_OPTIONS, TempDir, openDuck, readWithDuck, readWithFormat } from './parquet-test-support.js';
import { TestFileSystem } from './test-file-system.js';

const COLUMNS: ColumnMetadata[] = [
  { name: 'id', type: BIGINT },
  { name: 'label', type: VARCHAR },
];

/** DuckDB's COPY of `rows` rows into row groups of `groupRows`; `label` is long for ids below `wideBelow` (uneven groups). */
const LAYOUTS: ReadonlyArray<{ name: string; rows: number; groupRows: number; wideBelow: number }> = [
  { name: 'many', rows: 40_000, groupRows: 1_000, wideBelow: 0 },
  { name: 'few', rows: 40_000, groupRows: 25_000, wideBelow: 0 },
  { name: 'one', rows: 5_000, groupRows: 100_000, wideBelow: 0 },
  { name: 'uneven', rows: 40_000, groupRows: 3_000, wideBelow: 9_000 },
];

describe('Parquet: ranges cut between row groups', function () {
  this.timeout(120_000);
  let duck: DuckDBConnection;
  let dir: TempDir;
  const fs = new TestFileSystem();

  before(async () => {
    duck = await openDuck();
    dir = new TempDir();
    for (const { name, rows, groupRows, wideBelow } of LAYOUTS) {
      const label = `CASE WHEN i < ${wideBelow} THEN repeat(md5(i::VARCHAR), 8) ELSE 'n' || (i % 97) END`;
      await duck.run(
        `COPY (SELECT i::BIGINT AS id, ${label} AS label FROM range(${rows}) r(i)) TO '${dir.file(`${name}.parquet`).path}' (FORMAT PARQUET, ROW_GROUP_SIZE ${groupRows})`,
      );
    }
  });
  after(() => dir.dispose());

  async function blocksOf(location: string) {
    const file = (await fs.stat(location))!;
    return { file, blocks: (await readParquetStatistics(fs, file)).rowGroups };
  }

  it("cover the file from 0 to its end and read DuckDB's rows exactly once, whatever the target and layout", async () => {
    const format = new ParquetFormat();
    for (const { name } of LAYOUTS) {
      const { path, location } = dir.file(`${name}.parquet`);
      const { file, blocks } = await blocksOf(location);
      const expected = await readWithDuck(duck, path, COLUMNS);
      for (const targetBytes of [1, 20_000, 150_000, 1 << 30]) {
        const what = `${name}, target ${targetBytes}`;
        const ranges = format.ranges(file, FORMAT_OPTIONS, targetBytes, blocks);
        expect(ranges[0].start, what).to.equal(0);
        ranges.forEach((r, i) => expect(r.start + r.length, what).to.equal(ranges[i + 1]?.start ?? file.size));
        const ours = await readWithFormat(location, COLUMNS, { targetBytes, fs, blocks });
        expect(ours.rows, what).to.deep.equal(expected);
        expect(ours.stats.rowGroupsRead, what).to.equal(blocks.length);
        expect(
          ours.groupsPerRange.every((n) => n > 0),
          what,
        ).to.equal(true);
        // A target of one byte (or of less than any row group) gives each row group its own range.
        if (targetBytes === 1) expect(ours.groupsPerRange, what).to.deep.equal(blocks.map(() => 1));
      }
    }
  });

  it('gives each of a few large row groups its own range, where byte ranges held two in one', async () => {
    const { location } = dir.file('few4.parquet');
    await duck.run(
      `COPY (SELECT i::BIGINT AS id, md5(i::VARCHAR) AS label FROM range(40000) r(i)) TO '${dir.file('few4.parquet').path}' (FORMAT PARQUET, ROW_GROUP_SIZE 10000)`,
    );
    const { file, blocks } = await blocksOf(location);
    expect(blocks).to.have.length(4);
    // Ranges of about a third of the file: byte ranges cut it into 3, the first holding 2 row groups.
    const targetBytes = Math.ceil(file.size / 3);
    expect((await readWithFormat(location, COLUMNS, { targetBytes, fs })).groupsPerRange).to.deep.equal([2, 1, 1]);
    const aligned = await readWithFormat(location, COLUMNS, { targetBytes, fs, blocks });
    expect(aligned.groupsPerRange).to.deep.equal([1, 1, 1, 1]);
    expect(aligned.rows.map((r) => Number(r[0]))).to.deep.equal(Array.from({ length: 40000 }, (_, i) => i));
    // Row groups small against the target share ranges of at most the target (here 60% of the file: two groups).
    const twice = await readWithFormat(location, COLUMNS, { targetBytes: Math.ceil(file.size * 0.6), fs, blocks });
    expect(twice.groupsPerRange).to.deep.equal([2, 2]);
  });
});
