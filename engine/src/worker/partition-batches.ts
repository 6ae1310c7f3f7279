// Gathers the small pieces a repartitioning task output cuts each page into until a partition holds
// a page worth sending. A scan's page of a few thousand rows, split over the consumers, left pages of
// about 2,700 rows for TPC-H q4's lineitem keys on two workers: 704 pages and some 450 requests per
// consumer, each page with its own Arrow message, decoding and queueing, each request its own HTTP
// round trip. Trino's partitioned output fills a page per partition in the same way.

import { concatPages, estimatedPageBytes, type Page } from '../columnar/page.js';
import type { MemoryContext } from '../exec/memory.js';
import type { SqlType } from '../types/types.js';

/** A partition's rows go out once they reach this many... */
export const PARTITION_BATCH_ROWS = 16_384;
/** ...or this many bytes (as the buffer counts them), whichever comes first. */
export const PARTITION_BATCH_BYTES = 512 * 1024;

interface Pending {
  pieces: Page[];
  rows: number;
  bytes: number;
}

export class PartitionBatches {
  private readonly pending: Pending[];

  constructor(
    private readonly types: readonly SqlType[],
    partitions: number,
    /** Where the rows held are counted (the task's memory, as the output buffer counts its pages). */
    private readonly memory?: MemoryContext,
  ) {
    this.pending = Array.from({ length: partitions }, () => ({ pieces: [], rows: 0, bytes: 0 }));
  }

  /** Adds a piece of `partition`; returns the partition's batch when it is full enough to send. */
  add(partition: number, piece: Page): Page | undefined {
    const pending = this.pending[partition];
    const bytes = estimatedPageBytes(piece);
    this.memory?.reserve(bytes);
    pending.pieces.push(piece);
    pending.rows += piece.rowCount;
    pending.bytes += bytes;
    return pending.rows >= PARTITION_BATCH_ROWS || pending.bytes >= PARTITION_BATCH_BYTES ? this.take(partition) : undefined;
  }

  /** What every partition still holds, as [partition, batch] pairs (at the end of the task's output). */
  drain(): [number, Page][] {
    const out: [number, Page][] = [];
    for (let p = 0; p < this.pending.length; p++) {
      const batch = this.take(p);
      if (batch !== undefined) out.push([p, batch]);
    }
    return out;
  }

  private take(partition: number): Page | undefined {
    const pending = this.pending[partition];
    if (pending.rows === 0) return undefined;
    const batch = pending.pieces.length === 1 ? pending.pieces[0] : concatPages(this.types, pending.pieces);
    this.pending[partition] = { pieces: [], rows: 0, bytes: 0 };
    this.memory?.free(pending.bytes);
    return batch;
  }
}
