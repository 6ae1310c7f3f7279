// One writer of a write (on whichever node runs it): writes pages to new files named by the write id
// and this writer's id, into the table's folder or into the partition folders (`col=value/`) of each
// row's partition values; a file is closed and the next one begun once it passes the target size, and
// an open file holds at most one row group in memory (the Parquet writer's; text formats stream).
// Finishing reports the files as fragments; aborting deletes every file this sink began.

import { EngineError } from '../../../errors/engine-error.js';
import { getScalar, takePage, type Page } from '../../../columnar/page.js';
import type { FileSystem } from '../file-system/file-system.js';
import type { FileWriter } from '../formats/file-format.js';
import { fileExtension, fileFormat } from '../formats/file-formats.js';
import { childLocation } from '../location.js';
import { partitionFolderName } from '../splits/partitions.js';
import type { WriteFragment, WriteHandle } from './write-handle.js';
import { newWriterId, writeFileName } from './write-id.js';
import type { ConnectorPageSink } from '../../../spi/table-write.js';

/** A file is closed once it holds this many bytes. */
export const TARGET_FILE_BYTES = 128 * 1024 * 1024;
/** Partitions one sink writes at once at most (Trino's hive.max-partitions-per-writers). */
export const MAX_OPEN_PARTITIONS = 100;

interface OpenFile {
  location: string;
  writer: FileWriter;
}

export class LakePageSink implements ConnectorPageSink {
  private readonly open = new Map<string, OpenFile>();
  private readonly fragments: WriteFragment[] = [];
  /** Every file begun, for abort. */
  private readonly begun: string[] = [];
  private sequence = 0;
  private readonly writerId = newWriterId();
  private readonly dataChannels: number[];
  private readonly partitionChannels: number[];

  constructor(
    private readonly fs: FileSystem,
    private readonly handle: WriteHandle,
    private readonly targetFileBytes = TARGET_FILE_BYTES,
  ) {
    const data = handle.dataColumns.length;
    this.dataChannels = handle.dataColumns.map((_, i) => i);
    this.partitionChannels = handle.partitionColumns.map((_, i) => data + i);
  }

  /** A page of the table's columns, in table order (data columns, then partition columns). */
  async appendPage(page: Page): Promise<void> {
    if (page.rowCount === 0) return;
    const data = (p: Page): Page => ({ rowCount: p.rowCount, columns: this.dataChannels.map((c) => p.columns[c]) });
    if (this.partitionChannels.length === 0) return this.write('', data(page));
    const rowsByFolder = new Map<string, number[]>();
    for (let row = 0; row < page.rowCount; row++) {
      const folder = this.partitionFolder(page, row);
      let rows = rowsByFolder.get(folder);
      if (rows === undefined) rowsByFolder.set(folder, (rows = []));
      rows.push(row);
    }
    for (const [folder, rows] of rowsByFolder) {
      const part = rows.length === page.rowCount ? page : takePage(page, Int32Array.from(rows));
      await this.write(folder, data(part));
    }
  }

  /** What the open files hold in memory: at most a row group each. */
  retainedBytes(): number {
    let bytes = 0;
    for (const file of this.open.values()) bytes += file.writer.retainedBytes;
    return bytes;
  }

  async finish(): Promise<WriteFragment[]> {
    for (const folder of [...this.open.keys()]) await this.close(folder);
    return this.fragments;
  }

  /** Deletes every file begun (best effort: uncommitted files stay invisible regardless). */
  async abort(): Promise<void> {
    await Promise.allSettled([...this.open.values()].map((f) => f.writer.abort()));
    this.open.clear();
    await Promise.allSettled(this.begun.map((location) => this.fs.deleteFile(location)));
  }

  private partitionFolder(page: Page, row: number): string {
    return this.handle.partitionColumns
      .map((c, i) => `${partitionFolderName(c, getScalar(page.columns[this.partitionChannels[i]], row))}/`)
      .join('');
  }

  private async write(folder: string, page: Page): Promise<void> {
    let file = this.open.get(folder);
    if (file === undefined) {
      if (this.open.size >= MAX_OPEN_PARTITIONS) {
        throw new EngineError(
          'HIVE_TOO_MANY_OPEN_PARTITIONS',
          `Exceeded limit of ${MAX_OPEN_PARTITIONS} open writers for partitions: a write may add rows to at most ${MAX_OPEN_PARTITIONS} partitions at once`,
        );
      }
      file = await this.begin(folder);
      this.open.set(folder, file);
    }
    await file.writer.append(page);
    if (file.writer.writtenBytes >= this.targetFileBytes) await this.close(folder);
  }

  private async begin(folder: string): Promise<OpenFile> {
    const { handle } = this;
    const location = childLocation(
      handle.location,
      folder + writeFileName(handle.writeId, this.writerId, this.sequence++, fileExtension(handle.format)),
    );
    this.begun.push(location);
    const output = await this.fs.create(location);
    return { location, writer: fileFormat(handle.format).createWriter(handle.dataColumns, handle.formatOptions, output) };
  }

  private async close(folder: string): Promise<void> {
    const file = this.open.get(folder);
    if (file === undefined) return;
    this.open.delete(folder);
    const bytes = file.writer.writtenBytes;
    const { rows } = await file.writer.finish();
    this.fragments.push({ location: file.location, rows, bytes });
  }
}
