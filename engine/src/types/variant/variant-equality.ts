// Equality and hashing of VARIANT values by what they mean, as Trino's VariantEquality: numbers by
// exact value across integer, decimal and floating kinds (a float equals an exact number only when
// it is exactly a decimal of at most 38 digits), +0.0 = -0.0, NaN equal to nothing; strings by their
// text; timestamps by instant across micros and nanos, zoned and plain kinds apart; arrays and
// objects element by element. Each value has a canonical key; equal values have equal keys.

import { compareUtf8, decodeVariant } from './variant-encoding.js';
import type { VariantValue } from './variant-value.js';

const MAX_DECIMAL_DIGITS = 38;
/** NaN's key: a control character no other key holds (names and strings are JSON-escaped). */
const NAN_KEY = '\u0000NaN';

/** The key of an encoded variant: two variants are equal when their keys are (and neither holds NaN). */
export function variantKey(bytes: Uint8Array): string {
  return keyOf(decodeVariant(bytes));
}

/** `=` of two encoded variants. */
export function variantsEqual(a: Uint8Array, b: Uint8Array): boolean {
  const key = variantKey(a);
  return !key.includes(NAN_KEY) && key === variantKey(b);
}

/** IS NOT DISTINCT FROM, GROUP BY and DISTINCT: as `=`, except that NaN is not distinct from NaN. */
export function variantsIdentical(a: Uint8Array, b: Uint8Array): boolean {
  return variantKey(a) === variantKey(b);
}

function keyOf(v: VariantValue): string {
  switch (v.kind) {
    case 'null':
      return 'null';
    case 'boolean':
      return String(v.value);
    case 'int8':
    case 'int16':
    case 'int32':
    case 'int64':
      return `n${v.value}`;
    case 'decimal4':
    case 'decimal8':
    case 'decimal16':
      return exactNumberKey(v.unscaled, v.scale);
    case 'float':
    case 'double':
      return floatKey(v.value);
    case 'string':
      return `s${JSON.stringify(v.value)}`;
    case 'binary':
      return `b${Buffer.from(v.value).toString('hex')}`;
    case 'uuid':
      return `u${v.hex}`;
    case 'date':
      return `d${v.days}`;
    case 'time_ntz_micros':
      return `t${v.value}`;
    case 'timestamp_ntz_micros':
    case 'timestamp_utc_micros':
      return `${v.kind.includes('utc') ? 'z' : 'p'}${v.value * 1000n}`;
    case 'timestamp_ntz_nanos':
    case 'timestamp_utc_nanos':
      return `${v.kind.includes('utc') ? 'z' : 'p'}${v.value}`;
    case 'array':
      return `[${v.elements.map(keyOf).join(',')}]`;
    case 'object':
      return `{${[...v.fields.keys()]
        .sort(compareUtf8)
        .map((name) => `${JSON.stringify(name)}:${keyOf(v.fields.get(name)!)}`)
        .join(',')}}`;
  }
}

/** An exact number without trailing fraction zeros: 1, 1.0 and 1.00 have one key. */
function exactNumberKey(unscaled: bigint, scale: number): string {
  while (scale > 0 && unscaled % 10n === 0n) {
    unscaled /= 10n;
    scale--;
  }
  return scale === 0 ? `n${unscaled}` : `n${unscaled}e-${scale}`;
}

/** A float's exact decimal value when it has at most 38 digits (0.5, not 0.1), else its own key. */
function floatKey(x: number): string {
  if (Number.isNaN(x)) return NAN_KEY;
  if (!Number.isFinite(x)) return `f${x}`;
  if (x === 0) return 'n0';
  // x = mantissa * 2^exponent exactly; as a decimal: mantissa * 5^-exponent / 10^-exponent.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  if (biased !== 0) mantissa |= 1n << 52n;
  let exponent = (biased === 0 ? 1 : biased) - 1075;
  while (mantissa % 2n === 0n && exponent < 0) {
    mantissa /= 2n;
    exponent++;
  }
  const signed = x < 0 ? -mantissa : mantissa;
  if (exponent >= 0)
    return digitCount(mantissa << BigInt(exponent)) <= MAX_DECIMAL_DIGITS ? exactNumberKey(signed << BigInt(exponent), 0) : `f${x}`;
  const unscaled = signed * 5n ** BigInt(-exponent);
  return digitCount(mantissa * 5n ** BigInt(-exponent)) <= MAX_DECIMAL_DIGITS && -exponent <= MAX_DECIMAL_DIGITS
    ? exactNumberKey(unscaled, -exponent)
    : `f${x}`;
}

function digitCount(n: bigint): number {
  return n.toString().length;
}
