// PostgreSQL's binary send formats of the types the connector maps, both ways: numeric's base-10000
// digits, dates as days and timestamps as microseconds since 2000-01-01, int8 in big-endian words.

import { EngineError } from '../../errors/engine-error.js';

/** Days from 1970-01-01 to 2000-01-01, PostgreSQL's epoch. */
export const POSTGRES_EPOCH_DAYS = 10_957;
export const POSTGRES_EPOCH_MICROS = POSTGRES_EPOCH_DAYS * 86_400_000_000;
export const POSTGRES_EPOCH_MICROS_BIGINT = BigInt(POSTGRES_EPOCH_MICROS);

const TWO_32 = 4_294_967_296;
const NUMERIC_NEGATIVE = 0x4000;
const NUMERIC_NAN = 0xc000;
const NUMERIC_POSITIVE_INFINITY = 0xd000;
const NUMERIC_NEGATIVE_INFINITY = 0xf000;
const DATE_INFINITY = 0x7fffffff;
const DATE_MINUS_INFINITY = -0x80000000;

/** An int8 as a number (exact to 2^53: timestamps and times are, counts of rows too). */
export function readInt64Number(buf: Buffer, offset: number): number {
  return buf.readInt32BE(offset) * TWO_32 + buf.readUInt32BE(offset + 4);
}

/** Whether the int8 at `offset` is PostgreSQL's ±infinity of timestamps (int64 max or min). */
export function isInfiniteTimestamp(buf: Buffer, offset: number): boolean {
  const high = buf.readInt32BE(offset);
  const low = buf.readUInt32BE(offset + 4);
  return (high === 0x7fffffff && low === 0xffffffff) || (high === -0x80000000 && low === 0);
}

export function isInfiniteDate(days: number): boolean {
  return days === DATE_INFINITY || days === DATE_MINUS_INFINITY;
}

/**
 * A numeric's value times 10^scale, exactly: a number when it has at most 15 digits, else a bigint.
 * A value with more fraction digits than `scale` cannot come from a column of that scale; NaN and
 * infinities have no decimal value.
 */
export function readNumericUnscaled(buf: Buffer, offset: number, scale: number, column: string): number | bigint {
  const ndigits = buf.readInt16BE(offset);
  const weight = buf.readInt16BE(offset + 2);
  const sign = buf.readUInt16BE(offset + 4);
  if (sign === NUMERIC_NAN || sign === NUMERIC_POSITIVE_INFINITY || sign === NUMERIC_NEGATIVE_INFINITY) {
    const what = sign === NUMERIC_NAN ? 'NaN' : sign === NUMERIC_POSITIVE_INFINITY ? 'Infinity' : '-Infinity';
    throw new EngineError('NOT_SUPPORTED', `Column '${column}' holds the numeric value ${what}, which a decimal cannot hold`);
  }
  // digits d0..dn-1 base 10000 as one integer, times 10^exponent
  const exponent = 4 * (weight - ndigits + 1) + scale;
  if (ndigits * 4 + Math.max(exponent, 0) <= 15) {
    let digits = 0;
    for (let i = 0; i < ndigits; i++) digits = digits * 10_000 + buf.readInt16BE(offset + 8 + 2 * i);
    const value = exponent >= 0 ? digits * 10 ** exponent : digits / 10 ** -exponent;
    return sign === NUMERIC_NEGATIVE ? -value : value;
  }
  let digits = 0n;
  for (let i = 0; i < ndigits; i++) digits = digits * 10_000n + BigInt(buf.readInt16BE(offset + 8 + 2 * i));
  const value = exponent >= 0 ? digits * 10n ** BigInt(exponent) : digits / 10n ** BigInt(-exponent);
  return sign === NUMERIC_NEGATIVE ? -value : value;
}

/** Writes `value` (an integer within 2^53) as int64 into two 32-bit words of an Int32Array over a BigInt64Array. */
export function writeInt64Words(words: Int32Array, index: number, value: number): void {
  const high = Math.floor(value / TWO_32);
  words[2 * index] = (value - high * TWO_32) | 0;
  words[2 * index + 1] = high | 0;
}

/** The binary numeric of `unscaled` / 10^scale: base-10000 digits aligned on the decimal point. */
export function numericBytes(unscaled: bigint, scale: number): Buffer {
  const negative = unscaled < 0n;
  let magnitude = negative ? -unscaled : unscaled;
  // Pad the fraction to a multiple of 4 digits so that groups align with the decimal point.
  const padding = (4 - (scale % 4)) % 4;
  magnitude *= 10n ** BigInt(padding);
  const fractionGroups = (scale + padding) / 4;
  const groups: number[] = [];
  while (magnitude > 0n) {
    groups.unshift(Number(magnitude % 10_000n));
    magnitude /= 10_000n;
  }
  let weight = groups.length - fractionGroups - 1;
  // Trailing zero groups are left out, as PostgreSQL stores them.
  while (groups.length > 0 && groups[groups.length - 1] === 0) groups.pop();
  if (groups.length === 0) weight = 0;
  const buf = Buffer.alloc(8 + 2 * groups.length);
  buf.writeInt16BE(groups.length, 0);
  buf.writeInt16BE(weight, 2);
  buf.writeUInt16BE(negative && groups.length > 0 ? NUMERIC_NEGATIVE : 0, 4);
  buf.writeInt16BE(scale, 6);
  groups.forEach((g, i) => buf.writeInt16BE(g, 8 + 2 * i));
  return buf;
}
