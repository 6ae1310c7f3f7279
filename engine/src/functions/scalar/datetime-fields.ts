// Field access and unit arithmetic on dates (days), times (micros of day) and timestamps (epoch
// micros), shared by the date/time functions.

import { EngineError } from '../../errors/engine-error.js';
import {
  MICROS_PER_DAY,
  MICROS_PER_HOUR,
  MICROS_PER_MILLI,
  MICROS_PER_MINUTE,
  MICROS_PER_SECOND,
  addMonthsToDays,
  civilToDays,
  dayOfMonthOfDays,
  daysInMonth,
  daysToCivil,
  dayOfWeekOfDays,
  monthOfDays,
  timestampDays,
  timestampMicrosOfDay,
  yearOfDays,
} from '../../types/datetime.js';

export type DateTimeUnit = 'millisecond' | 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

/** Fixed-length units in microseconds. */
export const UNIT_MICROS: Record<'millisecond' | 'second' | 'minute' | 'hour' | 'day' | 'week', number> = {
  millisecond: MICROS_PER_MILLI,
  second: MICROS_PER_SECOND,
  minute: MICROS_PER_MINUTE,
  hour: MICROS_PER_HOUR,
  day: MICROS_PER_DAY,
  week: 7 * MICROS_PER_DAY,
};

const MONTHS_OF_UNIT = { month: 1, quarter: 3, year: 12 } as const;

const DATE_UNITS: readonly DateTimeUnit[] = ['day', 'week', 'month', 'quarter', 'year'];
const TIME_UNITS: readonly DateTimeUnit[] = ['millisecond', 'second', 'minute', 'hour'];
const ALL_UNITS: readonly DateTimeUnit[] = [...TIME_UNITS, ...DATE_UNITS];

export type TemporalKind = 'date' | 'time' | 'timestamp';

/** The unit named by the (case-insensitive) text, checked against what the value kind has. */
export function parseUnit(text: string, kind: TemporalKind): DateTimeUnit {
  const unit = text.toLowerCase() as DateTimeUnit;
  const allowed = kind === 'date' ? DATE_UNITS : kind === 'time' ? TIME_UNITS : ALL_UNITS;
  if (!allowed.includes(unit)) {
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `'${text}' is not a valid ${kind.toUpperCase()} field`);
  }
  return unit;
}

function monthsOf(unit: DateTimeUnit): number | undefined {
  return unit === 'month' || unit === 'quarter' || unit === 'year' ? MONTHS_OF_UNIT[unit] : undefined;
}

/** Adds `amount` units to a timestamp (month arithmetic clamps the day to the month's end). */
export function addToTimestamp(unit: DateTimeUnit, amount: number, micros: number): number {
  const months = monthsOf(unit);
  if (months !== undefined) {
    return addMonthsToDays(timestampDays(micros), amount * months) * MICROS_PER_DAY + timestampMicrosOfDay(micros);
  }
  return micros + amount * UNIT_MICROS[unit as keyof typeof UNIT_MICROS];
}

export function addToDate(unit: DateTimeUnit, amount: number, days: number): number {
  const months = monthsOf(unit);
  if (months !== undefined) return addMonthsToDays(days, amount * months);
  return days + amount * (unit === 'week' ? 7 : 1);
}

export function addToTime(unit: DateTimeUnit, amount: number, micros: number): number {
  const r = (micros + amount * UNIT_MICROS[unit as keyof typeof UNIT_MICROS]) % MICROS_PER_DAY;
  return r < 0 ? r + MICROS_PER_DAY : r;
}

/** Whole units from `a` to `b` (Joda's semantics: completed units, truncated toward zero). */
export function diffTimestamps(unit: DateTimeUnit, a: number, b: number): number {
  const months = monthsOf(unit);
  if (months === undefined) return Math.trunc((b - a) / UNIT_MICROS[unit as keyof typeof UNIT_MICROS]);
  return Math.trunc(monthsBetween(timestampDays(a), timestampMicrosOfDay(a), timestampDays(b), timestampMicrosOfDay(b)) / months);
}

/**
 * Whole months from a to b, each a day since the epoch and a time of that day, as Joda counts them:
 * from the earlier to the later (negated when b is earlier), the later's month minus the earlier's,
 * less one when the later's day and time of its month come before the earlier's; on the last day
 * of the later's month a larger day of the earlier's counts as that last day (Jan 31 to Feb 28 is a month).
 */
export function monthsBetween(aDays: number, aTime: number | bigint, bDays: number, bTime: number | bigint): number {
  if (bDays < aDays || (bDays === aDays && bTime < aTime)) return -monthsBetween(bDays, bTime, aDays, aTime);
  const [later, earlier] = [daysToCivil(bDays), daysToCivil(aDays)];
  const difference = (later.year - earlier.year) * 12 + later.month - earlier.month;
  const earlierDay = later.day === daysInMonth(later.year, later.month) && earlier.day > later.day ? later.day : earlier.day;
  return later.day < earlierDay || (later.day === earlierDay && bTime < aTime) ? difference - 1 : difference;
}

/** Truncates a timestamp to the start of its unit. */
export function truncateTimestamp(unit: DateTimeUnit, micros: number): number {
  if (unit === 'week' || monthsOf(unit) !== undefined) return truncateDate(unit, timestampDays(micros)) * MICROS_PER_DAY;
  const size = UNIT_MICROS[unit as keyof typeof UNIT_MICROS];
  return Math.floor(micros / size) * size;
}

export function truncateDate(unit: DateTimeUnit, days: number): number {
  switch (unit) {
    case 'week':
      return days - dayOfWeekOfDays(days) + 1;
    case 'month':
      return days - dayOfMonthOfDays(days) + 1;
    case 'quarter': {
      const month = monthOfDays(days);
      return civilToDays(yearOfDays(days), month - ((month - 1) % 3), 1);
    }
    case 'year':
      return civilToDays(yearOfDays(days), 1, 1);
    default:
      return days;
  }
}
