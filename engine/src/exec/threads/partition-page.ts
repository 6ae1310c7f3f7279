// Splits a page by the hash of its key columns into `count` pages, so that equal keys always land
// in the same partition, whichever worker partitions them. The partition comes from the hash's high
// bits: hash tables pick buckets by its low bits, which therefore stay evenly spread in a partition.

import { hashRows } from '../../columnar/hash-functions.js';
import { takePage, type Page } from '../../columnar/page.js';

export function partitionPage(page: Page, keyChannels: readonly number[], count: number): Page[] {
  if (count === 1) return [page];
  const n = page.rowCount;
  const hashes = new Int32Array(n);
  hashRows(
    keyChannels.map((c) => page.columns[c]),
    n,
    hashes,
  );
  const partitions = new Uint16Array(n);
  const sizes = new Int32Array(count);
  for (let row = 0; row < n; row++) {
    const p = Math.floor(((hashes[row] >>> 0) * count) / 0x100000000);
    partitions[row] = p;
    sizes[p]++;
  }
  const positions = Array.from(sizes, (size) => new Int32Array(size));
  const filled = new Int32Array(count);
  for (let row = 0; row < n; row++) {
    const p = partitions[row];
    positions[p][filled[p]++] = row;
  }
  return positions.map((rows) => (rows.length === n ? page : takePage(page, rows)));
}
