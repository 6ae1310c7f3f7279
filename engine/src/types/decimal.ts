// Decimal values: an unscaled bigint and a scale (the type carries precision and scale; page.ts
// stores the unscaled value). Rounding is HALF_UP (ties away from zero), as Trino rounds.

import { EngineError } from '../errors/engine-error.js';
import { MAX_DECIMAL_PRECISION } from './types.js';

const MAX_POWER = 2 * MAX_DECIMAL_PRECISION + 2;

/** 10^0 .. 10^78 as bigints (products of two 38-digit numbers need up to 76 digits). */
export const BIGINT_POWERS_OF_TEN: readonly bigint[] = Array.from({ length: MAX_POWER + 1 }, (_, i) => 10n ** BigInt(i));

export function powerOfTen(exponent: number): bigint {
  return exponent <= MAX_POWER ? BIGINT_POWERS_OF_TEN[exponent] : 10n ** BigInt(exponent);
}

export interface ParsedDecimal {
  unscaled: bigint;
  /** Digits without leading zeros (at least 1). */
  precision: number;
  scale: number;
}

const DECIMAL_TEXT = /^([+-])?(\d*)(?:\.(\d*))?$/;

/**
 * Parses decimal text as Trino does for DECIMAL literals and casts: optional sign, digits, optional
 * fraction; precision counts the digits without leading zeros. Undefined when `text` is not a decimal.
 */
export function parseDecimal(text: string): ParsedDecimal | undefined {
  const m = DECIMAL_TEXT.exec(text.trim());
  if (m === null) return undefined;
  const integral = (m[2] ?? '').replace(/^0+/, '');
  const fraction = m[3] ?? '';
  if ((m[2] ?? '') === '' && fraction === '') return undefined;
  const magnitude = integral + fraction === '' ? 0n : BigInt(integral + fraction);
  return {
    unscaled: m[1] === '-' ? -magnitude : magnitude,
    precision: Math.max(1, integral.length + fraction.length),
    scale: fraction.length,
  };
}

/** The unscaled value as text with exactly `scale` fraction digits: 123450n, 2 -> "1234.50". */
export function formatDecimal(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  let digits = (negative ? -unscaled : unscaled).toString();
  if (scale > 0) {
    if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
    digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return negative ? `-${digits}` : digits;
}

/** `numerator / denominator` rounded HALF_UP. The denominator must not be zero. */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  const twiceRemainder = (remainder < 0n ? -remainder : remainder) * 2n;
  const absDenominator = denominator < 0n ? -denominator : denominator;
  if (twiceRemainder < absDenominator) return quotient;
  return numerator < 0n !== denominator < 0n ? quotient - 1n : quotient + 1n;
}

/** Changes the scale of an unscaled value, rounding HALF_UP when digits are dropped. */
export function rescale(unscaled: bigint, fromScale: number, toScale: number): bigint {
  if (toScale === fromScale) return unscaled;
  if (toScale > fromScale) return unscaled * powerOfTen(toScale - fromScale);
  return divideRoundHalfUp(unscaled, powerOfTen(fromScale - toScale));
}

/** True when the unscaled value has at most `precision` digits. */
export function fitsPrecision(unscaled: bigint, precision: number): boolean {
  const limit = powerOfTen(precision);
  return unscaled < limit && unscaled > -limit;
}

/** The value, or NUMERIC_VALUE_OUT_OF_RANGE "Decimal overflow" when it exceeds `precision` digits. */
export function checkDecimalOverflow(unscaled: bigint, precision: number): bigint {
  if (!fitsPrecision(unscaled, precision)) throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', 'Decimal overflow');
  return unscaled;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The nearest double to the decimal value (correctly rounded). */
export function decimalToNumber(unscaled: bigint, scale: number): number {
  if (scale <= 22 && unscaled <= MAX_SAFE && unscaled >= -MAX_SAFE) {
    // Both operands are exact doubles, so one IEEE division rounds correctly.
    return scale === 0 ? Number(unscaled) : Number(unscaled) / 10 ** scale;
  }
  return Number(formatDecimal(unscaled, scale));
}

/**
 * The unscaled decimal of a finite double at `scale`, HALF_UP, from the double's shortest decimal
 * representation (as Trino does through String.valueOf). Undefined for NaN and infinities.
 */
export function numberToUnscaled(value: number, scale: number): bigint | undefined {
  if (!Number.isFinite(value)) return undefined;
  if (Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER) return BigInt(value) * powerOfTen(scale);
  const { digits, exponent, negative } = shortestDigits(value);
  // value = digits * 10^exponent
  const magnitude = BigInt(digits);
  const shift = exponent + scale;
  const unscaled = shift >= 0 ? magnitude * powerOfTen(shift) : divideRoundHalfUp(magnitude, powerOfTen(-shift));
  return negative ? -unscaled : unscaled;
}

/** The shortest round-tripping digits of a finite double: value = ±digits × 10^exponent. */
function shortestDigits(value: number): { digits: string; exponent: number; negative: boolean } {
  const text = Math.abs(value).toExponential(); // "d.ddddde±x", shortest round-trip digits
  const [mantissa, exp] = text.split('e');
  const fraction = mantissa.includes('.') ? mantissa.split('.')[1] : '';
  return { digits: mantissa.replace('.', ''), exponent: Number(exp) - fraction.length, negative: value < 0 };
}
