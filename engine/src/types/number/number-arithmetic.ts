// +, -, *, /, % and negation of NUMBER values, as Trino's NumberOperators: exact for finite values
// except division (HALF_UP at scale max(dividend scale + divisor precision + 1, 6), as decimal
// division); Infinity and NaN as floating point, except that a finite value divided by zero fails
// with DIVISION_BY_ZERO (decimal semantics) instead of giving Infinity.

import { EngineError } from '../../errors/engine-error.js';
import { type FiniteNumber, type NumberValue, aligned, divideHalfUp, isFinite, normalize, powerOf10 } from './number-value.js';

type Infinity = '+Infinity' | '-Infinity';

function divisionByZero(): EngineError {
  return new EngineError('DIVISION_BY_ZERO', 'Division by zero');
}

function infinity(negative: boolean): Infinity {
  return negative ? '-Infinity' : '+Infinity';
}

function sign(value: FiniteNumber): number {
  return value.unscaled === 0n ? 0 : value.unscaled < 0n ? -1 : 1;
}

export function negateNumber(value: NumberValue): NumberValue {
  if (value === 'NaN') return value;
  if (!isFinite(value)) return infinity(value === '+Infinity');
  return { unscaled: -value.unscaled, scale: value.scale };
}

export function addNumbers(a: NumberValue, b: NumberValue): NumberValue {
  if (a === 'NaN' || b === 'NaN') return 'NaN';
  if (!isFinite(a)) return isFinite(b) || a === b ? a : 'NaN';
  if (!isFinite(b)) return b;
  const [x, y, scale] = aligned(a, b);
  return normalize({ unscaled: x + y, scale });
}

export function subtractNumbers(a: NumberValue, b: NumberValue): NumberValue {
  return addNumbers(a, negateNumber(b));
}

export function multiplyNumbers(a: NumberValue, b: NumberValue): NumberValue {
  if (a === 'NaN' || b === 'NaN') return 'NaN';
  if (isFinite(a) && isFinite(b)) return normalize({ unscaled: a.unscaled * b.unscaled, scale: a.scale + b.scale });
  // Infinity times zero is NaN; otherwise an infinity of the product's sign.
  const signs = [a, b].map((v) => (isFinite(v) ? sign(v) : v === '+Infinity' ? 1 : -1));
  return signs[0] * signs[1] === 0 ? 'NaN' : infinity(signs[0] * signs[1] < 0);
}

export function divideNumbers(a: NumberValue, b: NumberValue): NumberValue {
  if (a === 'NaN' || b === 'NaN') return 'NaN';
  if (!isFinite(a)) return isFinite(b) ? infinity((a === '-Infinity') !== sign(b) < 0) : 'NaN';
  if (!isFinite(b)) return { unscaled: 0n, scale: 0 };
  if (b.unscaled === 0n) throw divisionByZero();
  const precision = b.unscaled < 0n ? (-b.unscaled).toString().length : b.unscaled.toString().length;
  const scale = Math.max(a.scale + precision + 1, 6);
  // a / b at `scale`: a.unscaled * 10^(scale - a.scale + b.scale) / b.unscaled.
  const shift = scale - a.scale + b.scale;
  const quotient =
    shift >= 0 ? divideHalfUp(a.unscaled * powerOf10(shift), b.unscaled) : divideHalfUp(a.unscaled, b.unscaled * powerOf10(-shift));
  return normalize({ unscaled: quotient, scale });
}

/** Java's BigDecimal.remainder: a - b × trunc(a / b), the sign of a. */
export function remainderNumbers(a: NumberValue, b: NumberValue): NumberValue {
  if (a === 'NaN') return a;
  if (!isFinite(a)) return 'NaN';
  if (b === 'NaN') return b;
  if (!isFinite(b)) return a;
  if (b.unscaled === 0n) throw divisionByZero();
  const [x, y, scale] = aligned(a, b);
  return normalize({ unscaled: x % y, scale });
}
