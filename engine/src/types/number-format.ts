// Doubles and reals as text the way Trino prints them: Java's Double.toString and Float.toString
// (JDK 19 and later): 0.1, 100.0, 1.0E7, 1.5E-5, 4.9E-324, NaN, Infinity.
//
// Java picks, among the decimals that read back as the value, those with the fewest digits and of
// them the closest to the value (ties: the even last digit); when one digit suffices, the two-digit
// decimals compete too, so the smallest double prints as 4.9E-324, not 5e-324 as JavaScript has it.
// JavaScript's own shortest digits follow the same rule otherwise, and are used for doubles; floats
// (real) have no JavaScript formatter and are searched here, exactly.

import { closestTwoDigitDoubleDecimal, shortestFloatDecimal, type Decimal } from './shortest-decimal.js';

/** Smallest positive normal double: below it the rounding interval is wide enough for Java's two-digit rule to matter. */
const MIN_NORMAL_DOUBLE = 2 ** -1022;

function nonFinite(x: number): string | undefined {
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return undefined;
}

/** Java's layout: plain from 10^-3 up to 10^7 (at least one fraction digit), else d.dddE<exponent>. */
function javaLayout({ digits, exponent }: Pick<Decimal, 'digits' | 'exponent'>, negative: boolean): string {
  let body: string;
  if (exponent >= 7 || exponent < -3) {
    body = `${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}E${exponent}`;
  } else if (exponent >= 0) {
    const integral = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    body = `${integral}.${digits.length > exponent + 1 ? digits.slice(exponent + 1) : '0'}`;
  } else {
    body = `0.${'0'.repeat(-exponent - 1)}${digits}`;
  }
  return negative ? `-${body}` : body;
}

/** JavaScript's shortest digits of `abs` (> 0, finite), from its exponential form "d.ddde+x". */
function javascriptDigits(abs: number): Pick<Decimal, 'digits' | 'exponent'> {
  const [mantissa, exponent] = abs.toExponential().split('e');
  return { digits: mantissa!.replace('.', ''), exponent: Number(exponent) };
}

function shortestDouble(abs: number): Pick<Decimal, 'digits' | 'exponent'> {
  const digits = javascriptDigits(abs);
  return digits.digits.length === 1 && abs < MIN_NORMAL_DOUBLE ? closestTwoDigitDoubleDecimal(abs) : digits;
}

/** The shortest decimal digits of a finite, non-zero magnitude and the power of ten of the first (Java's). */
export function shortestDecimalDigits(abs: number, real = false): Pick<Decimal, 'digits' | 'exponent'> {
  return real ? shortestFloatDecimal(abs) : shortestDouble(abs);
}

export function formatDoubleAsText(x: number): string {
  const special = nonFinite(x);
  if (special !== undefined) return special;
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  return javaLayout(shortestDouble(Math.abs(x)), x < 0);
}

/** `x` must be a float32 value (Math.fround of itself). */
export function formatRealAsText(x: number): string {
  const special = nonFinite(x);
  if (special !== undefined) return special;
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  return javaLayout(shortestFloatDecimal(Math.abs(x)), x < 0);
}

/** The double nearest the shortest decimal form of a float32 (0.1f -> 0.1, not 0.10000000149011612). */
export function realToShortestNumber(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const { value } = shortestFloatDecimal(Math.abs(x));
  return x < 0 ? -value : value;
}
