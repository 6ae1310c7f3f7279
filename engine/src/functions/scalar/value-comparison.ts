// Equality and ordering of non-null scalar values of one SQL type, as Trino compares them
// (NaN is not equal to itself for =, but IS NOT DISTINCT FROM itself).

import type { Scalar } from '../../spi/page.js';
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

/** Total order of non-null values of `type` for <, <=, greatest, least (NaN handled by callers). */
export function comparatorFor(type: SqlType): Comparator {
  if (type.kind === 'varbinary') return (a, b) => compareBytes(a as Uint8Array, b as Uint8Array);
  if (type.kind === 'boolean') return (a, b) => Number(a) - Number(b);
  return (a, b) => ((a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0);
}

/** `<` on values of `type`: primitives by JS order (false for NaN, as in Trino). */
export function lessThanFor(type: SqlType): (a: Scalar, b: Scalar) => boolean {
  if (type.kind === 'varbinary') return (a, b) => compareBytes(a as Uint8Array, b as Uint8Array) < 0;
  return (a, b) => (a as number) < (b as number);
}

export function lessThanOrEqualFor(type: SqlType): (a: Scalar, b: Scalar) => boolean {
  if (type.kind === 'varbinary') return (a, b) => compareBytes(a as Uint8Array, b as Uint8Array) <= 0;
  return (a, b) => (a as number) <= (b as number);
}
