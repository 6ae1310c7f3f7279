// Splits a page by the hash of its key columns into `count` pages, so that equal keys always land
// in the same partition, whichever worker partitions them. The partition comes from the hash's high
// bits: hash tables pick buckets by its low bits, which therefore stay evenly spread in a partition.

import { hashRows } from '../../columnar/hash-functions.js';
import { takePage, type Page } from '../../columnar/page.js';

export function partitionPage(page: Page, keyChannels: readonly number[], count: number): Page[] {
  if (count === 1) return [page];
  const partitioner = new PagePartitioner(page, keyChannels, count);
  partitioner.assign(page.rowCount);
  return partitioner.take();
}

/**
 * Splits one page a range of rows at a time: a long page can be split a slice per turn of the event
 * loop (task-output.ts). The rows assigned to their partitions wait to be taken together, so that a
 * page whose work needs no turn is still cut into one page per partition, not one per slice.
 */
export class PagePartitioner {
  /** Each row's hash, filled range by range. */
  private readonly hashes: Int32Array;
  /** Each row's partition, filled range by range. */
  private readonly partitions: Uint16Array;
  /** Rows before this one have their partition; those from `taken` on are still to be taken. */
  assigned = 0;
  private taken = 0;

  constructor(
    private readonly page: Page,
    private readonly keyChannels: readonly number[],
    private readonly count: number,
  ) {
    this.hashes = new Int32Array(page.rowCount);
    this.partitions = new Uint16Array(page.rowCount);
  }

  /** Assigns the rows up to `end` to their partitions. */
  assign(end: number): void {
    const { page, count, hashes, partitions } = this;
    hashRows(
      this.keyChannels.map((c) => page.columns[c]),
      end,
      hashes,
      this.assigned,
    );
    for (let row = this.assigned; row < end; row++) partitions[row] = Math.floor(((hashes[row] >>> 0) * count) / 0x100000000);
    this.assigned = end;
  }

  /** The rows assigned since the last take, one page per partition (the page itself when all its rows go to one). */
  take(): Page[] {
    const { page, count, partitions, taken, assigned } = this;
    const sizes = new Int32Array(count);
    for (let row = taken; row < assigned; row++) sizes[partitions[row]]++;
    const positions = Array.from(sizes, (size) => new Int32Array(size));
    const filled = new Int32Array(count);
    for (let row = taken; row < assigned; row++) {
      const p = partitions[row];
      positions[p][filled[p]++] = row;
    }
    this.taken = assigned;
    return positions.map((rows) => (rows.length === page.rowCount ? page : takePage(page, rows)));
  }
}
