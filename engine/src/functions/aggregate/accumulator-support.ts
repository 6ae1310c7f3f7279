// Helpers shared by accumulators: growing typed state arrays, reading numeric columns as doubles,
// and the final-column builder every accumulator's writeFinal shares.

import { allocateSlots, columnFromSlots, type Column } from '../../columnar/page.js';
import { int64Words } from '../../columnar/hash-functions.js';
import { readInt64Number } from '../../columnar/int64-numbers.js';
import type { SqlType } from '../../types/types.js';
import type { ColumnOutput } from './aggregate-function.js';

type TypedState = Float64Array | Uint8Array | Int32Array;

/** `array` grown (zero-filled) to hold at least `length` entries. */
export function grow<T extends TypedState>(array: T, length: number): T {
  if (array.length >= length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(length, array.length * 2, 16));
  next.set(array);
  return next;
}

/** Any numeric column's values as doubles (int64 correctly rounded); copies unless already double. */
export function toFloat64(column: Column): Float64Array {
  const v = column.values;
  let out: Float64Array;
  if (v instanceof Float64Array) out = v;
  else if (v instanceof BigInt64Array) {
    const words = int64Words(v);
    out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = readInt64Number(words, i);
  } else if (Array.isArray(v)) {
    out = Float64Array.from(v as bigint[], (x) => Number(x));
  } else out = Float64Array.from(v as Int32Array);
  return out;
}

/** A column output of `length` rows (all NULL until written). */
export function allocateOutput(type: SqlType, length: number): ColumnOutput {
  return { values: allocateSlots(type, length), nulls: new Uint8Array(length) };
}

/** Turns a filled output into a column (dropping the null mask when nothing is NULL). */
export function outputToColumn(type: SqlType, output: ColumnOutput, length: number): Column {
  const nulls = output.nulls.indexOf(1) >= 0 ? output.nulls : null;
  return columnFromSlots(type, output.values, length, nulls);
}

/** writeFinal through writeFinalAt: one loop for accumulators without a faster path. */
export function finalColumn(
  type: SqlType,
  start: number,
  end: number,
  writeAt: (group: number, out: ColumnOutput, row: number) => void,
): Column {
  const length = end - start;
  const out = allocateOutput(type, length);
  for (let g = start; g < end; g++) writeAt(g, out, g - start);
  return outputToColumn(type, out, length);
}
