// Reading with a constraint skips row groups by their statistics, pages by the page index and row
// groups by their dictionaries, as ReadStats counts; the rows that match are all still there (our
// rows, filtered by the predicate as the engine filters them, equal DuckDB's WHERE).

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ParquetFileWriter } from '../../../../src/connectors/hive/formats/parquet/parquet-writer.js';
import type { ColumnMetadata, TableConstraint } from '../../../../src/spi/connector.js';
import type { Page } from '../../../../src/columnar/page.js';
import { ALL_TYPES_COLUMNS, createAllTypesTable } from './duckdb-files.js';
import { TempDir, openDuck, readWithDuck, readWithFormat } from './parquet-test-support.js';
import { TestFileSystem } from './test-file-system.js';

const ROWS = 100_000;

describe('Parquet reads skip what a constraint rules out', function () {
  this.timeout(120_000);
  let duck: DuckDBConnection;
  let dir: TempDir;
  let duckFile: { path: string; location: string };
  let ourFile: { path: string; location: string };

  before(async () => {
    duck = await openDuck();
    dir = new TempDir();
    await createAllTypesTable(duck, 't', ROWS);
    duckFile = dir.file('duck.parquet');
    await duck.run(`COPY t TO '${duckFile.path}' (FORMAT PARQUET, ROW_GROUP_SIZE 10240)`);
    // Ours: one row group of 100,000 rows, so that only the page index can narrow it.
    const pages: Page[] = (await readWithFormat(duckFile.location, ALL_TYPES_COLUMNS)).pages;
    ourFile = dir.file('ours.parquet');
    const fs = new TestFileSystem();
    const writer = new ParquetFileWriter(ALL_TYPES_COLUMNS, await fs.create(ourFile.location), { rows: ROWS, bytes: 1 << 30 });
    for (const page of pages) await writer.append(page);
    await writer.finish();
  });
  after(() => dir.dispose());

  const column = (name: string): ColumnMetadata => ALL_TYPES_COLUMNS.find((c) => c.name === name)!;

  /** Our rows of `columns` under the constraint, kept where `keep` holds (the engine's filter), against DuckDB's WHERE. */
  async function expectSameRows(
    file: { path: string; location: string },
    columns: ColumnMetadata[],
    constraint: TableConstraint,
    where: string,
    keep: (row: string[]) => boolean,
  ) {
    const ours = await readWithFormat(file.location, columns, { constraint });
    const theirs = await readWithDuck(duck, file.path, columns, `WHERE ${where}`);
    expect(ours.rows.filter(keep)).to.deep.equal(theirs);
    return ours;
  }

  it('row-group statistics: a range of the sorted id reads one row group of ten', async () => {
    const columns = [column('id'), column('v'), column('dec18')];
    const ours = await expectSameRows(
      duckFile,
      columns,
      [{ column: 'id', low: { value: 30_000n, inclusive: true }, high: { value: 30_100n, inclusive: false } }],
      'id >= 30000 AND id < 30100',
      (r) => Number(r[0]) >= 30_000 && Number(r[0]) < 30_100,
    );
    expect(ours.stats.rowGroupsRead).to.equal(1);
    expect(ours.stats.rowGroupsSkipped).to.equal(9);
    expect(ours.stats.bytesSkipped).to.be.greaterThan(0);
    // The row group's other rows are dropped by the domain itself, before the other columns decode.
    expect(ours.rows.length).to.equal(100);
  });

  it('without a constraint every row group is read, none skipped', async () => {
    const ours = await readWithFormat(duckFile.location, [column('id')]);
    expect(ours.stats.rowGroupsRead).to.equal(10);
    expect(ours.stats.rowGroupsSkipped).to.equal(0);
    expect(ours.rows.length).to.equal(ROWS);
  });

  it('a value outside every row group (IN list) skips them all and returns nothing', async () => {
    const ours = await readWithFormat(duckFile.location, [column('id')], { constraint: [{ column: 'id', values: [-5n, 2_000_000n] }] });
    expect(ours.stats).to.include({ rowGroupsRead: 0, rowGroupsSkipped: 10 });
    expect(ours.rows).to.deep.equal([]);
  });

  it('page index: in our one-row-group file an id range reads one page of 20,000 rows', async () => {
    const columns = [column('id'), column('vlow'), column('ts')];
    const ours = await expectSameRows(
      ourFile,
      columns,
      [{ column: 'id', low: { value: 45_000n, inclusive: true }, high: { value: 45_010n, inclusive: true } }],
      'id BETWEEN 45000 AND 45010',
      (r) => Number(r[0]) >= 45_000 && Number(r[0]) <= 45_010,
    );
    expect(ours.stats.rowGroupsRead).to.equal(1);
    expect(ours.rows.length).to.equal(11);
    expect(ours.stats.bytesSkipped).to.be.greaterThan(0);
  });

  it('page index across columns: a timestamp range and a string bound keep the one page that can match', async () => {
    const columns = [column('id'), column('tsns'), column('v')];
    const low = 946684800000000 + 71_234 * 987654321;
    const constraint: TableConstraint = [
      // timestamp(6) holds picoseconds (long-plain-temporal.ts)
      {
        column: 'tsns',
        low: { value: BigInt(low) * 1_000_000n, inclusive: true },
        high: { value: BigInt(low + 1) * 1_000_000n, inclusive: false },
      },
      { column: 'v', low: { value: 'str-7', inclusive: true } },
    ];
    const ours = await expectSameRows(
      ourFile,
      columns,
      constraint,
      `epoch_us(tsns) >= ${low} AND epoch_us(tsns) < ${low + 1} AND v >= 'str-7'`,
      (r) => Number(r[1]) >= low && Number(r[1]) < low + 1 && r[2] !== 'NULL' && r[2] >= 'str-7',
    );
    expect(ours.rows.length).to.equal(
      ours.rows.filter((r) => Number(r[1]) >= low && Number(r[1]) < low + 1 && r[2] !== 'NULL' && r[2] >= 'str-7').length,
    );
    expect(ours.stats.bytesSkipped).to.be.greaterThan(0);
  });

  it('dictionary: a string inside the min/max range but in no dictionary skips the row group', async () => {
    // vlow holds '', alpha, beta, delta, gamma: 'b' lies between '' and 'gamma', yet no row has it.
    const ours = await expectSameRows(
      ourFile,
      [column('id'), column('vlow')],
      [{ column: 'vlow', values: ['b'] }],
      "vlow = 'b'",
      (r) => r[1] === 'b',
    );
    expect(ours.stats).to.include({ rowGroupsRead: 0, rowGroupsSkipped: 1 });
    const present = await expectSameRows(
      ourFile,
      [column('id'), column('vlow')],
      [{ column: 'vlow', values: ['beta'] }],
      "vlow = 'beta'",
      (r) => r[1] === 'beta',
    );
    expect(present.stats.rowGroupsRead).to.equal(1);
  });

  it('decimals, dates and strings prune by their own order (unscaled decimals, days, UTF-8 bytes)', async () => {
    const cases: [string, TableConstraint, string, (r: string[]) => boolean][] = [
      [
        'dt',
        [{ column: 'dt', high: { value: -99_000, inclusive: false } }],
        "dt < DATE '1970-01-01' - 99000",
        (r) => r[1] !== 'NULL' && r[1] < '1699',
      ],
      [
        'v',
        [{ column: 'v', low: { value: 'ünïcødé 😀 99', inclusive: true } }],
        "v >= 'ünïcødé 😀 99'",
        (r) => r[1] !== 'NULL' && r[1] >= 'ünïcødé 😀 99',
      ],
      [
        'dec38',
        [{ column: 'dec38', low: { value: 99_990_123_456_789_012_345_678_0123456789n, inclusive: true } }],
        'dec38 >= 99990123456789012345678.0123456789',
        (r) => r[1] !== 'NULL' && !r[1].startsWith('-') && r[1].length >= 34 && r[1] >= '99990123456789012345678.0123456789',
      ],
    ];
    for (const [name, constraint, where, keep] of cases) {
      const ours = await expectSameRows(duckFile, [column('id'), column(name)], constraint, where, keep);
      expect(ours.stats.rowGroupsSkipped, name).to.be.greaterThan(0);
    }
  });
});
