// The lookup table of a hash join on one integer key stored in at most 64 bits (bigint, integer,
// smallint, tinyint, date, short decimals): each slot holds its first build row next to the key's
// int64 words, so an insert or a probe touches one place in memory (the general JoinHash
// reads the slot, then the row's hash, then the row's key values, through a comparison closure).
// Same contract as JoinHash: SQL `=` (NULL never matches), equal keys chained in build order.

import type { Column } from '../../columnar/page.js';
import { SHORT_DECIMAL_PRECISION, type SqlType } from '../../types/types.js';
import { yieldIfDue } from '../../columnar/cooperative.js';
import type { Turns } from '../operators/sort-cooperatively.js';
import { tableCapacity } from './group-by-hash.js';
import { int64Words, mix32 } from '../../columnar/hash-functions.js';
import { anyNullKey, type JoinLookup } from './join-lookup.js';
import { newInt32Array, type SharedIntegerJoinHash } from './shared-join-lookup.js';
import { addKeyBit, KeyBitsTrial, keyBitsBytes, keyBitShift, mayHaveKey, newKeyBits } from './key-bits.js';

const EMPTY = -1;
/** Rows inserted between two chances to yield the event loop (well under a millisecond of work). */
const BUILD_SLICE_ROWS = 16384;

/** Whether a key of this type is an integer held in an int64, int32, int16 or int8 array. */
export function isIntegerKeyType(type: SqlType): boolean {
  switch (type.kind) {
    case 'bigint':
    case 'integer':
    case 'smallint':
    case 'tinyint':
    case 'date':
    case 'interval year to month':
      return true;
    case 'decimal':
      return type.precision <= SHORT_DECIMAL_PRECISION;
    default:
      return false;
  }
}

/**
 * The int64 words (lo at 2i, hi at 2i + 1) of rows [0, count) of an integer column: a view of an
 * int64 column, a sign-extended copy of a narrower one (into `scratch` when it is big enough).
 */
export function integerKeyWords(column: Column, count: number, scratch?: Int32Array): Int32Array {
  const values = column.values;
  if (values instanceof BigInt64Array) return int64Words(values);
  if (!(values instanceof Int32Array || values instanceof Int16Array || values instanceof Int8Array)) {
    throw new Error(`Integer join key expected, got ${column.type.kind}`);
  }
  const words = scratch !== undefined && scratch.length >= 2 * count ? scratch : new Int32Array(2 * count);
  for (let i = 0; i < count; i++) {
    const v = values[i];
    words[2 * i] = v;
    words[2 * i + 1] = v < 0 ? -1 : 0;
  }
  return words;
}

/**
 * The integer tables' own hash of an int64 (no other table shares it): one finaliser over the low word
 * and an odd multiple of the high word, which keeps distinct high words distinct.
 */
export function wordsHash(lo: number, hi: number): number {
  return mix32(lo ^ Math.imul(hi, 0x9e3779b1));
}

/** How many runs of equal int64 words rows [0, count) make: at least their distinct keys. */
function keyRuns(words: Int32Array, count: number): number {
  let runs = count > 0 ? 1 : 0;
  for (let row = 1; row < count; row++) {
    if (words[2 * row] !== words[2 * row - 2] || words[2 * row + 1] !== words[2 * row - 1]) runs++;
  }
  return runs;
}

export class IntegerJoinHash implements JoinLookup {
  /**
   * Slot s at 3s: its first build row plus one (0: empty, so a fresh zeroed table needs no fill),
   * then the lo and hi words of its key.
   */
  private readonly table: Int32Array;
  private readonly mask: number;
  readonly next: Int32Array;
  /** A filter of the keys' hashes tested before the table (see key-bits); empty: none (too many keys). */
  private readonly keyBits: Int32Array;
  /** 32 minus the filter's log2 size in bits. */
  private readonly keyBitShift: number;
  /** Whether the filter still rejects enough of this thread's probes to be worth its read. */
  private readonly keyBitsTrial: KeyBitsTrial;
  private nullKeyRowIndexes: Int32Array = new Int32Array(0);
  private probeScratch: Int32Array | undefined;

  /** The table over `rowCount` rows of one integer key column; `shared`: in shared memory, for other threads to probe. */
  static async build(buildKey: Column, rowCount: number, turns?: Turns, shared = false): Promise<IntegerJoinHash> {
    const words = integerKeyWords(buildKey, rowCount);
    // Sized by the runs of equal keys, not the rows: there are no more distinct keys than runs, and
    // clustered input (lineitem by order) has a quarter as many, so the table is a quarter the size.
    const capacity = tableCapacity(keyRuns(words, rowCount));
    const next = newInt32Array(rowCount, shared).fill(EMPTY);
    const hash = new IntegerJoinHash(rowCount, newInt32Array(capacity * 3, shared), next, newKeyBits(rowCount, shared));
    await hash.insertAll(buildKey, words, turns);
    return hash;
  }

  /** The table another thread shared (read only: probes never write to it). */
  static fromShared(shared: SharedIntegerJoinHash): IntegerJoinHash {
    const hash = new IntegerJoinHash(shared.rowCount, shared.table, shared.next, shared.keyBits);
    hash.nullKeyRowIndexes = shared.nullKeyRows;
    return hash;
  }

  /** What a table over `rows` build rows retains (reserve it before building). */
  static estimateBytes(rows: number): number {
    return tableCapacity(rows) * 3 * 4 + rows * 4 + keyBitsBytes(rows);
  }

  private constructor(
    readonly rowCount: number,
    table: Int32Array,
    next: Int32Array,
    keyBits: Int32Array,
  ) {
    this.mask = table.length / 3 - 1;
    this.table = table;
    this.next = next;
    this.keyBits = keyBits;
    this.keyBitShift = keyBitShift(keyBits);
    this.keyBitsTrial = new KeyBitsTrial(keyBits.length > 0);
  }

  share(): SharedIntegerJoinHash {
    return {
      kind: 'integer',
      rowCount: this.rowCount,
      table: this.table,
      next: this.next,
      keyBits: this.keyBits,
      nullKeyRows: this.nullKeyRowIndexes,
    };
  }

  get nullKeyRows(): Int32Array {
    return this.nullKeyRowIndexes;
  }

  private async insertAll(buildKey: Column, words: Int32Array, turns: Turns | undefined): Promise<void> {
    const rowCount = this.rowCount;
    const hasNull = anyNullKey([buildKey], rowCount);
    const nullRows: number[] = [];
    // Inserting in reverse and prepending keeps each chain in build order.
    for (let end = rowCount; end > 0; end -= BUILD_SLICE_ROWS) {
      this.insertRows(words, hasNull, Math.max(0, end - BUILD_SLICE_ROWS), end, nullRows);
      await yieldIfDue(turns?.signal, turns?.stats);
    }
    this.nullKeyRowIndexes = Int32Array.from(nullRows.reverse());
  }

  private insertRows(words: Int32Array, hasNull: Uint8Array | null, first: number, end: number, nullRows: number[]): void {
    const table = this.table;
    const next = this.next;
    const mask = this.mask;
    const keyBits = this.keyBits;
    const filtered = keyBits.length > 0;
    const shift = this.keyBitShift;
    for (let row = end - 1; row >= first; row--) {
      if (hasNull !== null && hasNull[row] === 1) {
        nullRows.push(row);
        continue;
      }
      const lo = words[2 * row];
      const hi = words[2 * row + 1];
      const hash = wordsHash(lo, hi);
      if (filtered) addKeyBit(keyBits, hash, shift);
      let slot = hash & mask;
      for (;;) {
        const at = slot * 3;
        const head = table[at] - 1;
        if (head === EMPTY) {
          table[at] = row + 1;
          table[at + 1] = lo;
          table[at + 2] = hi;
          break;
        }
        if (table[at + 1] === lo && table[at + 2] === hi) {
          next[row] = head;
          table[at] = row + 1;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  }

  lookup(probeKeys: readonly Column[], count: number, out: Int32Array, probeNulls?: Uint8Array): void {
    const key = probeKeys[0];
    const words = integerKeyWords(key, count, this.probeScratch);
    if (!(key.values instanceof BigInt64Array)) this.probeScratch = words;
    const hasNull = anyNullKey(probeKeys, count);
    if (probeNulls !== undefined) {
      if (hasNull === null) probeNulls.fill(0, 0, count);
      else probeNulls.set(hasNull.subarray(0, count));
    }
    this.lookupRows(words, hasNull, count, out);
  }

  private lookupRows(words: Int32Array, hasNull: Uint8Array | null, count: number, out: Int32Array): void {
    const table = this.table;
    const mask = this.mask;
    const keyBits = this.keyBits;
    const filtered = this.keyBitsTrial.active;
    const shift = this.keyBitShift;
    let rejected = 0;
    for (let row = 0; row < count; row++) {
      if (hasNull !== null && hasNull[row] === 1) {
        out[row] = EMPTY;
        continue;
      }
      const lo = words[2 * row];
      const hi = words[2 * row + 1];
      const hash = wordsHash(lo, hi);
      if (filtered && !mayHaveKey(keyBits, hash, shift)) {
        out[row] = EMPTY;
        rejected++;
        continue;
      }
      let slot = hash & mask;
      let found = EMPTY;
      for (;;) {
        const at = slot * 3;
        const head = table[at] - 1;
        if (head === EMPTY) break;
        if (table[at + 1] === lo && table[at + 2] === hi) {
          found = head;
          break;
        }
        slot = (slot + 1) & mask;
      }
      out[row] = found;
    }
    if (filtered) this.keyBitsTrial.record(count, rejected);
  }

  sizeInBytes(): number {
    return this.table.byteLength + this.next.byteLength + this.keyBits.byteLength + this.nullKeyRowIndexes.byteLength;
  }
}
