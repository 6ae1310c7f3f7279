// Building the generated columns: 64-bit values (bigint keys, decimal(12,2) cents) are written as
// two 32-bit words through an Int32Array over the BigInt64Array's memory, so no BigInt is made per
// row. Every generated value is an integer below 2^53.

import type { Column } from '../../columnar/page.js';
import { BIGINT, DATE, INTEGER, decimal, varchar, type SqlType } from '../../types/types.js';

export const MONEY = decimal(12, 2);
export { BIGINT, DATE, INTEGER, varchar };

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const LOW_WORD = LITTLE_ENDIAN ? 0 : 1;
const HIGH_WORD = 1 - LOW_WORD;
const TWO_32 = 4294967296;

/** 64-bit column storage with its 32-bit word view. */
export class Int64Values {
  readonly values: BigInt64Array;
  private readonly words: Int32Array;

  constructor(readonly length: number) {
    this.values = new BigInt64Array(length);
    this.words = new Int32Array(this.values.buffer);
  }

  /** Sets row `index` to the integer `value` (|value| < 2^53). */
  set(index: number, value: number): void {
    this.words[2 * index + LOW_WORD] = value; // ToInt32 keeps the low 32 bits
    this.words[2 * index + HIGH_WORD] = Math.floor(value / TWO_32);
  }

  column(type: SqlType): Column {
    return { type, length: this.length, values: this.values, nulls: null };
  }
}

/** A bigint (or decimal) column of `values`. */
export function int64Column(type: SqlType, values: ArrayLike<number>): Column {
  const out = new Int64Values(values.length);
  for (let i = 0; i < values.length; i++) out.set(i, values[i]);
  return out.column(type);
}

/** A bigint column counting up from `first`. */
export function sequenceColumn(first: number, length: number): Column {
  const out = new Int64Values(length);
  for (let i = 0; i < length; i++) out.set(i, first + i);
  return out.column(BIGINT);
}

export function int32Column(type: SqlType, values: Int32Array): Column {
  return { type, length: values.length, values, nulls: null };
}

export function varcharColumn(type: SqlType, values: string[]): Column {
  return { type, length: values.length, values, nulls: null };
}

/** `prefix` followed by `n` zero-padded to `width` digits: Customer#000000042. */
export function paddedName(prefix: string, n: number, width: number): string {
  return prefix + String(n).padStart(width, '0');
}

/** The names `paddedName(prefix, first + i, width)` of `count` consecutive numbers. */
export function paddedNames(prefix: string, first: number, count: number, width: number): string[] {
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) out[i] = paddedName(prefix, first + i, width);
  return out;
}

/** Strings for small numbers (brands, clerks, ...), made once and shared by every row that has them. */
export class NumberNames {
  private readonly names: string[] = [];

  constructor(private readonly format: (n: number) => string) {}

  /** The names of `numbers`. */
  map(numbers: ArrayLike<number>): string[] {
    const out = new Array<string>(numbers.length);
    const names = this.names;
    for (let i = 0; i < numbers.length; i++) {
      const n = numbers[i];
      out[i] = names[n] ??= this.format(n);
    }
    return out;
  }
}

/** The values of a 64-bit column as numbers (exact below 2^53), read without making BigInts. */
export function int64ToNumbers(values: BigInt64Array): Float64Array {
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = (words[2 * i + LOW_WORD] >>> 0) + words[2 * i + HIGH_WORD] * TWO_32;
  return out;
}
