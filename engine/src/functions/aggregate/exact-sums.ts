// Exact integer sums per group (sum of integers, bigint, decimal unscaled values; avg of decimals).
// Each group adds in a double while the running sum is provably exact (|sum| <= 2^53, every input
// exact); a sum that would leave that range moves into a bigint, so no value is ever rounded.

import type { Column } from '../../columnar/page.js';
import { exactDecimalColumn } from '../../columnar/exact-decimals.js';
import type { SqlType } from '../../types/types.js';
import { int64Words } from '../../columnar/hash-functions.js';
import { grow } from './accumulator-support.js';
import { isSafeInt64, readInt64Number } from '../../columnar/int64-numbers.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const int64Slot = new BigInt64Array(1);
const int64SlotWords = int64Words(int64Slot);

/** Throws when `sum` (= before + added) is out of the result type's range. */
export type RangeCheck = (before: bigint, added: bigint, sum: bigint) => void;

export class ExactSums {
  private fast = new Float64Array(16);
  /** The part of a group's sum beyond the exact double range; total = slow + fast. */
  private slow: (bigint | undefined)[] = [];
  private slowGroups = 0;
  has = new Uint8Array(16);

  constructor(private readonly check: RangeCheck) {}

  ensureCapacity(groupCount: number): void {
    this.fast = grow(this.fast, groupCount);
    this.has = grow(this.has, groupCount);
  }

  /** Adds the non-NULL rows [start, end) of an integral, bigint or decimal column. */
  addColumn(groupIds: Int32Array, column: Column, start: number, end: number): void {
    const nulls = column.nulls;
    if (column.type.kind === 'unknown') return;
    if (column.exact !== undefined) {
      // Before `values` is read: reading it would make the bigints the doubles spare.
      this.addExact(groupIds, column.exact, nulls, start, end);
      return;
    }
    const values = column.values;
    const fast = this.fast;
    const has = this.has;
    if (values instanceof BigInt64Array) {
      const words = int64Words(values);
      for (let i = start; i < end; i++) {
        if (nulls !== null && nulls[i] === 1) continue;
        const g = groupIds[i];
        has[g] = 1;
        if (!isSafeInt64(words, i)) {
          this.addBigint(g, values[i]);
          continue;
        }
        const s = fast[g] + readInt64Number(words, i);
        if (s > MAX_SAFE || s < -MAX_SAFE) this.addBigint(g, values[i]);
        else fast[g] = s;
      }
      return;
    }
    if (Array.isArray(values)) {
      // Long decimals (a product of two short ones, say) are read through an int64 slot: V8 stores
      // and compares a bigint there several times faster than Number(bigint) converts one. A value
      // the slot does not hold unchanged (beyond int64) or beyond 2^53 goes to the bigint part.
      const big = values as bigint[];
      for (let i = start; i < end; i++) {
        if (nulls !== null && nulls[i] === 1) continue;
        const g = groupIds[i];
        has[g] = 1;
        const v = big[i];
        int64Slot[0] = v;
        if (int64Slot[0] !== v || !isSafeInt64(int64SlotWords, 0)) {
          this.addBigint(g, v);
          continue;
        }
        const s = fast[g] + readInt64Number(int64SlotWords, 0);
        if (s > MAX_SAFE || s < -MAX_SAFE) this.addBigint(g, v);
        else fast[g] = s;
      }
      return;
    }
    const nums = values as Int32Array;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const g = groupIds[i];
      has[g] = 1;
      const s = fast[g] + nums[i];
      if (s > MAX_SAFE || s < -MAX_SAFE) this.addBigint(g, BigInt(nums[i]));
      else fast[g] = s;
    }
  }

  /** Adds exact doubles (exact-decimals.ts): no input value needs a check, only the running sums. */
  private addExact(groupIds: Int32Array, exact: Float64Array, nulls: Uint8Array | null, start: number, end: number): void {
    const fast = this.fast;
    const has = this.has;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const g = groupIds[i];
      has[g] = 1;
      const s = fast[g] + exact[i];
      if (s > MAX_SAFE || s < -MAX_SAFE) this.addBigint(g, BigInt(exact[i]));
      else fast[g] = s;
    }
  }

  private addBigint(group: number, value: bigint): void {
    const before = this.total(group);
    const sum = before + value;
    this.check(before, value, sum);
    if (this.slow[group] === undefined) this.slowGroups++;
    this.slow[group] = sum;
    this.fast[group] = 0;
  }

  /** The exact sum of a group. */
  total(group: number): bigint {
    const fast = BigInt(this.fast[group]);
    if (this.slowGroups === 0) return fast;
    const slow = this.slow[group];
    return slow === undefined ? fast : slow + fast;
  }

  /** The exact sum, checked against the range once more (the double part may have pushed it over). */
  checkedTotal(group: number): bigint {
    const slow = this.slowGroups === 0 ? undefined : this.slow[group];
    if (slow === undefined) return BigInt(this.fast[group]);
    const fast = BigInt(this.fast[group]);
    this.check(slow, fast, slow + fast);
    return slow + fast;
  }

  /**
   * The sums of groups [start, end) as an exact-decimal column of `type` (NULL where a group has no
   * value), or undefined when `type` is not a decimal or a sum left the double range.
   */
  exactColumn(type: SqlType, start: number, end: number): Column | undefined {
    if (type.kind !== 'decimal') return undefined;
    if (this.slowGroups > 0) for (let g = start; g < end; g++) if (this.slow[g] !== undefined) return undefined;
    const length = end - start;
    let nulls: Uint8Array | null = null;
    for (let g = start; g < end; g++) {
      if (this.has[g] === 1) continue;
      nulls ??= new Uint8Array(length);
      nulls[g - start] = 1;
    }
    return exactDecimalColumn(type, length, nulls, this.fast.slice(start, end));
  }

  /** The sum as a double when it is still exact in one, else undefined. */
  fastTotal(group: number): number | undefined {
    return this.slowGroups === 0 || this.slow[group] === undefined ? this.fast[group] : undefined;
  }

  sizeInBytes(): number {
    return this.fast.byteLength + this.has.byteLength + this.slowGroups * 32 + this.slow.length * 8;
  }
}
