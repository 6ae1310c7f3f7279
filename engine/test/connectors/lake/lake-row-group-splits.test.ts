// A lake table's Parquet splits follow the row groups of files whose footers planning read for the
// table's statistics (one split per large row group, every row read once, as DuckDB reads the
// file), and stay byte ranges, with no footer read, where it has not.

import { expect } from 'chai';
import { LocalFileSystem } from '../../../src/connectors/hive/file-system/local-file-system.js';
import { readParquetStatistics } from '../../../src/connectors/hive/formats/parquet/file-statistics.js';
import type { LakeSplitInfo } from '../../../src/connectors/hive/splits/lake-split.js';
import { connectorIo } from '../../../src/spi/connector-io.js';
import { allSplits } from '../../../src/spi/connector.js';
import { duckDbRows, LakeFixture, explainMetricTotal, ROW_GROUPS_SUMMARY as SUMMARY, writeFourLargeRowGroups } from './lake-fixture.js';

const MIB = 1024 * 1024;

describe('lake: Parquet splits at row groups', function () {
  this.timeout(120_000);
  let lake: LakeFixture;

  before(async () => {
    lake = LakeFixture.create();
    await writeFourLargeRowGroups(lake.file('data/big/a.parquet', ''));
    await lake.harness.query(`CREATE TABLE lake.default.big WITH (external_location = '${lake.uri('data/big')}')`);
  });
  after(() => lake.remove());

  async function splitRanges(): Promise<{ start: number; length: number }[]> {
    const table = (await lake.connector.getTable(lake.harness.session, 'default', 'big'))!;
    const splits = await allSplits(lake.connector.getSplits(lake.harness.session, table));
    return splits.map((s) => ({ start: (s.info as LakeSplitInfo).start, length: (s.info as LakeSplitInfo).length }));
  }

  it('are byte ranges, reading no footer, until planning read it; then one per row group, reading every row once', async () => {
    const fs = new LocalFileSystem();
    const file = (await fs.stat(`file://${lake.path('data/big/a.parquet')}`))!;
    const { rowGroups } = await readParquetStatistics(fs, file);
    expect(rowGroups).to.have.length(4);
    expect(
      rowGroups.every((g) => g.bytes > 8 * MIB && g.bytes < 16 * MIB),
      JSON.stringify(rowGroups),
    ).to.equal(true);

    const readBefore = connectorIo.readBytes;
    expect(await splitRanges()).to.deep.equal(
      [0, 16, 32].map((m) => ({ start: m * MIB, length: Math.min(16 * MIB, file.size - m * MIB) })),
    );
    expect(connectorIo.readBytes).to.equal(readBefore);

    const [expected] = await duckDbRows(SUMMARY(`read_parquet('${lake.path('data/big/a.parquet')}')`));
    // Planning this query reads the footer for the table's statistics.
    expect(await lake.rows(SUMMARY('lake.default.big'))).to.deep.equal([expected]);
    const starts = [0, ...rowGroups.slice(1).map((g) => g.start)];
    expect(await splitRanges()).to.deep.equal(starts.map((start, i) => ({ start, length: (starts[i + 1] ?? file.size) - start })));

    const plan = String((await lake.rows(`EXPLAIN ANALYZE ${SUMMARY('lake.default.big')}`))[0][0]);
    const total = (metric: string) => explainMetricTotal(plan, metric);
    expect([total('splitsRead'), total('rowGroupsRead')], plan).to.deep.equal([4, 4]);
    expect(await lake.rows(SUMMARY('lake.default.big'))).to.deep.equal([expected]);
  });
});
