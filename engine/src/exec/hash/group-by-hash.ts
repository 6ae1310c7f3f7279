// Maps key rows to dense group ids (0, 1, 2, ...) in first-seen order: the table behind GROUP BY,
// DISTINCT, distinct aggregates and set operations. Open addressing with linear probing over an
// Int32Array of group ids; each group's hash is kept so probes compare hashes before keys and
// rehashing never re-reads keys. Keys compare with IS NOT DISTINCT semantics (NULLs group together).

import type { Column } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { GrowableColumn } from '../../columnar/growable-column.js';
import { hashRows } from '../../columnar/hash-functions.js';
import { makeKeyEquals, type RowEquals } from './row-equality.js';
import type { KeyGroupTable } from './key-group-table.js';

const EMPTY = -1;

export class GroupByHash implements KeyGroupTable {
  private readonly keys: GrowableColumn[];
  private slots: Int32Array;
  private mask: number;
  private groupHashes: Int32Array;
  private count = 0;
  private hashes = new Int32Array(0);

  constructor(
    readonly types: readonly SqlType[],
    expectedGroups = 1024,
  ) {
    const capacity = tableCapacity(expectedGroups);
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
    this.groupHashes = new Int32Array(Math.max(16, expectedGroups));
    this.keys = types.map((t) => new GrowableColumn(t, expectedGroups));
  }

  get groupCount(): number {
    return this.count;
  }

  /**
   * Writes the group id of rows [0, count) of the key columns into `groupIds`, adding a group for
   * each key not seen before. A row starts a new group exactly when its id equals the group count
   * before it (ids are handed out in row order).
   */
  putRows(keyColumns: readonly Column[], count: number, groupIds: Int32Array): void {
    this.ensureGroupCapacity(this.count + count);
    const hashes = this.hashRowsOf(keyColumns, count);
    // Copiers first: they may allocate the null masks the equality then reads.
    const copiers = this.keys.map((k, c) => k.copierFrom(keyColumns[c]));
    const equals = this.equalsFor(keyColumns);
    const copierCount = copiers.length;
    for (let row = 0; row < count; row++) {
      const h = hashes[row];
      let slot = h & this.mask;
      for (;;) {
        const g = this.slots[slot];
        if (g === EMPTY) {
          const id = this.count++;
          for (let c = 0; c < copierCount; c++) copiers[c](row, id);
          this.groupHashes[id] = h;
          this.slots[slot] = id;
          groupIds[row] = id;
          if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
          break;
        }
        if (this.groupHashes[g] === h && equals(row, g)) {
          groupIds[row] = g;
          break;
        }
        slot = (slot + 1) & this.mask;
      }
    }
  }

  /** Like putRows but adds nothing: rows whose key is not present get -1. */
  getRows(keyColumns: readonly Column[], count: number, groupIds: Int32Array): void {
    const hashes = this.hashRowsOf(keyColumns, count);
    const equals = this.equalsFor(keyColumns);
    for (let row = 0; row < count; row++) {
      const h = hashes[row];
      let slot = h & this.mask;
      for (;;) {
        const g = this.slots[slot];
        if (g === EMPTY) {
          groupIds[row] = -1;
          break;
        }
        if (this.groupHashes[g] === h && equals(row, g)) {
          groupIds[row] = g;
          break;
        }
        slot = (slot + 1) & this.mask;
      }
    }
  }

  /** The key columns of groups [start, end). */
  keyColumns(start: number, end: number): Column[] {
    return this.keys.map((k) => k.toColumn(start, end));
  }

  /** Nothing pooled yet: its arrays are freed by the garbage collector. */
  release(): void {}

  sizeInBytes(): number {
    let bytes = this.slots.byteLength + this.groupHashes.byteLength + this.hashes.byteLength;
    for (const k of this.keys) bytes += k.sizeInBytes();
    return bytes;
  }

  private hashRowsOf(keyColumns: readonly Column[], count: number): Int32Array {
    if (this.hashes.length < count) this.hashes = new Int32Array(count);
    hashRows(keyColumns, count, this.hashes);
    return this.hashes;
  }

  private equalsFor(keyColumns: readonly Column[]): RowEquals {
    return makeKeyEquals(this.types, keyColumns, this.keys, true);
  }

  private ensureGroupCapacity(groups: number): void {
    for (const k of this.keys) k.ensureCapacity(groups);
    if (groups > this.groupHashes.length) {
      const next = new Int32Array(Math.max(groups, this.groupHashes.length * 2));
      next.set(this.groupHashes);
      this.groupHashes = next;
    }
  }

  private rehash(capacity: number): void {
    const slots = new Int32Array(capacity).fill(EMPTY);
    const mask = capacity - 1;
    for (let g = 0; g < this.count; g++) {
      let slot = this.groupHashes[g] & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = g;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** A power of two at least twice `entries`, so the table stays at most half full. */
export function tableCapacity(entries: number): number {
  let capacity = 16;
  while (capacity < entries * 2) capacity *= 2;
  return capacity;
}
