// Writes pages as one Parquet file: "PAR1", row groups (each column a chunk: see
// column-chunk-writer.ts, and list-chunk-writer.ts for arrays), then the page index (column and offset indexes of every chunk), the
// footer and "PAR1". Pages are buffered until a row group is full (2^18 rows, or about
// 64 MiB of data), then encoded and written in one go; the footer waits for finish().

import { estimatedPageBytes, concatColumns, type Column, type Page } from '../../../../columnar/page.js';
import type { ColumnMetadata } from '../../../../spi/connector.js';
import type { OutputStream } from '../../file-system/file-system.js';
import type { FileWriter } from '../file-format.js';
import { encodeColumnChunk, type EncodedChunk } from './column-chunk-writer.js';
import { encodeListChunk, listEncoding, type ListEncoding } from './list-chunk-writer.js';
import { encodeMapChunks, mapEncoding, type MapEncoding } from './map-chunk-writer.js';
import { encodeStructChunks, structEncoding, type StructEncoding } from './struct-chunk-writer.js';
import type { ColumnChunk, ColumnIndex, PageLocation, RowGroup } from './file-metadata.js';
import { encodeColumnIndex, encodeFileMetaData, encodeOffsetIndex } from './metadata-writer.js';
import { MAGIC } from './parquet-constants.js';
import { physicalEncoding, type PhysicalEncoding } from './physical-encoding.js';

/** Row groups end at this many rows or about this much data, whichever comes first. */
export interface RowGroupLimits {
  rows: number;
  bytes: number;
}

/**
 * A reader decodes a row group's columns whole, so row groups stay moderate (DuckDB writes 122,880
 * rows): 262,144 rows or 64 MiB, whichever comes first.
 */
const DEFAULT_LIMITS: RowGroupLimits = { rows: 1 << 18, bytes: 64 * 1024 * 1024 };
const CREATED_BY = 'engine (parquet writer)';

interface WrittenChunk {
  chunk: ColumnChunk;
  columnIndex: ColumnIndex | undefined;
  offsetIndex: PageLocation[];
}

export class ParquetFileWriter implements FileWriter {
  private readonly encodings: (PhysicalEncoding | ListEncoding | MapEncoding | StructEncoding)[];
  private buffered: Page[] = [];
  private bufferedRows = 0;
  private bufferedBytes = 0;
  private position = 0;
  private rows = 0;
  private readonly rowGroups: { group: RowGroup; chunks: WrittenChunk[] }[] = [];
  private state: 'open' | 'finished' | 'aborted' = 'open';

  constructor(
    private readonly columns: readonly ColumnMetadata[],
    private readonly output: OutputStream,
    private readonly limits: RowGroupLimits = DEFAULT_LIMITS,
  ) {
    this.encodings = columns.map(
      (c) =>
        structEncoding(c.name, c.type) ?? listEncoding(c.name, c.type) ?? mapEncoding(c.name, c.type) ?? physicalEncoding(c.name, c.type),
    );
  }

  get writtenBytes(): number {
    return this.position + this.bufferedBytes;
  }

  get retainedBytes(): number {
    return this.bufferedBytes;
  }

  async append(page: Page): Promise<void> {
    this.expectOpen();
    if (page.rowCount === 0) return;
    this.buffered.push(page);
    this.bufferedRows += page.rowCount;
    this.bufferedBytes += estimatedPageBytes(page);
    if (this.bufferedRows >= this.limits.rows || this.bufferedBytes >= this.limits.bytes) await this.flushRowGroup();
  }

  async finish(): Promise<{ rows: number }> {
    this.expectOpen();
    await this.flushRowGroup();
    if (this.position === 0) await this.write(MAGIC);
    await this.writePageIndex();
    const footer = encodeFileMetaData({
      version: 1,
      schema: [
        { name: 'schema', numChildren: this.columns.length },
        ...this.encodings.flatMap((e) => ('structElements' in e ? e.structElements : 'elements' in e ? e.elements : [e.element])),
      ],
      numRows: this.rows,
      rowGroups: this.rowGroups.map((g) => g.group),
      createdBy: CREATED_BY,
    });
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, footer.length, true);
    await this.write(footer);
    await this.write(length);
    await this.write(MAGIC);
    await this.output.close();
    this.state = 'finished';
    return { rows: this.rows };
  }

  async abort(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    this.buffered = [];
    await this.output.abort();
  }

  private expectOpen(): void {
    if (this.state !== 'open') throw new Error(`the Parquet writer is ${this.state}`);
  }

  private async flushRowGroup(): Promise<void> {
    if (this.bufferedRows === 0) return;
    const pages = this.buffered;
    const rowCount = this.bufferedRows;
    this.buffered = [];
    this.bufferedRows = 0;
    this.bufferedBytes = 0;
    if (this.position === 0) await this.write(MAGIC);
    const chunks: WrittenChunk[] = [];
    let totalByteSize = 0;
    for (let c = 0; c < this.columns.length; c++) {
      const column: Column =
        pages.length === 1
          ? pages[0].columns[c]
          : concatColumns(
              this.columns[c].type,
              pages.map((p) => p.columns[c]),
            );
      const encoding = this.encodings[c];
      // A map column is two chunks (keys, values), a row column one per primitive field; every other column one.
      const encodedChunks =
        'structElements' in encoding
          ? encodeStructChunks(encoding, column)
          : 'keys' in encoding
            ? encodeMapChunks(encoding, column)
            : ['elements' in encoding ? encodeListChunk(encoding, column) : encodeColumnChunk(encoding, column)];
      for (const encoded of encodedChunks) {
        const start = this.position;
        await this.write(joined(encoded.parts));
        chunks.push(placed(encoded, start));
        totalByteSize += encoded.meta.totalUncompressedSize;
      }
    }
    this.rows += rowCount;
    this.rowGroups.push({ group: { columns: chunks.map((c) => c.chunk), numRows: rowCount, totalByteSize }, chunks });
  }

  /** Column indexes of all chunks, then their offset indexes, as parquet-mr lays them out. */
  private async writePageIndex(): Promise<void> {
    for (const { chunks } of this.rowGroups) {
      for (const c of chunks) {
        if (c.columnIndex === undefined) continue;
        const bytes = encodeColumnIndex(c.columnIndex);
        c.chunk.columnIndexOffset = this.position;
        c.chunk.columnIndexLength = bytes.length;
        await this.write(bytes);
      }
    }
    for (const { chunks } of this.rowGroups) {
      for (const c of chunks) {
        const bytes = encodeOffsetIndex(c.offsetIndex);
        c.chunk.offsetIndexOffset = this.position;
        c.chunk.offsetIndexLength = bytes.length;
        await this.write(bytes);
      }
    }
  }

  private async write(bytes: Uint8Array): Promise<void> {
    await this.output.write(bytes);
    this.position += bytes.length;
  }
}

/** The chunk's metadata with file offsets, its chunk starting at `start`. */
function placed(encoded: EncodedChunk, start: number): WrittenChunk {
  const meta = {
    ...encoded.meta,
    dataPageOffset: start + encoded.meta.dataPageOffset,
    dictionaryPageOffset: encoded.dictionaryPage ? start : undefined,
  };
  return {
    chunk: { meta },
    columnIndex: encoded.columnIndex,
    offsetIndex: encoded.dataPages.map((p) => ({ offset: start + p.offset, compressedPageSize: p.length, firstRowIndex: p.firstRow })),
  };
}

function joined(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
