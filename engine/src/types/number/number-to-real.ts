// NUMBER to real, correctly rounded as Java's BigDecimal.floatValue: rounding to a double first
// and then to a float errs only when the double lands exactly halfway between two floats, so that
// case is decided on the exact value.

import { type FiniteNumber, type NumberValue, compareNumbers, isFinite, numberText } from './number-value.js';

export function numberToReal(value: NumberValue): number {
  if (!isFinite(value)) return value === 'NaN' ? NaN : value === '+Infinity' ? Infinity : -Infinity;
  const double = Number(numberText(value));
  const nearest = Math.fround(double);
  if (nearest === double || !Number.isFinite(nearest)) return nearest;
  const other = adjacentFloat(nearest, double > nearest);
  if ((nearest + other) / 2 !== double) return nearest;
  const side = compareNumbers(value, exactDouble(double));
  if (side === 0) return nearest; // a true tie: fround rounded half to even
  return side > 0 === other > nearest ? other : nearest;
}

/** The float next to `f` (a finite float) upwards or downwards. */
function adjacentFloat(f: number, upwards: boolean): number {
  if (f === 0) return upwards ? 1.401298464324817e-45 : -1.401298464324817e-45; // the smallest subnormal
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, f);
  const bits = view.getInt32(0);
  // Float bits order magnitudes: away from zero is +1 on the bits.
  view.setInt32(0, upwards === f > 0 ? bits + 1 : bits - 1);
  return view.getFloat32(0);
}

/** The exact decimal value of a finite double. */
function exactDouble(d: number): FiniteNumber {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  const signed = d < 0 ? -mantissa : mantissa;
  if (exponent >= 0) return { unscaled: signed << BigInt(exponent), scale: 0 };
  return { unscaled: signed * 5n ** BigInt(-exponent), scale: -exponent };
}
