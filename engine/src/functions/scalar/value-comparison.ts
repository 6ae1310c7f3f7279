// Equality and ordering of non-null scalar values of one SQL type, as Trino compares them
// (NaN is not equal to itself for =, but IS NOT DISTINCT FROM itself; char values as if padded).

import { NAN_TEXT, compareNumberTexts } from '../../types/number/number-value.js';
import { comparesByInstant } from '../../types/zoned-time.js';
import type { Scalar } from '../../types/scalar.js';
import { compareChars, compareStrings } from '../../types/chars.js';
import type { SqlType } from '../../types/types.js';
import { mapEquality, mapIdentity } from './map-comparison.js';
import { mapKeyOf } from '../../types/map-keys.js';
import { variantsEqual, variantsIdentical } from '../../types/variant/variant-equality.js';
import type { RowType } from '../../types/row-type.js';
import { rowComparator, rowEquality, rowIdentity } from './row-comparison.js';

export type Equality = (a: Scalar, b: Scalar) => boolean;
export type Comparator = (a: Scalar, b: Scalar) => number;

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

/** `=` on values of `type` (primitives compare by value, bigints included). */
export function equalityFor(type: SqlType): Equality {
  if (comparesByInstant(type)) return (a, b) => (a as bigint) >> 12n === (b as bigint) >> 12n;
  if (type.kind === 'varbinary') return (a, b) => compareBytes(a as Uint8Array, b as Uint8Array) === 0;
  if (type.kind === 'variant') return (a, b) => variantsEqual(a as Uint8Array, b as Uint8Array);
  if (type.kind === 'number') return (a, b) => a === b && a !== NAN_TEXT; // NaN is equal to nothing, itself included
  if (type.kind === 'array') {
    const equal = arrayEquality(type.element);
    return (a, b) => equal(a as readonly Scalar[], b as readonly Scalar[]) === true;
  }
  if (type.kind === 'map' || type.kind === 'row') {
    const equal = sqlEquality(type);
    return (a, b) => equal(a, b) === true;
  }
  return (a, b) => a === b;
}

/**
 * SQL `=` of two arrays: false when the lengths or a pair of non-null elements differ, NULL
 * (undefined here) when they differ only where an element is NULL, as Trino's array equality.
 */
export function arrayEquality(element: SqlType): (a: readonly Scalar[], b: readonly Scalar[]) => boolean | null {
  const equal = sqlEquality(element);
  return (a, b) => {
    if (a.length !== b.length) return false;
    let unknown = false;
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      const y = b[i];
      if (x === null || y === null) unknown = true;
      else {
        const same = equal(x, y);
        if (same === null) unknown = true;
        else if (!same) return false;
      }
    }
    return unknown ? null : true;
  };
}

/** SQL `=` on non-null values of any type; NULL (null) where containers differ only at NULLs. */
export function sqlEquality(type: SqlType): (a: Scalar, b: Scalar) => boolean | null {
  if (type.kind === 'array') return arrayEquality(type.element) as (a: Scalar, b: Scalar) => boolean | null;
  if (type.kind === 'map') return mapEquality(sqlEquality(type.value), mapKeyOf(type.key)) as (a: Scalar, b: Scalar) => boolean | null;
  if (type.kind === 'row') return rowEquality(type as RowType);
  return equalityFor(type);
}

/** IS NOT DISTINCT FROM on non-null values: like `=`, but NaN is not distinct from NaN. */
export function identityFor(type: SqlType): Equality {
  if (type.kind === 'double' || type.kind === 'real') return (a, b) => a === b || (a !== a && b !== b);
  if (type.kind === 'variant') return (a, b) => variantsIdentical(a as Uint8Array, b as Uint8Array);
  if (type.kind === 'number') return (a, b) => a === b; // canonical text: NaN is NaN
  if (type.kind === 'map') return mapIdentity(identityFor(type.value), mapKeyOf(type.key)) as unknown as Equality;
  if (type.kind === 'row') return rowIdentity(type as RowType);
  if (type.kind === 'array') {
    const same = identityFor(type.element);
    return (a, b) => {
      const x = a as readonly Scalar[];
      const y = b as readonly Scalar[];
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) {
        if (x[i] === null || y[i] === null) {
          if (x[i] !== y[i]) return false;
        } else if (!same(x[i], y[i])) return false;
      }
      return true;
    };
  }
  return equalityFor(type);
}

/**
 * A total order of non-null values of `type` (NaN above every double, arrays element by element
 * with NULL elements last, then by length): for ORDER BY, array_sort, array_max and their kin.
 */
export function scalarComparator(type: SqlType): Comparator {
  if (type.kind === 'row') return rowComparator(type as RowType);
  if (type.kind === 'array') {
    const compare = scalarComparator(type.element);
    return (a, b) => {
      const x = a as readonly Scalar[];
      const y = b as readonly Scalar[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        if (x[i] === null || y[i] === null) {
          if (x[i] === y[i]) continue;
          return x[i] === null ? 1 : -1;
        }
        const c = compare(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length - y.length;
    };
  }
  if (type.kind === 'double' || type.kind === 'real') {
    return (a, b) => {
      const x = a as number;
      const y = b as number;
      if (x < y) return -1;
      if (x > y) return 1;
      if (x === y) return 0;
      return x !== x ? (y !== y ? 0 : 1) : -1;
    };
  }
  return comparatorFor(type);
}

/**
 * The order of `type` when JS's own `<` on its values is not it: byte arrays; strings, which JS
 * orders by UTF-16 unit (U+FFFF above U+1F600) where SQL orders by code point; padded chars.
 */
function ownComparator(type: SqlType): Comparator | undefined {
  if (type.kind === 'array' || type.kind === 'row') return scalarComparator(type);
  if (type.kind === 'varbinary') return (a, b) => compareBytes(a as Uint8Array, b as Uint8Array);
  if (comparesByInstant(type)) return (a, b) => compareZonedInstants(a as bigint, b as bigint);
  if (type.kind === 'varchar') return (a, b) => compareStrings(a as string, b as string);
  if (type.kind === 'char') return (a, b) => compareChars(a as string, b as string);
  if (type.kind === 'number') return (a, b) => compareNumberTexts(a as string, b as string);
  return undefined;
}

/** Whether JS's `<`, `<=`, `>`, `>=` on the values order them as SQL does (numbers, booleans). */
export function hasJsOrder(type: SqlType): boolean {
  return ownComparator(type) === undefined;
}

/** Total order of non-null values of `type` for <, <=, greatest, least (NaN handled by callers). */
export function comparatorFor(type: SqlType): Comparator {
  if (type.kind === 'array' || type.kind === 'row') return scalarComparator(type);
  const own = ownComparator(type);
  if (own !== undefined) return own;
  if (type.kind === 'boolean') return (a, b) => Number(a) - Number(b);
  return (a, b) => ((a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0);
}

/** `<` on values of `type`: primitives by JS order (false for NaN, as in Trino). */
export function lessThanFor(type: SqlType): (a: Scalar, b: Scalar) => boolean {
  if (type.kind === 'number') return (a, b) => a !== NAN_TEXT && b !== NAN_TEXT && compareNumberTexts(a as string, b as string) < 0;
  const own = ownComparator(type);
  if (own !== undefined) return (a, b) => own(a, b) < 0;
  return (a, b) => (a as number) < (b as number);
}

export function lessThanOrEqualFor(type: SqlType): (a: Scalar, b: Scalar) => boolean {
  if (type.kind === 'number') return (a, b) => a !== NAN_TEXT && b !== NAN_TEXT && compareNumberTexts(a as string, b as string) <= 0;
  const own = ownComparator(type);
  if (own !== undefined) return (a, b) => own(a, b) <= 0;
  return (a, b) => (a as number) <= (b as number);
}

/** Zoned timestamps order by instant (the zone key in the low 12 bits does not count). */
function compareZonedInstants(a: bigint, b: bigint): number {
  const x = a >> 12n;
  const y = b >> 12n;
  return x < y ? -1 : x > y ? 1 : 0;
}
