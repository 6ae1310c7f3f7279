// Rounding a NUMBER to a number of digits after the point, in Java's rounding modes (setScale).

import { type FiniteNumber, divideHalfUp, normalize, powerOf10 } from './number-value.js';

export type RoundingMode = 'HALF_UP' | 'DOWN' | 'FLOOR' | 'CEILING';

/** `value` rounded to `scale` digits after the point (a negative scale rounds to tens, hundreds, ...). */
export function roundNumber(value: FiniteNumber, scale: number, mode: RoundingMode): FiniteNumber {
  if (value.scale <= scale || value.unscaled === 0n) return value;
  const dropped = value.scale - scale;
  const digits = (value.unscaled < 0n ? -value.unscaled : value.unscaled).toString().length;
  // More digits dropped than the value has: its magnitude is below half a unit of `scale`.
  if (dropped > digits + 1) {
    const away = (mode === 'CEILING' && value.unscaled > 0n) || (mode === 'FLOOR' && value.unscaled < 0n);
    return away ? normalize({ unscaled: value.unscaled > 0n ? 1n : -1n, scale }) : { unscaled: 0n, scale: 0 };
  }
  const divisor = powerOf10(dropped);
  const truncated = value.unscaled / divisor;
  const exact = truncated * divisor === value.unscaled;
  let unscaled: bigint;
  switch (mode) {
    case 'HALF_UP':
      unscaled = divideHalfUp(value.unscaled, divisor);
      break;
    case 'DOWN':
      unscaled = truncated;
      break;
    case 'FLOOR':
      unscaled = exact || value.unscaled > 0n ? truncated : truncated - 1n;
      break;
    case 'CEILING':
      unscaled = exact || value.unscaled < 0n ? truncated : truncated + 1n;
      break;
  }
  return normalize({ unscaled, scale });
}
