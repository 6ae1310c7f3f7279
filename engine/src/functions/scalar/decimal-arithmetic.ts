// Decimal operators with Trino's result types (DecimalOperators): exact bigint arithmetic on unscaled
// values, HALF_UP rounding, overflow of the result precision is NUMERIC_VALUE_OUT_OF_RANGE.

import { checkDecimalOverflow, divideRoundHalfUp, powerOfTen, rescale } from '../../types/decimal.js';
import { type SqlType, decimal, MAX_DECIMAL_PRECISION } from '../../types/types.js';
import { divisionByZero } from './integer-arithmetic.js';

interface DecimalParams {
  precision: number;
  scale: number;
}

function params(t: SqlType): DecimalParams {
  if (t.kind !== 'decimal') throw new Error(`expected a decimal type, got ${t.kind}`);
  return t;
}

export function decimalAddType(a: SqlType, b: SqlType): SqlType {
  const x = params(a);
  const y = params(b);
  const scale = Math.max(x.scale, y.scale);
  const precision = Math.min(MAX_DECIMAL_PRECISION, Math.max(x.precision - x.scale, y.precision - y.scale) + scale + 1);
  return decimal(precision, scale);
}

export function decimalMultiplyType(a: SqlType, b: SqlType): SqlType {
  const x = params(a);
  const y = params(b);
  return decimal(Math.min(MAX_DECIMAL_PRECISION, x.precision + y.precision), x.scale + y.scale);
}

export function decimalDivideType(a: SqlType, b: SqlType): SqlType {
  const x = params(a);
  const y = params(b);
  const scale = Math.max(x.scale, y.scale);
  return decimal(Math.min(MAX_DECIMAL_PRECISION, x.precision - x.scale + y.scale + scale), scale);
}

export function decimalModulusType(a: SqlType, b: SqlType): SqlType {
  const x = params(a);
  const y = params(b);
  const scale = Math.max(x.scale, y.scale);
  return decimal(Math.min(y.precision - y.scale, x.precision - x.scale) + scale, scale);
}

type DecimalBinary = (a: bigint, b: bigint) => bigint;

/** add / subtract: both operands brought to the result scale, then checked against its precision. */
export function decimalAddition(a: SqlType, b: SqlType, result: SqlType, sign: 1 | -1): DecimalBinary {
  const { scale, precision } = params(result);
  const aFactor = powerOfTen(scale - params(a).scale);
  const bFactor = powerOfTen(scale - params(b).scale);
  return sign === 1
    ? (x, y) => checkDecimalOverflow(x * aFactor + y * bFactor, precision)
    : (x, y) => checkDecimalOverflow(x * aFactor - y * bFactor, precision);
}

/** Unscaled values multiply directly: the result scale is the sum of the operand scales. */
export function decimalMultiplication(result: SqlType): DecimalBinary {
  const { precision } = params(result);
  return (x, y) => checkDecimalOverflow(x * y, precision);
}

export function decimalDivision(a: SqlType, b: SqlType, result: SqlType): DecimalBinary {
  const { precision, scale } = params(result);
  // a/10^sa ÷ b/10^sb, scaled by 10^s: a * 10^(s - sa + sb) / b
  const factor = powerOfTen(scale - params(a).scale + params(b).scale);
  return (x, y) => {
    if (y === 0n) throw divisionByZero();
    return checkDecimalOverflow(divideRoundHalfUp(x * factor, y), precision);
  };
}

export function decimalModulus(a: SqlType, b: SqlType, result: SqlType): DecimalBinary {
  const { scale } = params(result);
  const aScale = params(a).scale;
  const bScale = params(b).scale;
  return (x, y) => {
    if (y === 0n) throw divisionByZero();
    return rescale(x, aScale, scale) % rescale(y, bScale, scale);
  };
}

/** A decimal value of type `from` at the scale and precision of `to` (HALF_UP; overflow errors). */
export function decimalRescaler(from: SqlType, to: SqlType): (x: bigint) => bigint {
  const f = params(from);
  const t = params(to);
  if (t.scale >= f.scale && t.precision - t.scale >= f.precision - f.scale) {
    const factor = powerOfTen(t.scale - f.scale);
    return factor === 1n ? (x) => x : (x) => x * factor;
  }
  return (x) => checkDecimalOverflow(rescale(x, f.scale, t.scale), t.precision);
}
