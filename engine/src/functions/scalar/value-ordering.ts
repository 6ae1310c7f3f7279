// Ordering of typed values as Trino orders them: numbers numerically with NaN above every other
// double, strings by code point (not UTF-16 code unit), varbinary by unsigned bytes, false < true.
// Comparators are specialised per storage and read typed arrays directly.

import { compareNumberTexts } from '../../types/number/number-value.js';
import { getScalar, hasChildColumns, type Column, type ColumnValues } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { scalarComparator } from './value-comparison.js';
import { rowComparator } from './row-comparison.js';
import type { RowType } from '../../types/row-type.js';
import { compareChars, compareStrings } from '../../types/chars.js';
import { SHORT_DECIMAL_PRECISION, type SqlType } from '../../types/types.js';
import { int64Words } from '../../columnar/hash-functions.js';
import { isLongPlain } from '../../types/long-plain-temporal.js';

/** One key of an ordering: a column (by channel), its direction and where its NULLs go. */
export interface SortKey {
  channel: number;
  ascending: boolean;
  /** Trino's default is NULLS LAST for both ASC and DESC. */
  nullsFirst: boolean;
}

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

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

export function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A column's values in the form comparators read (int64 as its 32-bit words). */
export type PreparedValues = ArrayLike<unknown>;

export function prepareValues(values: ColumnValues): PreparedValues {
  return values instanceof BigInt64Array ? int64Words(values) : values;
}

/** prepareValues of a column; array columns as one JS array per row (their comparator reads those). */
export function prepareColumn(column: Column): PreparedValues {
  if (!hasChildColumns(column.type)) return prepareValues(column.values);
  const rows = new Array<Scalar>(column.length);
  for (let i = 0; i < column.length; i++) rows[i] = getScalar(column, i);
  return rows;
}

/** Compares prepared non-NULL values a[i] and b[j]. */
export type ValueCompare = (a: PreparedValues, i: number, b: PreparedValues, j: number) => number;

const compareInt64Words: ValueCompare = (a, i, b, j) => {
  const x = a as Int32Array;
  const y = b as Int32Array;
  return x[2 * i + 1] - y[2 * j + 1] || (x[2 * i] >>> 0) - (y[2 * j] >>> 0);
};

/** Zoned timestamps (instant << 12 | zone key) by instant: the zone key, in the low word's low 12 bits, is ignored. */
const compareZonedInstantWords: ValueCompare = (a, i, b, j) => {
  const x = a as Int32Array;
  const y = b as Int32Array;
  return x[2 * i + 1] - y[2 * j + 1] || (x[2 * i] >>> 12) - (y[2 * j] >>> 12);
};

/** Long zoned timestamps and zoned times (bigint[]) by `value >> 12`. */
const compareBigintInstants: ValueCompare = (a, i, b, j) => compareBigints((a as bigint[])[i] >> 12n, (b as bigint[])[j] >> 12n);

/** The comparison of one type's values, unbound from any column (`nullsFirst`: the sort key's, for NULL fields of rows). */
export function valueCompareFor(type: SqlType, nullsFirst = false): ValueCompare {
  switch (type.kind) {
    case 'unknown':
      return () => 0;
    case 'row': {
      const compare = rowComparator(type as RowType, nullsFirst);
      return (a, i, b, j) => compare((a as Scalar[])[i], (b as Scalar[])[j]);
    }
    case 'array': {
      const compare = scalarComparator(type);
      return (a, i, b, j) => compare((a as Scalar[])[i], (b as Scalar[])[j]);
    }
    case 'bigint':
      return compareInt64Words;
    case 'timestamp with time zone':
      return type.precision > 3 ? compareBigintInstants : compareZonedInstantWords;
    case 'time with time zone':
      return compareBigintInstants;
    case 'time':
    case 'timestamp':
      if (isLongPlain(type)) return (a, i, b, j) => compareBigints((a as bigint[])[i], (b as bigint[])[j]);
      return (a, i, b, j) => (a as Float64Array)[i] - (b as Float64Array)[j];
    case 'decimal':
      return type.precision <= SHORT_DECIMAL_PRECISION
        ? compareInt64Words
        : (a, i, b, j) => compareBigints((a as bigint[])[i], (b as bigint[])[j]);
    case 'varchar':
    case 'json':
    case 'uuid':
    case 'ipaddress':
    case 'color': // compared for equality only (not orderable)
      return (a, i, b, j) => compareStrings((a as string[])[i], (b as string[])[j]);
    case 'char':
      return (a, i, b, j) => compareChars((a as string[])[i], (b as string[])[j]);
    case 'number':
      return (a, i, b, j) => compareNumberTexts((a as string[])[i], (b as string[])[j]);
    case 'varbinary':
      return (a, i, b, j) => compareBytes((a as Uint8Array[])[i], (b as Uint8Array[])[j]);
    case 'double':
    case 'real':
      return (a, i, b, j) => compareNumbers((a as Float64Array)[i], (b as Float64Array)[j]);
    default:
      return (a, i, b, j) => (a as Float64Array)[i] - (b as Float64Array)[j];
  }
}

/** Compares non-NULL values: row i of `left` with row j of `right`. */
export function makeValueCompare(type: SqlType, left: ColumnValues, right: ColumnValues): RowCompare {
  const compare = valueCompareFor(type);
  const a = prepareValues(left);
  const b = prepareValues(right);
  return (i, j) => compare(a, i, b, j);
}

/** A page's sort key columns prepared for an unbound comparator. */
export interface PreparedKey {
  readonly values: PreparedValues;
  readonly nulls: Uint8Array | null;
}

/** Compares row i of one page's prepared keys with row j of another's (pages of one layout). */
export type PreparedRowCompare = (a: readonly PreparedKey[], i: number, b: readonly PreparedKey[], j: number) => number;

export function prepareKeys(keys: readonly SortKey[], columns: readonly Column[]): PreparedKey[] {
  return keys.map((k) => {
    const c = columns[k.channel];
    return { values: prepareColumn(c), nulls: c.type.kind === 'unknown' ? null : c.nulls };
  });
}

/** Lexicographic comparison over sort keys of rows of any pages of one layout (prepared with prepareKeys). */
export function makePreparedRowCompare(keys: readonly SortKey[], types: readonly SqlType[]): PreparedRowCompare {
  const compares = keys.map((k) => valueCompareFor(types[k.channel], k.nullsFirst));
  const directions = keys.map((k) => (k.ascending ? 1 : -1));
  const nullOrders = keys.map((k) => (k.nullsFirst ? -1 : 1));
  const n = keys.length;
  return (a, i, b, j) => {
    for (let k = 0; k < n; k++) {
      const x = a[k];
      const y = b[k];
      const xNull = x.nulls !== null && x.nulls[i] === 1;
      const yNull = y.nulls !== null && y.nulls[j] === 1;
      if (xNull || yNull) {
        if (xNull === yNull) continue;
        return xNull ? nullOrders[k] : -nullOrders[k];
      }
      const c = compares[k](x.values, i, y.values, j);
      if (c !== 0) return c * directions[k];
    }
    return 0;
  };
}
