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

/** A decimal operator, and its inline JS form when it is one operator on bigints with no check. */
export interface DecimalImplementation {
  invoke: DecimalBinary;
  inline?: (args: readonly string[]) => string;
}

/**
 * add / subtract: both operands brought to the result scale, then checked against its precision.
 * When the operands' own precisions bound the result within the result precision (the type was not
 * capped at 38 digits), the check cannot fail and is left out; a factor of 1 is not multiplied.
 */
export function decimalAddition(a: SqlType, b: SqlType, result: SqlType, sign: 1 | -1): DecimalImplementation {
  const { scale, precision } = params(result);
  const aScale = scale - params(a).scale;
  const bScale = scale - params(b).scale;
  const aFactor = powerOfTen(aScale);
  const bFactor = powerOfTen(bScale);
  const bound = Math.max(params(a).precision + aScale, params(b).precision + bScale) + 1;
  if (bound > precision) {
    return sign === 1
      ? { invoke: (x, y) => checkDecimalOverflow(x * aFactor + y * bFactor, precision) }
      : { invoke: (x, y) => checkDecimalOverflow(x * aFactor - y * bFactor, precision) };
  }
  const scaled = (factor: bigint, operand: string) => (factor === 1n ? operand : `${operand} * ${factor}n`);
  const inline = ([x, y]: readonly string[]) => `(${scaled(aFactor, x)} ${sign === 1 ? '+' : '-'} ${scaled(bFactor, y)})`;
  return { invoke: new Function('x', 'y', `return ${inline(['x', 'y'])};`) as DecimalBinary, inline };
}

/**
 * Unscaled values multiply directly: the result scale is the sum of the operand scales. The product
 * of a p1-digit and a p2-digit value has at most p1 + p2 digits: only a result capped at 38 digits
 * can overflow, so only then is it checked.
 */
export function decimalMultiplication(a: SqlType, b: SqlType, result: SqlType): DecimalImplementation {
  const { precision } = params(result);
  if (params(a).precision + params(b).precision > precision) return { invoke: (x, y) => checkDecimalOverflow(x * y, precision) };
  return { invoke: (x, y) => x * y, inline: ([x, y]) => `(${x} * ${y})` };
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
