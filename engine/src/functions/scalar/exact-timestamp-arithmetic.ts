// Unit arithmetic on plain timestamps held as picoseconds since the epoch (bigint), exact at every
// year: a double of micros since the epoch loses digits beyond 2^53 (before 1685, after 2255), but a
// day number fits a double at any year and the time of the day stays a bigint, so month arithmetic
// goes through whole days (addMonthsToDays) and fixed units add or divide bigints. The semantics
// are those of the micros bodies in datetime-fields.ts (Joda's completed units for date_diff).

import { addMonthsToDays } from '../../types/datetime.js';
import { floorDiv } from '../../types/long-plain-temporal.js';
import { PICOS_PER_DAY } from '../../types/zoned-time.js';
import { type DateTimeUnit, UNIT_MICROS, monthsBetween, truncateDate } from './datetime-fields.js';

const PICOS_PER_MICRO = 1_000_000n;
const PICOS_PER_MILLI = 1_000_000_000n;
const MONTHS_OF_UNIT: Partial<Record<DateTimeUnit, bigint>> = { month: 1n, quarter: 3n, year: 12n };

const unitPicos = (unit: DateTimeUnit): bigint => BigInt(UNIT_MICROS[unit as keyof typeof UNIT_MICROS]) * PICOS_PER_MICRO;

/** The timestamp moved by whole months; the day clamps to the month's end and the time of day stays. */
export function addMonthsExact(picos: bigint, months: bigint): bigint {
  const days = floorDiv(picos, PICOS_PER_DAY);
  return BigInt(addMonthsToDays(Number(days), Number(months))) * PICOS_PER_DAY + (picos - days * PICOS_PER_DAY);
}

/** date_add(unit, amount, timestamp). */
export function addUnitsExact(unit: DateTimeUnit, amount: bigint, picos: bigint): bigint {
  const months = MONTHS_OF_UNIT[unit];
  return months === undefined ? picos + amount * unitPicos(unit) : addMonthsExact(picos, amount * months);
}

/** date_diff(unit, a, b) on the whole millis of each (Trino floors its values to millis first). */
export function diffUnitsExact(unit: DateTimeUnit, a: bigint, b: bigint): bigint {
  const [am, bm] = [floorDiv(a, PICOS_PER_MILLI) * PICOS_PER_MILLI, floorDiv(b, PICOS_PER_MILLI) * PICOS_PER_MILLI];
  const months = MONTHS_OF_UNIT[unit];
  if (months === undefined) return (bm - am) / unitPicos(unit); // bigint division truncates toward zero
  const [ad, bd] = [floorDiv(am, PICOS_PER_DAY), floorDiv(bm, PICOS_PER_DAY)];
  return BigInt(monthsBetween(Number(ad), am - ad * PICOS_PER_DAY, Number(bd), bm - bd * PICOS_PER_DAY)) / months;
}

/** date_trunc(unit, timestamp). */
export function truncateExact(unit: DateTimeUnit, picos: bigint): bigint {
  if (unit === 'week' || MONTHS_OF_UNIT[unit] !== undefined)
    return BigInt(truncateDate(unit, Number(floorDiv(picos, PICOS_PER_DAY)))) * PICOS_PER_DAY;
  const size = unitPicos(unit);
  return floorDiv(picos, size) * size;
}
