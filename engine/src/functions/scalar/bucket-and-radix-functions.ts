// width_bucket (equi-width buckets between two bounds, or explicit ascending bins) and the integer
// radix conversions from_base/to_base, with Trino's checks and messages.

import { EngineError } from '../../errors/engine-error.js';
import { BIGINT, DOUBLE, arrayOf, varchar } from '../../types/types.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

function check(condition: boolean, message: string): void {
  if (!condition) throw new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

export function widthBucket(operand: number, bound1: number, bound2: number, bucketCount: bigint): bigint {
  check(bucketCount > 0n, 'bucketCount must be greater than 0');
  check(!Number.isNaN(operand), 'operand must not be NaN');
  check(Number.isFinite(bound1), 'first bound must be finite');
  check(Number.isFinite(bound2), 'second bound must be finite');
  check(bound1 !== bound2, 'bounds cannot equal each other');
  const [lower, upper] = bound1 < bound2 ? [bound1, bound2] : [bound2, bound1];
  let bucket: bigint;
  if (operand < lower) bucket = 0n;
  else if (operand >= upper) {
    if (bucketCount === 9223372036854775807n)
      throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `Bucket for value ${operand} is out of range`);
    bucket = bucketCount + 1n;
  } else bucket = BigInt(Math.trunc((Number(bucketCount) * (operand - lower)) / (upper - lower) + 1));
  return bound1 > bound2 ? bucketCount - bucket + 1n : bucket;
}

/** The number of bins at or below the operand (binary search, checking order and finiteness as it goes). */
export function widthBucketOfBins(operand: number, bins: readonly (number | null)[]): bigint {
  check(bins.length > 0, 'Bins cannot be an empty array');
  check(!Number.isNaN(operand), 'Operand cannot be NaN');
  const bin = (i: number) => bins[i] ?? 0;
  let lower = 0;
  let upper = bins.length;
  while (lower < upper) {
    check(bin(lower) <= bin(upper - 1), 'Bin values are not sorted in ascending order');
    const index = Math.floor((lower + upper) / 2);
    check(Number.isFinite(bin(index)), `Bin value must be finite, got ${bin(index)}`);
    if (operand < bin(index)) upper = index;
    else lower = index + 1;
  }
  return BigInt(lower);
}

function checkRadix(radix: bigint): number {
  check(radix >= 2n && radix <= 36n, 'Radix must be between 2 and 36');
  return Number(radix);
}

export function toBase(value: bigint, radix: bigint): string {
  return value.toString(checkRadix(radix));
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Java's Long.parseLong: an optional sign, then digits of the radix (either case), within bigint. */
export function fromBase(text: string, radix: bigint): bigint {
  const base = checkRadix(radix);
  const invalid = () => new EngineError('INVALID_FUNCTION_ARGUMENT', `Not a valid base-${base} number: ${text}`);
  const negative = text.startsWith('-');
  const digits = /^[+-]/.test(text) ? text.slice(1) : text;
  if (digits === '') throw invalid();
  let value = 0n;
  for (const char of digits.toLowerCase()) {
    const digit = DIGITS.indexOf(char);
    if (digit < 0 || digit >= base) throw invalid();
    value = value * radix + BigInt(digit);
  }
  const signed = negative ? -value : value;
  if (signed !== BigInt.asIntN(64, signed)) throw invalid();
  return signed;
}

export const BUCKET_AND_RADIX_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['width_bucket'],
    description: 'The bucket number of a value given a lower and upper bound and the number of buckets, or an array of bins',
    signatures: [
      { params: [DOUBLE, DOUBLE, DOUBLE, BIGINT], returnType: BIGINT, implement: () => body(widthBucket) },
      { params: [DOUBLE, arrayOf(DOUBLE)], returnType: BIGINT, implement: () => body(widthBucketOfBins) },
    ],
  },
  {
    names: ['to_base'],
    description: 'Convert a number to a string in the given base',
    signatures: [{ params: [BIGINT, BIGINT], returnType: varchar(64), implement: () => body(toBase) }],
  },
  {
    names: ['from_base'],
    description: 'Convert a string in the given base to a number',
    signatures: [{ params: [{ family: 'varchar' }, BIGINT], returnType: BIGINT, implement: () => body(fromBase) }],
  },
];
