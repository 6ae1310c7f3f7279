// The group-by table for one or two integer keys (tinyint through bigint, date, short decimal):
// the common GROUP BY l_orderkey / o_custkey shape. Each key is held as the two 32-bit words of its
// int64 value in one Int32Array, and each slot of the open-addressing table holds a group id beside
// that group's hash, so a probe reads one cache line for both and compares words directly — no
// per-row closures, no boxed values. NULL keys are a bit in a per-group mask (IS NOT DISTINCT).
//
// One key starts in key order: its slot comes from the key's low bits unmixed, so keys that arrive
// in order (lineitem by order key, most TPC-H keys) go to neighbouring slots and a new group costs
// no cache miss: on q18's 1.5M orders a mixed hash spent most of the grouping waiting for memory.
// Keys whose low bits collide (multiples of a power of two) would make long probe chains, so once
// the probes have gone past a budget of collisions the table mixes its hashes like any other.

import type { Column } from '../../columnar/page.js';
import { allocateValues } from '../../columnar/page.js';
import { combineHash, int64Words } from '../../columnar/hash-functions.js';
import type { SqlType } from '../../types/types.js';
import { EngineError } from '../../errors/engine-error.js';
import { tableCapacity } from './group-by-hash.js';
import { integerKeyWords, isIntegerKeyType, wordsHash } from './integer-join-hash.js';
import type { KeyGroupTable } from './key-group-table.js';
import { pooledInt32Array, pooledUint8Array, releasePooled, retainedBytes } from '../buffer-pool.js';

const EMPTY = -1;
const NULL_MASK_SEED = 0x61c88647;
/** Collisions per probe, beyond a fixed allowance, from which key order stops paying: a mixed hash makes about one. */
const ORDERED_COLLISIONS_PER_PROBE = 4;
const ORDERED_COLLISION_ALLOWANCE = 65536;

/** Whether the keys are one or two integers of at most 64 bits, compared by value. */
export function hasIntegerKeys(types: readonly SqlType[]): boolean {
  return types.length > 0 && types.length <= 2 && types.every(isIntegerKeyType);
}

type IntegerValues = Int8Array | Int16Array | Int32Array | BigInt64Array;

export class IntegerGroupByHash implements KeyGroupTable {
  private readonly width: number;
  /** Per group: the words (lo, hi) of each key. */
  private keyWords: Int32Array;
  /** Per group: bit c set when key c is NULL. */
  private nullMasks: Uint8Array;
  /** Per slot: group id at 2s (EMPTY when free), the group's hash at 2s + 1. */
  private slots: Int32Array;
  private mask: number;
  private count = 0;
  private sawNull = false;
  /** Slots by key order (one key only, until too many collisions), else by a mixed hash. */
  private ordered: boolean;
  private probes = 0;
  private collisions = 0;
  /** Scratch: the current row's words. */
  private readonly row = new Int32Array(4);
  /** Scratch: the widened words of narrow key columns, per key. */
  private readonly scratch: (Int32Array | undefined)[] = [undefined, undefined];

  constructor(
    readonly types: readonly SqlType[],
    expectedGroups = 1024,
  ) {
    if (!hasIntegerKeys(types)) throw new EngineError('GENERIC_INTERNAL_ERROR', 'IntegerGroupByHash needs one or two integer keys');
    this.width = 2 * types.length;
    this.ordered = this.width === 2;
    const capacity = tableCapacity(expectedGroups);
    this.slots = pooledInt32Array(2 * capacity, EMPTY);
    this.mask = capacity - 1;
    const groups = Math.max(16, expectedGroups);
    this.keyWords = pooledInt32Array(groups * this.width);
    this.nullMasks = pooledUint8Array(groups, false);
  }

  get groupCount(): number {
    return this.count;
  }

  putRows(keyColumns: readonly Column[], count: number, groupIds: Int32Array): void {
    this.find(keyColumns, count, groupIds, true);
  }

  getRows(keyColumns: readonly Column[], count: number, groupIds: Int32Array): void {
    this.find(keyColumns, count, groupIds, false);
  }

  private find(keyColumns: readonly Column[], count: number, groupIds: Int32Array, add: boolean): void {
    if (add) this.ensureGroupCapacity(this.count + count);
    const firstWords = integerKeyWords(keyColumns[0], count, this.scratch[0]);
    const firstNulls = keyColumns[0].nulls;
    if (!(keyColumns[0].values instanceof BigInt64Array)) this.scratch[0] = firstWords;
    const row = this.row;
    if (this.width === 2 && firstNulls === null) {
      // The common shape (one non-null key) without the NULL and second-key branches. A row with
      // the key of the row before it (clustered input: lineitem by order) takes its group unprobed.
      let previous = -1;
      for (let r = 0; r < count; r++) {
        const lo = firstWords[2 * r];
        const hi = firstWords[2 * r + 1];
        if (previous >= 0 && lo === row[0] && hi === row[1]) {
          groupIds[r] = previous;
          continue;
        }
        row[0] = lo;
        row[1] = hi;
        previous = this.findRow(this.ordered ? orderedHash(lo, hi) : wordsHash(lo, hi), 0, add);
        groupIds[r] = previous;
      }
      return;
    }
    const secondWords = this.width === 4 ? integerKeyWords(keyColumns[1], count, this.scratch[1]) : null;
    const secondNulls = this.width === 4 ? keyColumns[1].nulls : null;
    if (secondWords !== null && !(keyColumns[1].values instanceof BigInt64Array)) this.scratch[1] = secondWords;
    for (let r = 0; r < count; r++) {
      let nullMask = readKey(firstWords, firstNulls, r, row, 0) ? 1 : 0;
      if (secondWords !== null && readKey(secondWords, secondNulls, r, row, 2)) nullMask |= 2;
      groupIds[r] = this.findRow(this.rowHash(nullMask), nullMask, add);
    }
  }

  /** The hash of the key in `this.row` with NULL bits `nullMask`, as the table's mode has it. */
  private rowHash(nullMask: number): number {
    const row = this.row;
    let h = this.ordered ? orderedHash(row[0], row[1]) : wordsHash(row[0], row[1]);
    if (this.width === 4) h = combineHash(h, wordsHash(row[2], row[3]));
    return nullMask === 0 ? h : combineHash(h, NULL_MASK_SEED + nullMask);
  }

  /** The group of the key in `this.row` with hash `h`; a new one when absent and `add`, else -1. */
  private findRow(h: number, nullMask: number, add: boolean): number {
    const slots = this.slots;
    const keyWords = this.keyWords;
    const row = this.row;
    const width = this.width;
    let slot = h & this.mask;
    this.probes++;
    for (;;) {
      const g = slots[2 * slot];
      if (g === EMPTY) {
        if (!add) return -1;
        const id = this.count++;
        const at = id * width;
        keyWords[at] = row[0];
        keyWords[at + 1] = row[1];
        if (width === 4) {
          keyWords[at + 2] = row[2];
          keyWords[at + 3] = row[3];
        }
        this.nullMasks[id] = nullMask;
        if (nullMask !== 0) this.sawNull = true;
        slots[2 * slot] = id;
        slots[2 * slot + 1] = h;
        if (this.count * 2 > this.mask + 1) this.rehash(2 * (this.mask + 1));
        return id;
      }
      if (slots[2 * slot + 1] === h) {
        const at = g * width;
        if (
          keyWords[at] === row[0] &&
          keyWords[at + 1] === row[1] &&
          (width === 2 || (keyWords[at + 2] === row[2] && keyWords[at + 3] === row[3])) &&
          this.nullMasks[g] === nullMask
        ) {
          return g;
        }
      }
      slot = (slot + 1) & this.mask;
      if (this.ordered && ++this.collisions > ORDERED_COLLISIONS_PER_PROBE * this.probes + ORDERED_COLLISION_ALLOWANCE) {
        this.mixHashes();
        return this.findRow(this.rowHash(nullMask), nullMask, add);
      }
    }
  }

  /** Leaves key order: every group's slot again from a mixed hash. */
  private mixHashes(): void {
    this.ordered = false;
    const slots = this.slots.fill(EMPTY);
    const mask = this.mask;
    for (let g = 0; g < this.count; g++) {
      const at = g * this.width;
      let h = wordsHash(this.keyWords[at], this.keyWords[at + 1]);
      if (this.nullMasks[g] !== 0) h = combineHash(h, NULL_MASK_SEED + this.nullMasks[g]);
      let slot = h & mask;
      while (slots[2 * slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[2 * slot] = g;
      slots[2 * slot + 1] = h;
    }
  }

  keyColumns(start: number, end: number): Column[] {
    const length = end - start;
    return this.types.map((type, c) => {
      const values = allocateValues(type, length) as IntegerValues;
      const wordOffset = 2 * c;
      if (values instanceof BigInt64Array) {
        const out = int64Words(values);
        for (let i = 0; i < length; i++) {
          const at = (start + i) * this.width + wordOffset;
          out[2 * i] = this.keyWords[at];
          out[2 * i + 1] = this.keyWords[at + 1];
        }
      } else {
        for (let i = 0; i < length; i++) values[i] = this.keyWords[(start + i) * this.width + wordOffset];
      }
      return { type, length, values, nulls: this.keyNulls(c, start, end) };
    });
  }

  private keyNulls(key: number, start: number, end: number): Uint8Array | null {
    if (!this.sawNull) return null;
    const bit = 1 << key;
    let nulls: Uint8Array | null = null;
    for (let g = start; g < end; g++) {
      if ((this.nullMasks[g] & bit) === 0) continue;
      nulls ??= new Uint8Array(end - start);
      nulls[g - start] = 1;
    }
    return nulls;
  }

  sizeInBytes(): number {
    return retainedBytes(this.slots) + retainedBytes(this.keyWords) + retainedBytes(this.nullMasks);
  }

  /** Gives the table's arrays back to the buffer pool; the table holds no groups after. */
  release(): void {
    releasePooled(this.slots);
    releasePooled(this.keyWords);
    releasePooled(this.nullMasks);
    this.slots = pooledInt32Array(2, EMPTY);
    this.mask = 0;
    this.keyWords = new Int32Array(0);
    this.nullMasks = new Uint8Array(0);
    this.count = 0;
  }

  private ensureGroupCapacity(groups: number): void {
    if (groups <= this.nullMasks.length) return;
    const capacity = Math.max(groups, 2 * this.nullMasks.length);
    // Groups are written before they are read: the new arrays need no zeroing.
    const keyWords = pooledInt32Array(capacity * this.width);
    keyWords.set(this.keyWords);
    releasePooled(this.keyWords);
    this.keyWords = keyWords;
    const nullMasks = pooledUint8Array(capacity, false);
    nullMasks.set(this.nullMasks);
    releasePooled(this.nullMasks);
    this.nullMasks = nullMasks;
  }

  private rehash(capacity: number): void {
    const old = this.slots;
    const slots = pooledInt32Array(2 * capacity, EMPTY);
    const mask = capacity - 1;
    for (let s = 0; s < old.length; s += 2) {
      const g = old[s];
      if (g === EMPTY) continue;
      const h = old[s + 1];
      let slot = h & mask;
      while (slots[2 * slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[2 * slot] = g;
      slots[2 * slot + 1] = h;
    }
    releasePooled(old);
    this.slots = slots;
    this.mask = mask;
  }
}

/** A one-word hash keeping neighbouring keys in neighbouring slots (the high word still counts). */
function orderedHash(lo: number, hi: number): number {
  return lo ^ Math.imul(hi, 0x9e3779b1);
}

/** Reads row `r` of a key's words into words `at`, `at + 1` of `out`; true when the row is NULL (words 0). */
function readKey(words: Int32Array, nulls: Uint8Array | null, r: number, out: Int32Array, at: number): boolean {
  const isNull = nulls !== null && nulls[r] === 1;
  out[at] = isNull ? 0 : words[2 * r];
  out[at + 1] = isNull ? 0 : words[2 * r + 1];
  return isNull;
}
