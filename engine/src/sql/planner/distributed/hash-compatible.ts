// Whether equal values of two types hash alike (columnar/hash-functions.ts), so that rows of a
// join's two sides, partitioned each by their own keys, meet in the same partition.

import { typesEqual, type SqlType } from '../../../types/types.js';

const INTEGERS = new Set(['tinyint', 'smallint', 'integer', 'bigint']);

export function hashCompatible(a: SqlType, b: SqlType): boolean {
  if (typesEqual(a, b)) return true;
  // Integers of every width hash as the int64 of their value.
  if (INTEGERS.has(a.kind) && INTEGERS.has(b.kind)) return true;
  // Decimals of one scale hash their unscaled value, short or long alike.
  if (a.kind === 'decimal' && b.kind === 'decimal') return a.scale === b.scale;
  return a.kind === 'varchar' && b.kind === 'varchar';
}
