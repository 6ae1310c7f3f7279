// Equality of two rows of (possibly different) columns of one type, specialised per storage so the
// hot loops of hash tables compare typed values directly. `notDistinct` selects IS NOT DISTINCT FROM
// (NULLs equal each other, NaN equals NaN: grouping) over SQL `=` (NULL and NaN never equal: joins).

import { variantsEqual, variantsIdentical } from '../../types/variant/variant-equality.js';
import { NAN_TEXT } from '../../types/number/number-value.js';
import { comparesByInstant } from '../../types/zoned-time.js';
import { type Column, type ColumnValues, getScalar } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { readListRow } from '../../columnar/list-column.js';
import { readRowValue } from '../../columnar/row-column.js';
import { identityFor, sqlEquality } from '../../functions/scalar/value-comparison.js';
import type { SqlType } from '../../types/types.js';
import { int64Words } from '../../columnar/hash-functions.js';
import type { ColumnData } from '../../columnar/growable-column.js';

/** Row i of an array, map or row column or of its slots, as a JS array (or MapValue). */
function arrayRowReader(type: SqlType, data: ColumnData): (i: number) => Scalar {
  if (Array.isArray(data.values)) {
    const slots = data.values as readonly Scalar[];
    return (i) => slots[i];
  }
  if (type.kind === 'map') {
    const column = { type, length: 0, values: data.values as Int32Array, nulls: null, children: data.children };
    return (i) => getScalar(column, i);
  }
  if (type.kind === 'row') return (i) => readRowValue(data as Column, i);
  const offsets = data.values as Int32Array;
  const elements = (data.children as readonly Column[])[0];
  return (i) => readListRow(offsets, elements, i);
}

function arrayRowEquals(type: SqlType, left: ColumnData, right: ColumnData, notDistinct: boolean): RowEquals {
  const a = arrayRowReader(type, left);
  const b = arrayRowReader(type, right);
  if (notDistinct) {
    const same = identityFor(type);
    return (i, j) => same(a(i), b(j));
  }
  const equal = sqlEquality(type);
  return (i, j) => equal(a(i), b(j)) === true;
}

export type RowEquals = (left: number, right: number) => boolean;

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function valueEquals(type: SqlType, left: ColumnValues, right: ColumnValues, notDistinct: boolean): RowEquals {
  if (type.kind === 'unknown') return () => notDistinct;
  if (comparesByInstant(type)) {
    const a = left as BigInt64Array | bigint[];
    const b = right as BigInt64Array | bigint[];
    return (i, j) => a[i] >> 12n === b[j] >> 12n;
  }
  if (left instanceof BigInt64Array) {
    const a = int64Words(left);
    const b = int64Words(right as BigInt64Array);
    return (i, j) => a[2 * i] === b[2 * j] && a[2 * i + 1] === b[2 * j + 1];
  }
  if (type.kind === 'variant') {
    const [a, b, same] = [left as Uint8Array[], right as Uint8Array[], notDistinct ? variantsIdentical : variantsEqual];
    return (i, j) => same(a[i], b[j]);
  }
  if (type.kind === 'varbinary') {
    const a = left as Uint8Array[];
    const b = right as Uint8Array[];
    return (i, j) => bytesEqual(a[i], b[j]);
  }
  if (Array.isArray(left)) {
    const a = left as unknown[];
    const b = right as unknown[];
    // SQL `=` of NUMBER: NaN equals nothing (the canonical text of equal values is equal).
    if (type.kind === 'number' && !notDistinct) return (i, j) => a[i] === b[j] && a[i] !== NAN_TEXT;
    return (i, j) => a[i] === b[j];
  }
  const a = left as Float64Array;
  const b = right as Float64Array;
  if (notDistinct && (type.kind === 'double' || type.kind === 'real')) {
    return (i, j) => a[i] === b[j] || (a[i] !== a[i] && b[j] !== b[j]);
  }
  return (i, j) => a[i] === b[j];
}

/** Equality of row `i` of `left` with row `j` of `right` (both of type `type`). */
export function makeRowEquals(type: SqlType, left: ColumnData, right: ColumnData, notDistinct: boolean): RowEquals {
  const equals =
    type.kind === 'array' || type.kind === 'map' || type.kind === 'row'
      ? arrayRowEquals(type, left, right, notDistinct)
      : valueEquals(type, left.values as ColumnValues, right.values as ColumnValues, notDistinct);
  const ln = left.nulls;
  const rn = right.nulls;
  if (ln === null && rn === null) return equals;
  if (notDistinct) {
    return (i, j) => {
      const a = ln !== null && ln[i] === 1;
      const b = rn !== null && rn[j] === 1;
      return a || b ? a === b : equals(i, j);
    };
  }
  return (i, j) => (ln === null || ln[i] === 0) && (rn === null || rn[j] === 0) && equals(i, j);
}

/** Equality over several key columns (all must be equal). */
export function makeKeyEquals(
  types: readonly SqlType[],
  left: readonly ColumnData[],
  right: readonly ColumnData[],
  notDistinct: boolean,
): RowEquals {
  const parts = types.map((t, k) => makeRowEquals(t, left[k], right[k], notDistinct));
  if (parts.length === 0) return () => true;
  if (parts.length === 1) return parts[0];
  if (parts.length === 2) {
    const [p0, p1] = parts;
    return (i, j) => p0(i, j) && p1(i, j);
  }
  return (i, j) => {
    for (let k = 0; k < parts.length; k++) if (!parts[k](i, j)) return false;
    return true;
  };
}
