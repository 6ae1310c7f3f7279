// What a hash join asks of its lookup table over the build side (JoinHash for any keys,
// IntegerJoinHash for integer keys): the first build row with a probe row's key, and the chain of
// build rows after it with the same key.

import type { Column } from '../../columnar/page.js';
import type { SharedJoinLookup } from './shared-join-lookup.js';

export interface JoinLookup {
  /** next[row]: the next build row with the same key as `row` (in build order), or -1. */
  readonly next: Int32Array;
  /** Build rows with a NULL in some key column (never inserted: NULL matches nothing). */
  readonly nullKeyRows: Int32Array;
  /**
   * For rows [0, count) of the probe keys, writes the first matching build row (or -1) into `out`.
   * When `probeNulls` is given, it is set to 1 for probe rows with a NULL key (0 for others).
   */
  lookup(probeKeys: readonly Column[], count: number, out: Int32Array, probeNulls?: Uint8Array): void;
  sizeInBytes(): number;
  /** Its arrays, for other threads to probe (in shared memory when it was built there). */
  share(): SharedJoinLookup;
}

/** 1 for rows with a NULL in any of the columns; null when no row has one. */
export function anyNullKey(columns: readonly Column[], count: number): Uint8Array | null {
  let result: Uint8Array | null = null;
  for (const c of columns) {
    const nulls = c.type.kind === 'unknown' ? new Uint8Array(count).fill(1) : c.nulls;
    if (nulls === null) continue;
    if (result === null) result = new Uint8Array(count);
    for (let i = 0; i < count; i++) result[i] |= nulls[i];
  }
  return result;
}

/** The rows with a NULL in any of the columns, in order. */
export function nullKeyRowsOf(columns: readonly Column[], count: number): Int32Array {
  const hasNull = anyNullKey(columns, count);
  if (hasNull === null) return new Int32Array(0);
  const rows: number[] = [];
  for (let row = 0; row < count; row++) if (hasNull[row] === 1) rows.push(row);
  return Int32Array.from(rows);
}
