// Ordering of typed values as Trino orders them: numbers numerically with NaN above every other
// double, strings by code point (not UTF-16 code unit), varbinary by unsigned bytes, false < true.
// Comparators are specialised per storage and read typed arrays directly.

import type { Column, ColumnValues } from '../page.js';
import type { SqlType } from '../../types/types.js';
import { int64Words } from '../hash/hash-functions.js';
import type { ColumnData } from '../hash/row-equality.js';
import type { SortKey } from './operator.js';

/** Compares row i of one column with row j of another; negative, zero or positive. */
export type RowCompare = (i: number, j: number) => number;

/** NaN is the largest double, as in Trino's ordering. */
export function compareNumbers(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  const aNaN = a !== a;
  const bNaN = b !== b;
  return aNaN === bNaN ? 0 : aNaN ? 1 : -1;
}

/** Surrogates (U+D800..DFFF) encode code points above U+FFFF, so they sort after U+E000..FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}

/** Code point order (what comparing UTF-8 bytes gives). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x < 0xd800 && y < 0xd800 ? x - y : codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

export function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares non-NULL values: row i of `left` with row j of `right`. */
export function makeValueCompare(type: SqlType, left: ColumnValues, right: ColumnValues): RowCompare {
  const kind = type.kind;
  if (kind === 'unknown') return () => 0;
  if (left instanceof BigInt64Array) {
    const a = int64Words(left);
    const b = int64Words(right as BigInt64Array);
    return (i, j) => a[2 * i + 1] - b[2 * j + 1] || (a[2 * i] >>> 0) - (b[2 * j] >>> 0);
  }
  if (kind === 'varchar' || kind === 'char') {
    const a = left as string[];
    const b = right as string[];
    return (i, j) => compareStrings(a[i], b[j]);
  }
  if (kind === 'varbinary') {
    const a = left as Uint8Array[];
    const b = right as Uint8Array[];
    return (i, j) => compareBytes(a[i], b[j]);
  }
  if (Array.isArray(left)) {
    const a = left as bigint[];
    const b = right as bigint[];
    return (i, j) => compareBigints(a[i], b[j]);
  }
  const a = left as Float64Array;
  const b = right as Float64Array;
  if (kind === 'double' || kind === 'real') return (i, j) => compareNumbers(a[i], b[j]);
  return (i, j) => a[i] - b[j];
}

/** A comparator for one sort key, with direction and NULL placement. */
export function makeKeyCompare(type: SqlType, left: ColumnData, right: ColumnData, ascending: boolean, nullsFirst: boolean): RowCompare {
  const values = makeValueCompare(type, left.values, right.values);
  const compare = ascending ? values : (i: number, j: number) => values(j, i);
  const ln = type.kind === 'unknown' ? null : left.nulls;
  const rn = type.kind === 'unknown' ? null : right.nulls;
  if (ln === null && rn === null) return compare;
  const nullOrder = nullsFirst ? -1 : 1;
  return (i, j) => {
    const a = ln !== null && ln[i] === 1;
    const b = rn !== null && rn[j] === 1;
    if (a || b) return a === b ? 0 : a ? nullOrder : -nullOrder;
    return compare(i, j);
  };
}

/** Lexicographic comparison over sort keys of two pages' columns (of the same layout). */
export function makeRowCompare(keys: readonly SortKey[], left: readonly Column[], right: readonly Column[]): RowCompare {
  const parts = keys.map((k) => makeKeyCompare(left[k.channel].type, left[k.channel], right[k.channel], k.ascending, k.nullsFirst));
  if (parts.length === 0) return () => 0;
  if (parts.length === 1) return parts[0];
  return (i, j) => {
    for (let k = 0; k < parts.length; k++) {
      const c = parts[k](i, j);
      if (c !== 0) return c;
    }
    return 0;
  };
}
