// Splits a page by the hash of its key columns into `count` pages, so that equal keys always land
// in the same partition, whichever worker partitions them. The partition comes from the hash's high
// bits: hash tables pick buckets by its low bits, which therefore stay evenly spread in a partition.

import { hashRows } from '../../columnar/hash-functions.js';
import { takePage, type Page } from '../../columnar/page.js';

export function partitionPage(page: Page, keyChannels: readonly number[], count: number): Page[] {
  if (count === 1) return [page];
  return new PagePartitioner(page, keyChannels, count).partition(0, page.rowCount);
}

/** Splits one page's rows a range at a time: a long page can be split a slice per turn of the event loop (task-output.ts). */
export class PagePartitioner {
  /** Each row's hash, filled range by range. */
  private readonly hashes: Int32Array;

  constructor(
    private readonly page: Page,
    private readonly keyChannels: readonly number[],
    private readonly count: number,
  ) {
    this.hashes = new Int32Array(page.rowCount);
  }

  /** Rows [start, end) of the page, one page per partition (the page itself when all its rows go to one). */
  partition(start: number, end: number): Page[] {
    const { page, count, hashes } = this;
    hashRows(
      this.keyChannels.map((c) => page.columns[c]),
      end,
      hashes,
      start,
    );
    const partitions = new Uint16Array(end - start);
    const sizes = new Int32Array(count);
    for (let row = start; row < end; row++) {
      const p = Math.floor(((hashes[row] >>> 0) * count) / 0x100000000);
      partitions[row - start] = p;
      sizes[p]++;
    }
    const positions = Array.from(sizes, (size) => new Int32Array(size));
    const filled = new Int32Array(count);
    for (let row = start; row < end; row++) {
      const p = partitions[row - start];
      positions[p][filled[p]++] = row;
    }
    return positions.map((rows) => (rows.length === page.rowCount ? page : takePage(page, rows)));
  }
}
