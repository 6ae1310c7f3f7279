// `timestamp(p)` for p 4..12 and `time(p)` for p 7..12 (Trino's LongTimestamp: epoch micros plus the
// picos of that micro; its time(p) is picos of the day at every precision). A double of microseconds
// is exact only within 2^53 of the epoch (years 1685..2255), and a timestamp of any year -290308..294247
// must keep its microseconds (Trino's int64 epoch micros), so timestamps above millisecond precision
// are long; a timestamp(0..3) keeps its number of microseconds, a whole number of millis that rounds
// back exactly up to 2^62 micros (short-plain-timestamp.ts), and a time(0..6) its micros of the day
// (always exact). Long values hold one JS bigint per value in a bigint[] column:
// picoseconds since the epoch (wall clock, as if UTC) for a timestamp, picoseconds of the day for a
// time. A bigint equals, hashes and orders as the value does, so the generic paths serve it.

import type { Scalar } from './scalar.js';
import { formatDate, parseDate } from './datetime.js';
import { checkShortTimestamp, shortTimestampMillis } from './short-plain-timestamp.js';
import { tryZoneKeyOf } from './time-zones.js';
import type { SqlType } from './types.js';
import { PICOS_PER_DAY, formatPicosOfDay, parseZonedTime } from './zoned-time.js';

/** Plain times up to this precision are short (a number of microseconds of the day). */
export const MAX_SHORT_PLAIN_PRECISION = 6;
/** Plain timestamps up to this precision are short (a number of microseconds, whole millis). */
export const MAX_SHORT_PLAIN_TIMESTAMP_PRECISION = 3;

/** The highest short precision of a plain `timestamp` or `time`. */
export function maxShortPrecision(kind: 'timestamp' | 'time'): number {
  return kind === 'timestamp' ? MAX_SHORT_PLAIN_TIMESTAMP_PRECISION : MAX_SHORT_PLAIN_PRECISION;
}
export const PICOS_PER_MICRO = 1_000_000n;
const PICOS_PER_MILLI = 1000n * PICOS_PER_MICRO;
const PICOS_DAY = PICOS_PER_DAY;

/** Whether `type` is a plain timestamp or time held as bigint picoseconds. */
export function isLongPlain(type: SqlType): boolean {
  return (type.kind === 'timestamp' || type.kind === 'time') && type.precision > maxShortPrecision(type.kind);
}

/** Whether a type holds a long plain temporal value at any depth (arrays, maps, rows). */
export function nestsLongPlain(type: SqlType): boolean {
  switch (type.kind) {
    case 'array':
      return nestsLongPlain(type.element);
    case 'map':
      return nestsLongPlain(type.key) || nestsLongPlain(type.value);
    case 'row':
      return type.fields.some((f) => nestsLongPlain(f.type));
    default:
      return isLongPlain(type);
  }
}

export function floorDiv(a: bigint, b: bigint): bigint {
  // Truncation is the floor when both are non-negative (every timestamp from 1970): one BigInt made, not two.
  if (a >= 0n && b > 0n) return a / b;
  const q = a / b;
  return q * b > a ? q - 1n : q;
}

/** Picoseconds rounded half up (toward +infinity at the half, as Trino) to `precision` digits. */
export function roundPicos(picos: bigint, precision: number): bigint {
  if (precision >= 12) return picos;
  const unit = PICOS_UNITS[precision];
  return floorDiv(picos + unit / 2n, unit) * unit;
}

/** Picoseconds in one unit of the last digit of each precision 0..12. */
const PICOS_UNITS = Array.from({ length: 13 }, (_, p) => 10n ** BigInt(12 - p));

/** Micros doubles are exact integers below this magnitude. */
const EXACT_MICROS = 2 ** 53;

/** A short timestamp (micros, whole millis) of picoseconds rounded half up to `precision` (0..3): numbers where exact. */
function shortTimestampOfPicos(picos: bigint, precision: number): number {
  const micros = Number(floorDiv(picos, PICOS_PER_MICRO));
  // Half up on picoseconds is half up on their whole micros (a half unit is whole micros).
  if (micros > -EXACT_MICROS && micros < EXACT_MICROS) {
    const unit = 10 ** (6 - precision);
    return Math.floor((micros + unit / 2) / unit) * unit;
  }
  return Number(checkShortTimestamp(roundPicos(picos, precision)) / PICOS_PER_MICRO);
}

/** The picoseconds (since the epoch, or of the day for a time) of a date, time or timestamp value. */
export function readPicos(type: SqlType): (v: Scalar) => bigint {
  if (type.kind === 'date') return (v) => BigInt(v as number) * PICOS_DAY;
  if (isLongPlain(type)) return (v) => v as bigint;
  if (type.kind === 'timestamp') return (v) => BigInt(shortTimestampMillis(v as number)) * PICOS_PER_MILLI;
  return (v) => BigInt(v as number) * PICOS_PER_MICRO;
}

/** A value of `type` (timestamp, time or date) of picoseconds: rounded to its precision; a time wraps at midnight, a date is the day. */
export function writePicos(type: SqlType): (picos: bigint) => Scalar {
  if (type.kind === 'date') return (p) => Number(floorDiv(p, PICOS_DAY));
  const precision = (type as { precision: number }).precision;
  const wrap = type.kind === 'time' ? (p: bigint) => p - floorDiv(p, PICOS_DAY) * PICOS_DAY : (p: bigint) => p;
  if (isLongPlain(type)) return (p) => wrap(roundPicos(p, precision));
  if (type.kind === 'timestamp') return (p) => shortTimestampOfPicos(p, precision);
  return (p) => Number(wrap(roundPicos(p, precision)) / PICOS_PER_MICRO);
}

/** Trino's text of a long value: '2020-01-01 12:34:56.123456789012' or '12:34:56.1234567'. */
export function formatLongPlain(v: bigint, type: SqlType): string {
  const precision = (type as { precision: number }).precision;
  if (type.kind === 'time') return formatPicosOfDay(v, precision);
  const days = floorDiv(v, PICOS_DAY);
  return `${formatDate(Number(days))} ${formatPicosOfDay(v - days * PICOS_DAY, precision)}`;
}

/** Whole microseconds (floor) of a long timestamp or time: for functions that compute on micros. */
export function floorMicros(v: bigint): number {
  return Number(floorDiv(v, PICOS_PER_MICRO));
}

/** The picoseconds within the microsecond of a long value. */
export function picosOfMicro(v: bigint): bigint {
  return v - floorDiv(v, PICOS_PER_MICRO) * PICOS_PER_MICRO;
}

export interface ParsedPicos {
  picos: bigint;
  /** Fraction digits written. */
  precision: number;
}

const TIMESTAMP_TEXT = /^([+-]?\d{1,6}-\d{1,2}-\d{1,2})(?:[ T](.*))?$/;

/** Time text without an offset, exact to 12 fraction digits; undefined when invalid. */
export function parseTimePicos(text: string): ParsedPicos | undefined {
  const parsed = parseZonedTime(text);
  if (parsed === undefined || parsed.offsetMinutes !== undefined) return undefined;
  return { picos: parsed.picos, precision: parsed.precision };
}

// A date, an optional time, then an optional zone (an offset or a zone name).
const ZONE_SUFFIX = /^([+-]?\d{1,6}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{1,2}(?::\d{1,2}(?:\.\d+)?)?)?)\s*([+-]\d.*|[A-Za-z].*)$/;

/**
 * Timestamp text without the zone it may end in: Trino's cast to a plain timestamp reads the local
 * fields and ignores a valid zone ('2001-1-22 03:04:05.321 +07:09' -> 2001-01-22 03:04:05.321).
 */
export function withoutZone(text: string): string {
  const m = ZONE_SUFFIX.exec(text.trim());
  return m !== null && tryZoneKeyOf(m[2].trim()) !== undefined ? m[1] : text;
}

/** 'YYYY-MM-DD[ HH:MM[:SS[.f{1,12}]]][ zone]' as wall-clock picoseconds since the epoch; undefined when invalid. */
export function parseTimestampPicos(text: string): ParsedPicos | undefined {
  const m = TIMESTAMP_TEXT.exec(withoutZone(text).trim());
  if (m === null) return undefined;
  const days = parseDate(m[1]);
  if (days === undefined) return undefined;
  const dayPicos = BigInt(days) * PICOS_DAY;
  if (m[2] === undefined || m[2] === '') return { picos: dayPicos, precision: 0 };
  const time = parseTimePicos(m[2]);
  return time === undefined ? undefined : { picos: dayPicos + time.picos, precision: time.precision };
}
