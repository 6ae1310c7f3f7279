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
import { regionOf, tableRegions, type TableRegions } from './table-regions.js';

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
  return integerKeyWordsFrom(column, 0, count, scratch);
}

/**
 * A probe page's one integer key: its int64 words (a narrower key widened into `scratch`), its
 * rows' NULL flags (copied into `probeNulls` when given), and the scratch to keep for the next page.
 */
export function integerProbeKeys(
  probeKeys: readonly Column[],
  count: number,
  scratch: Int32Array | undefined,
  probeNulls?: Uint8Array,
): { words: Int32Array; hasNull: Uint8Array | null; scratch: Int32Array | undefined } {
  const key = probeKeys[0];
  const words = integerKeyWords(key, count, scratch);
  const hasNull = anyNullKey(probeKeys, count);
  if (probeNulls !== undefined) {
    if (hasNull === null) probeNulls.fill(0, 0, count);
    else probeNulls.set(hasNull.subarray(0, count));
  }
  return { words, hasNull, scratch: key.values instanceof BigInt64Array ? scratch : words };
}

/** integerKeyWords of rows [from, end): row r's words at 2 (r - from) and 2 (r - from) + 1. */
function integerKeyWordsFrom(column: Column, from: number, end: number, scratch?: Int32Array): Int32Array {
  const values = column.values;
  if (values instanceof BigInt64Array) return int64Words(values.subarray(from, end));
  if (!(values instanceof Int32Array || values instanceof Int16Array || values instanceof Int8Array)) {
    throw new Error(`Integer join key expected, got ${column.type.kind}`);
  }
  const count = end - from;
  const words = scratch !== undefined && scratch.length >= 2 * count ? scratch : new Int32Array(2 * count);
  for (let i = 0; i < count; i++) {
    const v = values[from + i];
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

/**
 * How many runs of equal keys rows [0, count) of an integer column make: at least their distinct keys
 * (read in place: no words copied).
 */
export function keyRunsOf(column: Column, count: number): number {
  const values = column.values;
  if (values instanceof BigInt64Array) return keyRuns(int64Words(values), count);
  if (!(values instanceof Int32Array || values instanceof Int16Array || values instanceof Int8Array)) {
    throw new Error(`Integer join key expected, got ${column.type.kind}`);
  }
  let runs = count > 0 ? 1 : 0;
  for (let row = 1; row < count; row++) if (values[row] !== values[row - 1]) runs++;
  return runs;
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
  /** Its slots cut into regions when threads filled it (table-regions); one region otherwise. */
  private readonly regions: TableRegions;
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
    const hash = new IntegerJoinHash(rowCount, newInt32Array(capacity * 3, shared), next, newKeyBits(rowCount, shared), 0);
    await hash.insertAll(buildKey, words, turns);
    return hash;
  }

  /**
   * The empty table over `rowCount` rows of `buildKey` cut into 2^regionBits regions, for threads to
   * fill (insertRegion); sized by the key's runs as build sizes it (a table sized by the rows was 3x
   * bigger on lineitem's order keys, and its random writes and probes cost more than the threads saved).
   */
  static empty(buildKey: Column, rowCount: number, regionBits: number, shared: boolean): IntegerJoinHash {
    const capacity = tableCapacity(keyRunsOf(buildKey, rowCount));
    const next = newInt32Array(rowCount, shared).fill(EMPTY);
    return new IntegerJoinHash(rowCount, newInt32Array(capacity * 3, shared), next, newKeyBits(rowCount, shared), regionBits);
  }

  /** The table another thread shared (probed read only, or filled region by region). */
  static fromShared(shared: SharedIntegerJoinHash): IntegerJoinHash {
    const hash = new IntegerJoinHash(shared.rowCount, shared.table, shared.next, shared.keyBits, shared.regionBits);
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
    regionBits: number,
  ) {
    this.regions = tableRegions(table.length / 3, regionBits);
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
      regionBits: this.regions.regionBits,
    };
  }

  get nullKeyRows(): Int32Array {
    return this.nullKeyRowIndexes;
  }

  /** Sets the rows with a NULL key (a table filled by threads: they only skip them). */
  set nullKeyRows(rows: Int32Array) {
    this.nullKeyRowIndexes = rows;
  }

  /**
   * In a worker thread, the first step of a fill by threads: the hashes of rows [from, end) of
   * `buildKey` into `hashes` (so that each thread filling a region skips the others' rows by their
   * hash instead of hashing every key again).
   */
  static hashRange(buildKey: Column, hashes: Int32Array, from: number, end: number): void {
    let scratch: Int32Array | undefined;
    for (let first = from; first < end; first += BUILD_SLICE_ROWS) {
      const last = Math.min(end, first + BUILD_SLICE_ROWS);
      const words = integerKeyWordsFrom(buildKey, first, last, scratch);
      if (!(buildKey.values instanceof BigInt64Array)) scratch = words;
      for (let row = first; row < last; row++) hashes[row] = wordsHash(words[2 * (row - first)], words[2 * (row - first) + 1]);
    }
  }

  /**
   * In a worker thread, once every row is hashed (hashRange): inserts the rows of `buildKey` whose
   * keys fall in `region`, in the shared table. False when the region ran out of slots (keys this
   * skewed: the caller builds in one thread).
   */
  insertRegion(buildKey: Column, hashes: Int32Array, region: number): boolean {
    const hasNull = anyNullKey([buildKey], this.rowCount);
    let room = this.regions.regionMask;
    let scratch: Int32Array | undefined;
    for (let end = this.rowCount; end > 0 && room > 0; end -= BUILD_SLICE_ROWS) {
      const first = Math.max(0, end - BUILD_SLICE_ROWS);
      const words = integerKeyWordsFrom(buildKey, first, end, scratch);
      if (!(buildKey.values instanceof BigInt64Array)) scratch = words;
      room = this.insertRows(words, first, hasNull, first, end, [], region, room, hashes);
    }
    return room > 0;
  }

  private async insertAll(buildKey: Column, words: Int32Array, turns: Turns | undefined): Promise<void> {
    const rowCount = this.rowCount;
    const hasNull = anyNullKey([buildKey], rowCount);
    const nullRows: number[] = [];
    // Inserting in reverse and prepending keeps each chain in build order.
    const everyRegion = -1;
    for (let end = rowCount; end > 0; end -= BUILD_SLICE_ROWS) {
      this.insertRows(words, 0, hasNull, Math.max(0, end - BUILD_SLICE_ROWS), end, nullRows, everyRegion, rowCount + 1);
      await yieldIfDue(turns?.signal, turns?.stats);
    }
    this.nullKeyRowIndexes = Int32Array.from(nullRows.reverse());
  }

  /**
   * Inserts rows [first, end) (in reverse: each chain stays in build order) whose words start at row
   * `wordsFrom`, those of `region` only (-1: every row); `room`: new keys the region still takes
   * (one slot is always left empty, where probes stop); `hashes`: the rows' hashes, made already.
   * Returns the room left, 0 when it ran out.
   */
  private insertRows(
    words: Int32Array,
    wordsFrom: number,
    hasNull: Uint8Array | null,
    first: number,
    end: number,
    nullRows: number[],
    region: number,
    room: number,
    hashes?: Int32Array,
  ): number {
    const table = this.table;
    const next = this.next;
    const { regionBits, regionLog2, regionMask } = this.regions;
    const keyBits = this.keyBits;
    const filtered = keyBits.length > 0;
    const shift = this.keyBitShift;
    for (let row = end - 1; row >= first; row--) {
      if (hasNull !== null && hasNull[row] === 1) {
        nullRows.push(row);
        continue;
      }
      const at = 2 * (row - wordsFrom);
      const hash = hashes === undefined ? wordsHash(words[at], words[at + 1]) : hashes[row];
      const keyRegion = regionBits === 0 ? 0 : regionOf(hash, regionBits);
      if (region >= 0 && keyRegion !== region) continue;
      const lo = words[at];
      const hi = words[at + 1];
      if (filtered) addKeyBit(keyBits, hash, shift);
      const base = keyRegion << regionLog2;
      let slot = base | (hash & regionMask);
      for (;;) {
        const entry = slot * 3;
        const head = table[entry] - 1;
        if (head === EMPTY) {
          if (--room === 0) return 0;
          table[entry] = row + 1;
          table[entry + 1] = lo;
          table[entry + 2] = hi;
          break;
        }
        if (table[entry + 1] === lo && table[entry + 2] === hi) {
          next[row] = head;
          table[entry] = row + 1;
          break;
        }
        slot = base | ((slot + 1) & regionMask);
      }
    }
    return room;
  }

  lookup(probeKeys: readonly Column[], count: number, out: Int32Array, probeNulls?: Uint8Array): void {
    const { words, hasNull, scratch } = integerProbeKeys(probeKeys, count, this.probeScratch, probeNulls);
    this.probeScratch = scratch;
    this.lookupRows(words, hasNull, count, out);
  }

  private lookupRows(words: Int32Array, hasNull: Uint8Array | null, count: number, out: Int32Array): void {
    const table = this.table;
    const { regionBits, regionLog2, regionMask } = this.regions;
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
      const base = regionBits === 0 ? 0 : regionOf(hash, regionBits) << regionLog2;
      let slot = base | (hash & regionMask);
      let found = EMPTY;
      for (;;) {
        const at = slot * 3;
        const head = table[at] - 1;
        if (head === EMPTY) break;
        if (table[at + 1] === lo && table[at + 2] === hi) {
          found = head;
          break;
        }
        slot = base | ((slot + 1) & regionMask);
      }
      out[row] = found;
    }
    if (filtered) this.keyBitsTrial.record(count, rejected);
  }

  sizeInBytes(): number {
    return this.table.byteLength + this.next.byteLength + this.keyBits.byteLength + this.nullKeyRowIndexes.byteLength;
  }
}
