// A lake page sink, the writer a task runs: each sink names its files with a writer id of its own
// (two writers of one write never collide), and what it holds in memory — the row group being
// filled of each open file, which the TableWriter counts as the query's memory — is what it was
// given and has not written out yet.

import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalFileSystem } from '../../../src/connectors/hive/file-system/local-file-system.js';
import { DEFAULT_FORMAT_OPTIONS } from '../../../src/connectors/hive/metastore/lake-table.js';
import { LakePageSink } from '../../../src/connectors/hive/write/page-sink.js';
import { writeHandle } from '../../../src/connectors/hive/write/write-handle.js';
import { writeIdOfFile } from '../../../src/connectors/hive/write/write-id.js';
import { columnFromScalars, estimatedPageBytes, type Page } from '../../../src/columnar/page.js';
import { BIGINT, VARCHAR } from '../../../src/types/types.js';
import { dataFiles, writersOf } from '../../writes/write-files.js';

describe('lake page sink', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-sink-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const page = (from: number, rows: number): Page => ({
    rowCount: rows,
    columns: [
      columnFromScalars(
        BIGINT,
        Array.from({ length: rows }, (_, i) => BigInt(from + i)),
      ),
      columnFromScalars(
        VARCHAR,
        Array.from({ length: rows }, (_, i) => `row ${from + i}`),
      ),
    ],
  });

  for (const format of ['PARQUET', 'CSV'] as const) {
    it(`${format}: two writers of one write name their files apart; what each holds is what it has not written out`, async () => {
      const handle = writeHandle(
        {
          catalog: 'lake',
          schema: 's',
          name: 't',
          tableId: 'abc',
          managed: true,
          location: `file://${dir}/`,
          format,
          dataColumns: [
            { name: 'id', type: BIGINT },
            { name: 'label', type: VARCHAR },
          ],
          partitionColumns: [],
          formatOptions: DEFAULT_FORMAT_OPTIONS,
        },
        `file://${dir}/`,
        'q1',
      );
      const fs = new LocalFileSystem();
      const sinks = [new LakePageSink(fs, handle), new LakePageSink(fs, handle)];
      expect(sinks[0].retainedBytes()).to.equal(0);
      await sinks[0].appendPage(page(0, 1000));
      await sinks[1].appendPage(page(1000, 500));
      if (format === 'PARQUET') {
        // A row group is written out only when full: the pages are held until then.
        expect(sinks[0].retainedBytes()).to.equal(estimatedPageBytes(page(0, 1000)));
        expect(sinks[1].retainedBytes()).to.equal(estimatedPageBytes(page(1000, 500)));
      } else {
        expect(sinks[0].retainedBytes()).to.be.greaterThan(0);
      }
      const fragments = [...(await sinks[0].finish()), ...(await sinks[1].finish())];
      expect(sinks.map((s) => s.retainedBytes())).to.deep.equal([0, 0]);
      expect(fragments.map((f) => f.rows)).to.deep.equal([1000, 500]);
      const files = dataFiles(dir);
      expect(files).to.have.length(2);
      expect(writersOf(files).size).to.equal(2);
      expect(files.map(writeIdOfFile)).to.deep.equal([handle.writeId, handle.writeId]);
    });
  }
});
