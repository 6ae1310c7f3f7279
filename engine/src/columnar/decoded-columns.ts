// This thread's decoded columns of memory-table batches (each worker thread and the main thread has
// its own), so that a table read again does not decode its strings and decimals again. Stored batches never change, so a column's key names the
// same values for as long as the process runs. Bounded in bytes: the least recently read go first.
// The main thread hands a worker mostly the same splits from query to query (see parallel-source),
// so each worker keeps its own share of a table.

import { getHeapStatistics } from 'node:v8';
import { evictUnderHeapPressure } from '../process/heap-guard.js';
import { columnSizeInBytes, type Column } from './page.js';
import { sampledStringArrayBytes } from './memory-estimate.js';

export class DecodedColumns {
  private readonly columns = new Map<string, { column: Column; bytes: number }>();
  private bytes = 0;

  constructor(readonly budgetBytes: number) {}

  get sizeInBytes(): number {
    return this.bytes;
  }

  /** The decoded column under `key`: kept from an earlier read, or decoded now (and kept). */
  decode(key: string, decode: () => Column): Column {
    const kept = this.columns.get(key);
    if (kept !== undefined) {
      this.columns.delete(key);
      this.columns.set(key, kept);
      return kept.column;
    }
    const column = decode();
    this.keep(key, column);
    return column;
  }

  /** Drops every kept column. */
  clear(): void {
    this.columns.clear();
    this.bytes = 0;
  }

  /** Keeps `column` under `key` (when it fits the budget), making room by dropping the least recently read. */
  keep(key: string, column: Column): void {
    // A cache budget needs no exact size: measuring every string of every decoded column cost
    // q10 on memory tables several percent of its time.
    const bytes = columnSizeInBytes(column, sampledStringArrayBytes);
    if (bytes > this.budgetBytes) return;
    const previous = this.columns.get(key);
    if (previous !== undefined) {
      this.columns.delete(key);
      this.bytes -= previous.bytes;
    }
    this.columns.set(key, { column, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.columns) {
      if (this.bytes <= this.budgetBytes) break;
      this.columns.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}

/** This thread's cache: a sixteenth of its heap (within the heap's headroom beside the node memory), emptied under heap pressure. */
export const decodedColumns = new DecodedColumns(Math.floor(getHeapStatistics().heap_size_limit / 16));
evictUnderHeapPressure(() => decodedColumns.clear());
