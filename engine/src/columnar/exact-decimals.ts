// Decimal columns held as doubles: each row's unscaled value an exact integer below 2^53 in a
// Float64Array. A decimal expression or a partial sum whose values all fit makes one of these instead
// of a BigInt per row (allocating, converting and collecting those cost q01 over a third of its
// time); code that knows the form (sums, averages, page transfer, memory accounting) reads the
// doubles, and `values` (page.ts's storage for the type) is made from them only when something else
// reads it.

import { SHORT_DECIMAL_PRECISION, type SqlType } from '../types/types.js';
import { writeInt64Number } from './int64-numbers.js';
import type { Column, ColumnValues } from './page.js';

/** 2^53: every integer of smaller magnitude is exact in a double, and so is every sum or product below it. */
export const EXACT_LIMIT = 9007199254740992;

/**
 * A decimal column of `type` whose unscaled values are `exact` (integers, |v| < 2^53; NULL rows 0).
 * `exact` is not enumerable: a copy made by spreading (`{ ...column, values }`) drops it.
 */
export function exactDecimalColumn(type: SqlType, length: number, nulls: Uint8Array | null, exact: Float64Array): Column {
  let values: ColumnValues | undefined;
  const column = {
    type,
    length,
    nulls,
    get values(): ColumnValues {
      values ??= decimalValues(type, exact, length);
      return values;
    },
  };
  Object.defineProperty(column, 'exact', { value: exact });
  Object.defineProperty(column, 'materialized', { get: () => values !== undefined });
  return column;
}

/** True once something read the column's `values` (they then take memory beside the doubles). */
export function exactValuesMaterialized(column: Column): boolean {
  return (column as { materialized?: boolean }).materialized === true;
}

/** page.ts's storage for a decimal of `type`: int64 words written from the doubles, or one bigint per row. */
function decimalValues(type: SqlType, exact: Float64Array, length: number): ColumnValues {
  if (type.kind === 'decimal' && type.precision <= SHORT_DECIMAL_PRECISION) {
    const out = new BigInt64Array(length);
    const words = new Int32Array(out.buffer);
    for (let i = 0; i < length; i++) writeInt64Number(words, i, exact[i]);
    return out;
  }
  const out = new Array<bigint>(length);
  for (let i = 0; i < length; i++) out[i] = BigInt(exact[i]);
  return out;
}
