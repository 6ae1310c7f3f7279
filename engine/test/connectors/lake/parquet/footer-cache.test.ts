// The splits of one Parquet file share its decoded footer: a file DuckDB writes as one file of many
// row groups, read as several byte ranges, has its footer read once, and every value still equals
// DuckDB's; a file rewritten in place (a new version) is read afresh, never from the old footer,
// also on a store whose times have one-second resolution (S3), where only the ETag tells a
// same-size rewrite within one second apart.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { readFileSync, utimesSync } from 'node:fs';
import type { FileEntry } from '../../../../src/connectors/hive/file-system/file-system.js';
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

/** A store as S3 reports files: modification times in whole seconds, an ETag of the content (a single-part upload's MD5). */
class SecondResolutionFileSystem extends TestFileSystem {
  override async stat(location: string): Promise<FileEntry | undefined> {
    const file = await super.stat(location);
    if (file === undefined) return undefined;
    const etag = `"${createHash('md5')
      .update(readFileSync(new URL(location)))
      .digest('hex')}"`;
    return { ...file, lastModified: Math.floor(file.lastModified! / 1000) * 1000, etag };
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
    duck.run(
      `COPY (SELECT range::BIGINT AS id, 'label ' || (range % 7) || repeat('x', (range % 50)::INTEGER) AS label FROM range(${rows})) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 4096)`,
    );

  it("reads the footer once for all of a file's ranges, every value equal to DuckDB's", async () => {
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
  it('tells a same-size rewrite within one second apart by its ETag', async () => {
    const file = dir.file('same-second.parquet');
    const ids = (first: number) =>
      `COPY (SELECT (${first} + range)::BIGINT AS id FROM range(100)) TO '${file.path}' (FORMAT PARQUET, COMPRESSION uncompressed)`;
    const fs = new SecondResolutionFileSystem();
    const search = { constraint: [{ column: 'id', low: { value: 1000n, inclusive: true } }] };
    const idOnly = COLUMNS.slice(0, 1);
    await duck.run(ids(0));
    const before = (await fs.stat(file.location))!;
    // The footer of ids 0..99 is cached, and its statistics skip a search for ids from 1000.
    expect((await readWithFormat(file.location, idOnly, { fs, ...search })).rows).to.deep.equal([]);
    await duck.run(ids(1000));
    utimesSync(file.path, new Date(), new Date(before.lastModified!));
    const after = (await fs.stat(file.location))!;
    expect([after.size, after.lastModified]).to.deep.equal([before.size, before.lastModified]);
    const read = await readWithFormat(file.location, idOnly, { fs, ...search });
    expect(read.rows).to.deep.equal(await readWithDuck(duck, file.path, idOnly));
    expect(read.rows.length).to.equal(100);
  });
});
