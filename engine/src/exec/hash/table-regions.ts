// A join table cut into regions by its keys' hashes, so that several threads fill one table at once
// (threads/parallel-join-build), each thread its own regions, with no locks: equal keys share a
// hash, so each key's slot, its chain of rows and its filter bit (key-bits) lie in its region alone.
// The region is the top bits of the same product of the hash the filter takes its bit from, so a
// region's filter bits are whole words of its own (writes of two threads never meet in one word).
// A table of one region (regionBits 0) is the table as built in one thread.

import { KEY_BIT_MULTIPLIER } from './key-bits.js';

/** At most 16 regions: a filter of 2^10 bits still gives each region whole 32-bit words. */
export const MAX_REGION_BITS = 4;

/** Where a table of `capacity` slots cut into 2^regionBits regions finds a key's slot. */
export interface TableRegions {
  regionBits: number;
  /** log2 of a region's slots. */
  regionLog2: number;
  /** A region's slots minus one (the table's mask for one region). */
  regionMask: number;
}

export function tableRegions(capacity: number, regionBits: number): TableRegions {
  const regionLog2 = Math.log2(capacity) - regionBits;
  return { regionBits, regionLog2, regionMask: 2 ** regionLog2 - 1 };
}

/** The region of a key's hash (0 for a table of one region: the shift by 31 of a 31-bit value). */
export function regionOf(hash: number, regionBits: number): number {
  return (Math.imul(hash, KEY_BIT_MULTIPLIER) >>> 1) >>> (31 - regionBits);
}

/** The regions a table over `threads` threads is cut into: the least power of two covering them, at most 2^MAX_REGION_BITS. */
export function regionBitsFor(threads: number): number {
  return Math.min(MAX_REGION_BITS, Math.ceil(Math.log2(Math.max(1, threads))));
}
