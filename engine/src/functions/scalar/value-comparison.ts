// Equality and ordering of non-null scalar values of one SQL type, as Trino compares them
// (NaN is not equal to itself for =, but IS NOT DISTINCT FROM itself; char values as if padded).

import type { Scalar } from '../../spi/page.js';
import { compareChars, compareStrings } from '../../types/chars.js';
import type { SqlType } from '../../types/types.js';

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
  if (type.kind === 'varbinary') return (a, b) => compareBytes(a as Uint8Array, b as Uint8Array) === 0;
  return (a, b) => a === b;
}

/** IS NOT DISTINCT FROM on non-null values: like `=`, but NaN is not distinct from NaN. */
export function identityFor(type: SqlType): Equality {
  if (type.kind === 'double' || type.kind === 'real') return (a, b) => a === b || (a !== a && b !== b);
  return equalityFor(type);
}

/**
 * The order of `type` when JS's own `<` on its values is not it: byte arrays; strings, which JS
 * orders by UTF-16 unit (U+FFFF above U+1F600) where SQL orders by code point; padded chars.
 */
function ownComparator(type: SqlType): Comparator | undefined {
  if (type.kind === 'varbinary') return (a, b) => compareBytes(a as Uint8Array, b as Uint8Array);
  if (type.kind === 'varchar') return (a, b) => compareStrings(a as string, b as string);
  if (type.kind === 'char') return (a, b) => compareChars(a as string, b as string);
  return undefined;
}

/** Whether JS's `<`, `<=`, `>`, `>=` on the values order them as SQL does (numbers, booleans). */
export function hasJsOrder(type: SqlType): boolean {
  return ownComparator(type) === undefined;
}

/** Total order of non-null values of `type` for <, <=, greatest, least (NaN handled by callers). */
export function comparatorFor(type: SqlType): Comparator {
  const own = ownComparator(type);
  if (own !== undefined) return own;
  if (type.kind === 'boolean') return (a, b) => Number(a) - Number(b);
  return (a, b) => ((a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0);
}

/** `<` on values of `type`: primitives by JS order (false for NaN, as in Trino). */
export function lessThanFor(type: SqlType): (a: Scalar, b: Scalar) => boolean {
  const own = ownComparator(type);
  if (own !== undefined) return (a, b) => own(a, b) < 0;
  return (a, b) => (a as number) < (b as number);
}

export function lessThanOrEqualFor(type: SqlType): (a: Scalar, b: Scalar) => boolean {
  const own = ownComparator(type);
  if (own !== undefined) return (a, b) => own(a, b) <= 0;
  return (a, b) => (a as number) <= (b as number);
}
