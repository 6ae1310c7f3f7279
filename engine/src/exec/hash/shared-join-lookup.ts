// A join's lookup table as plain data for other threads: its typed arrays, which live in shared
// memory when the table was built for sharing, so that every thread probes the same table
// (read only) without a copy. The build rows themselves travel with it (shared-build-side).

import type { SqlType } from '../../types/types.js';

export interface SharedIntegerJoinHash {
  kind: 'integer';
  rowCount: number;
  table: Int32Array;
  next: Int32Array;
  /** The filter of key hashes (key-bits), empty when the table has none. */
  keyBits: Int32Array;
  nullKeyRows: Int32Array;
  /** log2 of the regions threads filled it in (table-regions); 0: built in one thread. */
  regionBits: number;
}

export interface SharedJoinHash {
  kind: 'general';
  types: readonly SqlType[];
  rowCount: number;
  slots: Int32Array;
  hashes: Int32Array;
  next: Int32Array;
  /** The filter of key hashes (key-bits), empty when the table has none. */
  keyBits: Int32Array;
  nullKeyRows: Int32Array;
  /** log2 of the regions threads filled it in (table-regions); 0: built in one thread. */
  regionBits: number;
}

/** A DenseIntegerJoinLookup: key k's first build row plus one at heads[k - base]. */
export interface SharedDenseIntegerJoinLookup {
  kind: 'dense-integer';
  rowCount: number;
  base: number;
  heads: Int32Array;
  next: Int32Array;
  nullKeyRows: Int32Array;
}

export type SharedJoinLookup = SharedIntegerJoinHash | SharedJoinHash | SharedDenseIntegerJoinLookup;

/** An Int32Array of `length` zeros, in shared memory when `shared`. */
export function newInt32Array(length: number, shared: boolean): Int32Array {
  return shared ? new Int32Array(new SharedArrayBuffer(length * 4)) : new Int32Array(length);
}
