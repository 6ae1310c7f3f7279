// The order of two non-NULL values of one column as table statistics compare them (Trino's order:
// numbers numerically, strings by code point, bytes unsigned, false before true).

import type { Scalar } from '../../../types/scalar.js';
import { compareBigints, compareBytes, compareNumbers } from '../../../functions/scalar/value-ordering.js';
import { compareStrings } from '../../../types/chars.js';

export function compareScalars(a: Exclude<Scalar, null>, b: Exclude<Scalar, null>): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return compareBigints(a, b);
  if (typeof a === 'number' && typeof b === 'number') return compareNumbers(a, b);
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  throw new Error(`Cannot compare values of different representations: ${typeof a} and ${typeof b}`);
}
