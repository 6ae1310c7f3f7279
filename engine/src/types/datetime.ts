// Dates, times, timestamps and intervals as page.ts stores them: dates as days since 1970-01-01,
// times as microseconds of the day, timestamps as microseconds since the epoch (UTC wall time),
// year-month intervals as months, day-second intervals as milliseconds. The civil-calendar
// conversions are integer arithmetic (proleptic Gregorian, Howard Hinnant's algorithms), so hot
// loops never build Date objects.

export const MICROS_PER_MILLI = 1000;
export const MICROS_PER_SECOND = 1_000_000;
export const MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
export const MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
export const MICROS_PER_DAY = 24 * MICROS_PER_HOUR;
export const MILLIS_PER_SECOND = 1000;
export const MILLIS_PER_MINUTE = 60 * MILLIS_PER_SECOND;
export const MILLIS_PER_HOUR = 60 * MILLIS_PER_MINUTE;
export const MILLIS_PER_DAY = 24 * MILLIS_PER_HOUR;

export interface CivilDate {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
}

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1..12; day may overflow the month). */
export function civilToDays(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const monthIndex = month > 2 ? month - 3 : month + 9;
  const dayOfYear = Math.floor((153 * monthIndex + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

// The three parts of daysToCivil, each computable alone so loops need no object per row.
function shiftedDayOfEra(days: number): number {
  const z = days + 719468;
  return z - Math.floor(z / 146097) * 146097;
}
function yearOfEraOf(dayOfEra: number): number {
  return Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
}
function shiftedMonthAndDay(days: number): { monthIndex: number; dayOfYear: number } {
  const doe = shiftedDayOfEra(days);
  const yoe = yearOfEraOf(doe);
  const dayOfYear = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  return { monthIndex: Math.floor((5 * dayOfYear + 2) / 153), dayOfYear };
}

export function yearOfDays(days: number): number {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = yearOfEraOf(doe);
  const dayOfYear = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  return yoe + era * 400 + (monthIndex >= 10 ? 1 : 0);
}

export function monthOfDays(days: number): number {
  const { monthIndex } = shiftedMonthAndDay(days);
  return monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
}

export function dayOfMonthOfDays(days: number): number {
  const { monthIndex, dayOfYear } = shiftedMonthAndDay(days);
  return dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
}

export function daysToCivil(days: number): CivilDate {
  return { year: yearOfDays(days), month: monthOfDays(days), day: dayOfMonthOfDays(days) };
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
}

/** ISO day of week: Monday 1 .. Sunday 7. */
export function dayOfWeekOfDays(days: number): number {
  // 1970-01-01 was a Thursday (4).
  return ((((days + 3) % 7) + 7) % 7) + 1;
}

export function dayOfYearOfDays(days: number): number {
  return days - civilToDays(yearOfDays(days), 1, 1) + 1;
}

/** The ISO-8601 week-based year and week number of a date. */
export function isoWeekOfDays(days: number): { weekYear: number; week: number } {
  const thursday = days - dayOfWeekOfDays(days) + 4; // the Thursday of this ISO week decides its year
  const weekYear = yearOfDays(thursday);
  const week = Math.floor((thursday - civilToDays(weekYear, 1, 1)) / 7) + 1;
  return { weekYear, week };
}

/** Adds months to a date, clamping the day to the end of the target month (Jan 31 + 1 month = Feb 28/29). */
export function addMonthsToDays(days: number, months: number): number {
  const { year, month, day } = daysToCivil(days);
  const total = year * 12 + (month - 1) + months;
  const newYear = Math.floor(total / 12);
  const newMonth = total - newYear * 12 + 1;
  return civilToDays(newYear, newMonth, Math.min(day, daysInMonth(newYear, newMonth)));
}

/** Days since the epoch of a timestamp in microseconds (floor, so times before 1970 work). */
export function timestampDays(micros: number): number {
  return Math.floor(micros / MICROS_PER_DAY);
}

/** Microseconds since midnight of a timestamp. */
export function timestampMicrosOfDay(micros: number): number {
  return micros - Math.floor(micros / MICROS_PER_DAY) * MICROS_PER_DAY;
}

// ---------------------------------------------------------------------------------------------
// Text

function pad(n: number, width: number): string {
  const s = String(n);
  return s.length >= width ? s : '0'.repeat(width - s.length) + s;
}

/** Years as Trino prints them: four digits, a sign beyond 9999 or before 0000. */
function formatYear(year: number): string {
  if (year < 0) return `-${pad(-year, 4)}`;
  return year > 9999 ? `+${year}` : pad(year, 4);
}

/** 'YYYY-MM-DD' */
export function formatDate(days: number): string {
  return `${formatYear(yearOfDays(days))}-${pad(monthOfDays(days), 2)}-${pad(dayOfMonthOfDays(days), 2)}`;
}

/** 'HH:MM:SS' plus `precision` fraction digits, of microseconds since midnight. */
export function formatTimeOfDay(microsOfDay: number, precision: number): string {
  const seconds = Math.floor(microsOfDay / MICROS_PER_SECOND);
  const fraction = microsOfDay - seconds * MICROS_PER_SECOND;
  const text = `${pad(Math.floor(seconds / 3600), 2)}:${pad(Math.floor(seconds / 60) % 60, 2)}:${pad(seconds % 60, 2)}`;
  if (precision <= 0) return text;
  const digits = pad(Math.round(fraction), 6);
  return `${text}.${precision <= 6 ? digits.slice(0, precision) : digits + '0'.repeat(precision - 6)}`;
}

/** 'YYYY-MM-DD HH:MM:SS.fff' with `precision` fraction digits. */
export function formatTimestamp(micros: number, precision: number): string {
  return `${formatDate(timestampDays(micros))} ${formatTimeOfDay(timestampMicrosOfDay(micros), precision)}`;
}

const DATE_TEXT = /^\s*([+-]?\d{1,6})-(\d{1,2})-(\d{1,2})\s*$/;

/** Days of 'YYYY-MM-DD' text, or undefined when it is not a valid date. */
export function parseDate(text: string): number | undefined {
  const m = DATE_TEXT.exec(text);
  return m === null ? undefined : validDays(Number(m[1]), Number(m[2]), Number(m[3]));
}

function validDays(year: number, month: number, day: number): number | undefined {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return civilToDays(year, month, day);
}

const TIME_TEXT = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,12}))?)?$/;

export interface ParsedTime {
  micros: number;
  /** Number of fraction digits written. */
  precision: number;
}

/** Microseconds of day of 'HH:MM[:SS[.fff]]', rounded to microseconds; undefined when invalid. */
export function parseTimeOfDay(text: string): ParsedTime | undefined {
  const m = TIME_TEXT.exec(text.trim());
  if (m === null) return undefined;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = m[3] === undefined ? 0 : Number(m[3]);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const fraction = m[4] ?? '';
  const micros = fraction === '' ? 0 : Math.round(Number(`0.${fraction}`) * MICROS_PER_SECOND);
  return { micros: hour * MICROS_PER_HOUR + minute * MICROS_PER_MINUTE + second * MICROS_PER_SECOND + micros, precision: fraction.length };
}

// Matched on trimmed text: a lazy `(.*?)` before `\s*$` retries at every space (quadratic).
const TIMESTAMP_TEXT = /^([+-]?\d{1,6}-\d{1,2}-\d{1,2})(?:[ T](.*))?$/;

/** Epoch microseconds of 'YYYY-MM-DD[ HH:MM[:SS[.fff]]]'; undefined when invalid. */
export function parseTimestamp(text: string): ParsedTime | undefined {
  const m = TIMESTAMP_TEXT.exec(text.trim());
  if (m === null) return undefined;
  const days = parseDate(m[1]);
  if (days === undefined) return undefined;
  if (m[2] === undefined || m[2] === '') return { micros: days * MICROS_PER_DAY, precision: 0 };
  const time = parseTimeOfDay(m[2]);
  if (time === undefined) return undefined;
  return { micros: days * MICROS_PER_DAY + time.micros, precision: time.precision };
}

/** Rounds microseconds to `precision` fraction digits (0..6), half up as Trino rounds. */
export function roundMicros(micros: number, precision: number): number {
  if (precision >= 6) return micros;
  const unit = 10 ** (6 - precision);
  return Math.floor((micros + unit / 2) / unit) * unit;
}

// ---------------------------------------------------------------------------------------------
// Intervals

/** Year-month interval as Trino prints it: 14 months -> "1-2", -14 -> "-1-2". */
export function formatIntervalYearMonth(months: number): string {
  const sign = months < 0 ? '-' : '';
  const abs = Math.abs(months);
  return `${sign}${Math.floor(abs / 12)}-${abs % 12}`;
}

/** Day-second interval as Trino prints it: "1 02:03:04.000", negative with a leading "-". */
export function formatIntervalDaySecond(millis: number): string {
  const sign = millis < 0 ? '-' : '';
  const abs = Math.abs(millis);
  const days = Math.floor(abs / MILLIS_PER_DAY);
  const rest = abs - days * MILLIS_PER_DAY;
  return `${sign}${days} ${formatTimeOfDay(rest * MICROS_PER_MILLI, 3)}`;
}
