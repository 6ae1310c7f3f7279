// The splits of one Parquet file share its decoded footer: a file DuckDB writes as one file of many
// row groups, read as several byte ranges, has its footer read once, and every value still equals
// DuckDB's; a file rewritten in place (a new version) is read afresh, never from the old footer.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { utimesSync } from 'node:fs';
import { BIGINT, VARCHAR } from '../../../../src/types/types.js';
import { TempDir, openDuck, readWithDuck, readWithFormat } from './parquet-test-support.js';
import { TestFileSystem } from './test-file-system.js';

/** Counts the reads of a file's tail, where its footer is (every other read is of row group data). */
class FooterCountingFileSystem extends TestFileSystem {
  tailReads = 0;

  override async readRange(location: string, offset: number, length: number): Promise<Uint8Array> {
    const bytes = await super.readRange(location, offset, length);
    const size = (await this.stat(location))!.size;
    if (offset + length === size) this.tailReads++;
    return bytes;
  }
}

const COLUMNS = [
  { name: 'id', type: BIGINT },
  { name: 'label', type: VARCHAR },
];

describe('Parquet footers shared by the splits of one file version', function () {
  this.timeout(60_000);
  let duck: DuckDBConnection;
  let dir: TempDir;

  before(async () => {
    duck = await openDuck();
    dir = new TempDir();
  });
  after(() => dir.dispose());

  const write = (path: string, rows: number) =>
    duck.run(`COPY (SELECT range::BIGINT AS id, 'label ' || (range % 7) || repeat('x', (range % 50)::INTEGER) AS label FROM range(${rows})) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 4096)`);

  it('reads the footer once for all of a file\'s ranges, every value equal to DuckDB\'s', async () => {
    const file = dir.file('many-groups.parquet');
    await write(file.path, 100_000);
    const fs = new FooterCountingFileSystem();
    const first = await readWithFormat(file.location, COLUMNS, { fs, targetBytes: 64 * 1024 });
    expect(first.stats.rowGroupsRead).to.be.greaterThan(10);
    expect(first.rows).to.deep.equal(await readWithDuck(duck, file.path, COLUMNS));
    // Ranges read before the fix: one footer read each (9 on this file).
    expect(fs.tailReads).to.equal(1);
    const again = await readWithFormat(file.location, COLUMNS, { fs, targetBytes: 64 * 1024 });
    expect(fs.tailReads).to.equal(1);
    expect(again.rows).to.deep.equal(first.rows);
    expect(again.stats.bytesRead).to.be.lessThan(first.stats.bytesRead);
  });

  it('reads a file rewritten in place as its new version', async () => {
    const file = dir.file('rewritten.parquet');
    await write(file.path, 20_000);
    const fs = new FooterCountingFileSystem();
    expect((await readWithFormat(file.location, COLUMNS, { fs })).rows.length).to.equal(20_000);
    await write(file.path, 30_000);
    utimesSync(file.path, new Date(), new Date(Date.now() + 5_000));
    const after = await readWithFormat(file.location, COLUMNS, { fs });
    expect(after.rows).to.deep.equal(await readWithDuck(duck, file.path, COLUMNS));
    expect(after.rows.length).to.equal(30_000);
    expect(fs.tailReads).to.equal(2);
  });
});
