// Helpers shared by accumulators: growing typed state arrays, writing int64 results without
// creating a BigInt per row, reading numeric columns as doubles, and the final-column builder
// every accumulator's writeFinal shares.

import { allocateSlots, columnFromSlots, type Column } from '../../columnar/page.js';
import { int64Words } from '../../columnar/hash-functions.js';
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

const TWO_32 = 4294967296;

/** Writes the integral double `value` (|value| <= 2^53) as int64 at `index` of the word view. */
export function writeInt64Number(words: Int32Array, index: number, value: number): void {
  const hi = Math.floor(value / TWO_32);
  words[2 * index] = (value - hi * TWO_32) | 0;
  words[2 * index + 1] = hi | 0;
}

/** Reads an int64 from its words as a double, exact when |value| < 2^53 (see isSafeInt64). */
export function readInt64Number(words: Int32Array, index: number): number {
  return words[2 * index + 1] * TWO_32 + (words[2 * index] >>> 0);
}

/** True when the int64 at `index` is below 2^53 in magnitude, so readInt64Number is exact. */
export function isSafeInt64(words: Int32Array, index: number): boolean {
  const hi = words[2 * index + 1];
  return hi >= -2097152 && hi < 2097152;
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
