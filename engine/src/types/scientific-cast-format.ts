// Doubles and reals cast to varchar as Trino casts them: Java's DecimalFormat with the pattern
// "0.0###################E0" for a double and "0.0#####E0" for a real (the float's Float.toString
// digits read back as a double), so 37.7 becomes 3.77E1 and 1200 becomes 1.2E3; zeros are 0E0 and
// -0E0. Display elsewhere (results, errors, format('%s')) keeps Java's Double.toString (number-format.ts).
//
// DecimalFormat starts from the value's shortest digits and rounds them half-even to the pattern's
// significant digits; a tie in those digits is decided by the binary value they stand for (the
// shortest digits may lie above or below it), as the JDK's DigitList does.

import { shortestDecimalDigits } from './number-format.js';

/** A double's significant digits: 1 integer digit plus 20 fraction digits (more than any shortest form has). */
const DOUBLE_DIGITS = 21;
/** A real's: 1 integer digit plus 6 fraction digits. */
const REAL_DIGITS = 7;

export function formatDoubleForCast(x: number): string {
  return scientific(x, false);
}

/** `x` must be a float32 value. */
export function formatRealForCast(x: number): string {
  return scientific(x, true);
}

function scientific(x: number, real: boolean): string {
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0E0' : '0E0';
  const abs = Math.abs(x);
  const shortest = shortestDecimalDigits(abs, real);
  // A real's digits read back as a double: the binary value DecimalFormat rounds.
  const value = real ? Number(`${shortest.digits}e${shortest.exponent - shortest.digits.length + 1}`) : abs;
  const { digits, exponent } = roundHalfEven(shortest, real ? REAL_DIGITS : DOUBLE_DIGITS, value);
  const body = `${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}E${exponent}`;
  return x < 0 ? `-${body}` : body;
}

interface Digits {
  digits: string;
  exponent: number;
}

function roundHalfEven({ digits, exponent }: Digits, keep: number, value: number): Digits {
  if (digits.length <= keep) return { digits, exponent };
  const first = digits.charCodeAt(keep) - 48;
  const kept = digits.slice(0, keep);
  let up: boolean;
  if (first !== 5) up = first > 5;
  else if (digits.length > keep + 1)
    up = true; // Digits past the 5 (never zeros: none trail).
  else {
    const side = compareWithDecimal(value, digits, exponent);
    up = side === 0 ? (kept.charCodeAt(keep - 1) - 48) % 2 === 1 : side > 0;
  }
  if (!up) return { digits: kept.replace(/0+$/, ''), exponent };
  const raised = (BigInt(kept) + 1n).toString();
  // 999… carried into a new leading digit: one more power of ten.
  return raised.length > kept.length ? { digits: '1', exponent: exponent + 1 } : { digits: raised.replace(/0+$/, ''), exponent };
}

/** The sign of value − d.ddd×10^exponent, exactly (value finite and positive). */
function compareWithDecimal(value: number, digits: string, exponent: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // value = significand × 2^power2; decimal = n × 10^power10.
  const significand = biased === 0 ? fraction : fraction | (1n << 52n);
  const power2 = (biased === 0 ? 1 : biased) - 1075;
  const n = BigInt(digits);
  const power10 = exponent - digits.length + 1;
  let left = significand;
  let right = n;
  if (power2 >= 0) left <<= BigInt(power2);
  else right <<= BigInt(-power2);
  if (power10 >= 0) right *= 10n ** BigInt(power10);
  else left *= 10n ** BigInt(-power10);
  return left > right ? 1 : left < right ? -1 : 0;
}
