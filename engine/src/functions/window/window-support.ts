// Small helpers shared by window functions.

import { getScalar, hasChildColumns } from '../../columnar/page.js';
import { EngineError } from '../../errors/engine-error.js';
import type { Column } from '../../columnar/page.js';
import { int64Words } from '../../columnar/hash-functions.js';
import type { ColumnOutput } from '../aggregate/aggregate-function.js';

const TWO_32 = 4294967296;

/** Writes an integral number as int64 into a bigint output (no BigInt allocated). */
export function bigintWriter(out: ColumnOutput): (row: number, value: number) => void {
  const words = int64Words(out.values as BigInt64Array);
  return (row, value) => {
    const hi = Math.floor(value / TWO_32);
    words[2 * row] = (value - hi * TWO_32) | 0;
    words[2 * row + 1] = hi;
    out.nulls[row] = 0;
  };
}

export function isNullAt(column: Column, row: number): boolean {
  return column.type.kind === 'unknown' || (column.nulls !== null && column.nulls[row] === 1);
}

/** Copies row `from` of `column` to row `row` of `out` (NULL stays NULL). */
export function copyValue(column: Column, from: number, out: ColumnOutput, row: number): void {
  if (isNullAt(column, from)) {
    out.nulls[row] = 1;
    return;
  }
  (out.values as unknown[])[row] = hasChildColumns(column.type) ? getScalar(column, from) : (column.values as ArrayLike<unknown>)[from];
  out.nulls[row] = 0;
}

/** An integral argument (bigint storage) at `row` as a number, or null. */
export function integerArgument(column: Column, row: number): number | null {
  if (isNullAt(column, row)) return null;
  return Number((column.values as ArrayLike<bigint | number>)[row]);
}

export function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}
