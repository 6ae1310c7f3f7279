// A column that grows as rows are stored into it: the key storage of hash tables and the per-group
// value storage of aggregates (min, max, arbitrary, ...). Rows are copied from page columns through
// a copier specialised per storage, without boxing (int64 through its 32-bit words).

import { allocateSlots, columnFromSlots, getScalar, type Column, type ColumnValues, type SlotValues } from './page.js';
import type { Scalar } from '../types/scalar.js';
import { type SqlType, holdsStrings } from '../types/types.js';
import { MapValue } from '../types/map-value.js';
import { int64Words } from './hash-functions.js';
import { BOXED_VALUE_BYTES, POINTER_BYTES, binaryBytes, stringBytes } from './memory-estimate.js';

/** The part of a column a comparison reads: a page column, or a hash table's slots (GrowableColumn). */
export interface ColumnData {
  readonly values: SlotValues;
  readonly nulls: Uint8Array | null;
  readonly children?: readonly Column[];
}

export type RowCopier = (sourceRow: number, index: number) => void;

export class GrowableColumn implements ColumnData {
  /** The column storage, or for arrays one JS array per row (laid out as a list by toColumn). */
  values: SlotValues;
  nulls: Uint8Array | null = null;
  private capacity: number;
  /** Estimated bytes held by strings, byte arrays and long decimals (beyond the array slots). */
  private variableBytes = 0;

  constructor(
    readonly type: SqlType,
    initialCapacity = 1024,
  ) {
    this.capacity = Math.max(16, initialCapacity);
    this.values = allocateSlots(type, this.capacity);
  }

  /** Makes room for `count` rows. Copiers made before a growth must not be used after it. */
  ensureCapacity(count: number): void {
    if (count <= this.capacity) return;
    let capacity = this.capacity;
    while (capacity < count) capacity *= 2;
    const values = allocateSlots(this.type, capacity);
    if (Array.isArray(this.values)) {
      const from = this.values as unknown[];
      const to = values as unknown[];
      for (let i = 0; i < this.capacity; i++) to[i] = from[i];
    } else {
      (values as Uint8Array).set(this.values as Uint8Array);
    }
    this.values = values;
    if (this.nulls !== null) {
      const nulls = new Uint8Array(capacity);
      nulls.set(this.nulls);
      this.nulls = nulls;
    }
    this.capacity = capacity;
  }

  private ensureNulls(): Uint8Array {
    if (this.nulls === null) this.nulls = new Uint8Array(this.capacity);
    return this.nulls;
  }

  /** A function copying row `sourceRow` of `source` (same type) to row `index` of this column. */
  copierFrom(source: Column): RowCopier {
    const srcNulls = source.nulls;
    const dstNulls = srcNulls !== null ? this.ensureNulls() : this.nulls;
    const copyValue =
      this.type.kind === 'array' || this.type.kind === 'map' || this.type.kind === 'row'
        ? this.arrayCopier(source)
        : this.valueCopier(source.values);
    if (srcNulls === null) {
      if (dstNulls === null) return copyValue;
      return (s, d) => {
        dstNulls[d] = 0;
        copyValue(s, d);
      };
    }
    const nulls = dstNulls as Uint8Array;
    return (s, d) => {
      if (srcNulls[s] === 1) {
        nulls[d] = 1;
      } else {
        nulls[d] = 0;
        copyValue(s, d);
      }
    };
  }

  /** Arrays (maps) are held as JS arrays (MapValues); their elements (keys and values) are counted as boxed slots. */
  private arrayCopier(source: Column): RowCopier {
    const dst = this.values as Scalar[];
    return (s, d) => {
      const v = getScalar(source, s);
      const old = dst[d];
      this.variableBytes += (boxedSlots(v) - boxedSlots(old)) * BOXED_VALUE_BYTES;
      dst[d] = v;
    };
  }

  private valueCopier(sourceValues: ColumnValues): RowCopier {
    const kind = this.type.kind;
    if (kind === 'unknown') return () => {};
    if (sourceValues instanceof BigInt64Array) {
      const src = int64Words(sourceValues);
      const dst = int64Words(this.values as BigInt64Array);
      return (s, d) => {
        dst[2 * d] = src[2 * s];
        dst[2 * d + 1] = src[2 * s + 1];
      };
    }
    if (holdsStrings(this.type)) {
      const src = sourceValues as string[];
      const dst = this.values as string[];
      return (s, d) => {
        const v = src[s];
        const old = dst[d];
        this.variableBytes += stringBytes(v) - (old === undefined || old === '' ? 0 : stringBytes(old));
        dst[d] = v;
      };
    }
    if (kind === 'varbinary' || kind === 'sketch' || kind === 'variant') {
      const src = sourceValues as Uint8Array[];
      const dst = this.values as Uint8Array[];
      return (s, d) => {
        const v = src[s];
        const old = dst[d];
        this.variableBytes += binaryBytes(v) - (old === undefined ? 0 : binaryBytes(old));
        dst[d] = v;
      };
    }
    const src = sourceValues as Float64Array;
    const dst = this.values as Float64Array;
    return (s, d) => {
      dst[d] = src[s];
    };
  }

  /** Rows [start, end) as a column (copied). */
  toColumn(start: number, end: number): Column {
    const length = end - start;
    let nulls: Uint8Array | null = null;
    if (this.nulls !== null) {
      nulls = this.nulls.slice(start, end);
      if (nulls.indexOf(1) < 0) nulls = null;
    }
    if (this.type.kind === 'unknown') nulls = new Uint8Array(length).fill(1);
    const slots = this.values.slice(start, end) as SlotValues;
    return columnFromSlots(this.type, slots, length, nulls);
  }

  sizeInBytes(): number {
    const slots = Array.isArray(this.values) ? this.capacity * POINTER_BYTES : (this.values as Uint8Array).byteLength;
    // (array rows' elements are in variableBytes)
    const longDecimals = this.type.kind === 'decimal' && Array.isArray(this.values) ? this.capacity * BOXED_VALUE_BYTES : 0;
    return slots + longDecimals + this.variableBytes + (this.nulls === null ? 0 : this.nulls.byteLength);
  }
}

/** The boxed slots an array or map value holds (a map: its keys and values). */
function boxedSlots(v: Scalar | undefined): number {
  if (v === null || v === undefined) return 0;
  return v instanceof MapValue ? 2 * v.size : (v as readonly Scalar[]).length;
}
