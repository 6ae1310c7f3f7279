// A worker thread's decoded columns of memory-table batches, so that a table read again does not
// decode its strings and decimals again. Stored batches never change, so a column's key names the
// same values for as long as the process runs. Bounded in bytes: the least recently read go first.
// The main thread hands a worker mostly the same splits from query to query (see parallel-source),
// so each worker keeps its own share of a table.

import { getHeapStatistics } from 'node:v8';
import type { SharedColumn } from '../../connectors/memory/shared-batch.js';
import { columnSizeInBytes, type Column } from '../page.js';

export class DecodedColumns {
  private readonly columns = new Map<string, { column: Column; bytes: number }>();
  private bytes = 0;

  constructor(readonly budgetBytes: number) {}

  get sizeInBytes(): number {
    return this.bytes;
  }

  /** The decoded column for `shared`: kept from an earlier read, or decoded now (and kept). */
  decode(shared: SharedColumn, decode: () => Column): Column {
    const key = shared.key as string;
    const kept = this.columns.get(key);
    if (kept !== undefined) {
      this.columns.delete(key);
      this.columns.set(key, kept);
      return kept.column;
    }
    const column = decode();
    const bytes = columnSizeInBytes(column);
    if (bytes > this.budgetBytes) return column;
    this.columns.set(key, { column, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.columns) {
      if (this.bytes <= this.budgetBytes) break;
      this.columns.delete(oldest);
      this.bytes -= entry.bytes;
    }
    return column;
  }
}

/** This thread's cache: an eighth of its heap. */
export const decodedColumns = new DecodedColumns(Math.floor(getHeapStatistics().heap_size_limit / 8));
