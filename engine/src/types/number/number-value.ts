// Values of Trino's NUMBER type: decimals of unbounded scale (within Trino's limits) plus NaN and
// ±Infinity. A value is held as its canonical text: Java's BigDecimal.toString of the value with
// trailing zeros stripped ('3.14', '1E+3', '-0.5'), or 'NaN', '+Infinity', '-Infinity', which is
// also what Trino sends clients and what CAST(... AS varchar) gives. Equal values have equal text,
// so grouping, hashing and exchanges need nothing of their own; arithmetic parses the text.

import { EngineError } from '../../errors/engine-error.js';

/** unscaled × 10^-scale. */
export interface FiniteNumber {
  readonly unscaled: bigint;
  readonly scale: number;
}
export type NumberValue = FiniteNumber | 'NaN' | '+Infinity' | '-Infinity';

/** Trino rounds (HALF_UP) a value of more significant digits than this. */
const MAX_PRECISION = 200;
/** The scales Trino's storage can hold (its header's 15 bits). */
const MIN_SCALE = -16384;
const MAX_SCALE = 16383;

export const NAN_TEXT = 'NaN';

export function isFinite(value: NumberValue): value is FiniteNumber {
  return typeof value === 'object';
}

export function powerOf10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

function digitCount(x: bigint): number {
  return x === 0n ? 1 : abs(x).toString().length;
}

/** x / d rounded half away from zero (Java's HALF_UP); d > 0. */
export function divideHalfUp(x: bigint, d: bigint): bigint {
  const q = x / d;
  const r = x % d;
  if (2n * abs(r) >= abs(d)) return q + (x < 0n !== d < 0n ? -1n : 1n);
  return q;
}

/** Trailing zeros stripped and at most MAX_PRECISION digits; throws when the scale is beyond Trino's. */
export function normalize(value: FiniteNumber): FiniteNumber {
  let { unscaled, scale } = value;
  if (unscaled === 0n) return { unscaled: 0n, scale: 0 };
  const excess = digitCount(unscaled) - MAX_PRECISION;
  if (excess > 0) {
    unscaled = divideHalfUp(unscaled, powerOf10(excess));
    scale -= excess;
  }
  while (unscaled % 10n === 0n) {
    unscaled /= 10n;
    scale--;
  }
  if (scale < MIN_SCALE || scale > MAX_SCALE) {
    throw new EngineError(
      'NUMERIC_VALUE_OUT_OF_RANGE',
      `NUMBER value out of range: scale ${scale} is outside [${MIN_SCALE}, ${MAX_SCALE}]`,
    );
  }
  return { unscaled, scale };
}

/** Java's BigDecimal.toString: plain when the scale is not negative and the exponent is at least -6, else scientific. */
function finiteText({ unscaled, scale }: FiniteNumber): string {
  const digits = abs(unscaled).toString();
  const sign = unscaled < 0n ? '-' : '';
  const adjusted = digits.length - 1 - scale;
  if (scale >= 0 && adjusted >= -6) {
    if (scale === 0) return sign + digits;
    if (digits.length > scale) return `${sign}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
    return `${sign}0.${'0'.repeat(scale - digits.length)}${digits}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${mantissa}E${adjusted >= 0 ? '+' : ''}${adjusted}`;
}

/** The canonical text of a value (normalizing a finite one). */
export function numberText(value: NumberValue): string {
  return isFinite(value) ? finiteText(normalize(value)) : value;
}

const DECIMAL_SYNTAX = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;

/** Text in Java's BigDecimal syntax (`-1.5`, `.5`, `5.`, `1e-3`), or undefined. */
export function parseFinite(text: string): FiniteNumber | undefined {
  const m = DECIMAL_SYNTAX.exec(text);
  if (m === null) return undefined;
  const fraction = m[3] ?? m[4] ?? '';
  const exponent = m[5] === undefined ? 0 : Number(m[5]);
  if (!Number.isSafeInteger(exponent)) return undefined;
  const unscaled = BigInt((m[2] ?? '') + fraction);
  return { unscaled: m[1] === '-' ? -unscaled : unscaled, scale: fraction.length - exponent };
}

/** A stored value (canonical text) as a NumberValue. */
export function numberValue(text: string): NumberValue {
  if (text === 'NaN' || text === '+Infinity' || text === '-Infinity') return text;
  return parseFinite(text) as FiniteNumber;
}

/** Text as CAST(varchar AS number) reads it: trimmed, then NaN, [+-]Infinity or a decimal; undefined when it is none. */
export function parseNumberText(text: string): NumberValue | undefined {
  // Java's String.trim: every code point up to U+0020 at either end.
  const trimmed = text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  switch (trimmed) {
    case 'NaN':
      return 'NaN';
    case 'Infinity':
    case '+Infinity':
      return '+Infinity';
    case '-Infinity':
      return '-Infinity';
    default:
      return parseFinite(trimmed);
  }
}

/** The two values at one scale (the larger). */
export function aligned(a: FiniteNumber, b: FiniteNumber): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.unscaled * powerOf10(scale - a.scale), b.unscaled * powerOf10(scale - b.scale), scale];
}

/** A total order: -Infinity, the finite values, +Infinity, NaN (Trino's ordering of NUMBER). */
export function compareNumbers(a: NumberValue, b: NumberValue): number {
  const rank = (v: NumberValue) => (v === '-Infinity' ? 0 : isFinite(v) ? 1 : v === '+Infinity' ? 2 : 3);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb || ra !== 1) return ra - rb;
  const x = a as FiniteNumber;
  const y = b as FiniteNumber;
  const sx = x.unscaled === 0n ? 0 : x.unscaled < 0n ? -1 : 1;
  const sy = y.unscaled === 0n ? 0 : y.unscaled < 0n ? -1 : 1;
  if (sx !== sy) return sx - sy;
  const [p, q] = aligned(x, y);
  return p < q ? -1 : p > q ? 1 : 0;
}

/** compareNumbers over stored texts. */
export function compareNumberTexts(a: string, b: string): number {
  return a === b ? 0 : compareNumbers(numberValue(a), numberValue(b));
}
