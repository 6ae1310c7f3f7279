// `timestamp(p) with time zone` for p 4..12 (Trino's LongTimestampWithTimeZone: epoch millis, the
// picoseconds within that millisecond, and the zone). One JS bigint per value, held in a bigint[]
// column: (millis << 42) | (picosOfMilli << 12) | zone key. Picos of a milli fit in 30 bits, so
// `value >> 12` is still a number that orders and equals as the instant does, and the zone key
// keeps the low 12 bits: the equality, hashing and ordering of short zoned values serve both.

import { MILLIS_PER_DAY, formatDate, formatTimeOfDay } from './datetime.js';
import { packZoned, roundMillis, zonedKey, zonedMillis } from './zoned-timestamp.js';

/** Zoned timestamps up to this precision are short (one int64: millis << 12 | zone). */
export const SHORT_ZONED_PRECISION = 3;
export const PICOS_PER_MILLI = 1_000_000_000;
const PICOS_BITS = 30n;
const PICOS_MASK = (1n << PICOS_BITS) - 1n;
const ZONE_BITS = 12n;

export function isLongZoned(precision: number): boolean {
  return precision > SHORT_ZONED_PRECISION;
}

/** A zoned value taken apart: epoch millis, picoseconds within that milli, zone key. */
export interface ZonedParts {
  millis: number;
  picos: number;
  key: number;
}

export function packLongZoned(millis: number, picos: number, key: number): bigint {
  return (((BigInt(millis) << PICOS_BITS) | BigInt(picos)) << ZONE_BITS) | BigInt(key);
}

/** The parts of a value of `precision` (short or long). */
export function zonedParts(v: bigint, precision: number): ZonedParts {
  if (!isLongZoned(precision)) return { millis: zonedMillis(v), picos: 0, key: zonedKey(v) };
  return { millis: Number(v >> (PICOS_BITS + ZONE_BITS)), picos: Number((v >> ZONE_BITS) & PICOS_MASK), key: zonedKey(v) };
}

/** Parts rounded (half up, as Trino) to `precision` and packed in that precision's layout. */
export function packZonedParts(parts: ZonedParts, precision: number): bigint {
  const { millis, picos } = roundParts(parts.millis, parts.picos, precision);
  return isLongZoned(precision) ? packLongZoned(millis, picos, parts.key) : packZoned(millis, parts.key);
}

/** Millis and picos of a milli rounded half up to `precision` fraction digits of a second (0..12). */
export function roundParts(millis: number, picos: number, precision: number): { millis: number; picos: number } {
  if (precision <= SHORT_ZONED_PRECISION)
    return { millis: roundMillis(millis + (picos >= PICOS_PER_MILLI / 2 ? 1 : 0), precision), picos: 0 };
  const unit = 10 ** (12 - precision);
  const rounded = Math.floor((picos + unit / 2) / unit) * unit;
  return rounded >= PICOS_PER_MILLI ? { millis: millis + 1, picos: rounded - PICOS_PER_MILLI } : { millis, picos: rounded };
}

/** A value of `from` precision re-laid in `to` precision (rounding when it shrinks). */
export function rescaleZoned(v: bigint, from: number, to: number): bigint {
  if (from === to || (!isLongZoned(from) && !isLongZoned(to) && to >= from)) return v;
  return packZonedParts(zonedParts(v, from), to);
}

/** The short value (millis precision, picos dropped) of a value of `precision`: for functions that work on millis. */
export function toShortZoned(v: bigint, precision: number): bigint {
  if (!isLongZoned(precision)) return v;
  const { millis, key } = zonedParts(v, precision);
  return packZoned(millis, key);
}

/** Fraction digits 4..12 of a second, from picos of a milli. */
export function subMilliDigits(picos: number, precision: number): string {
  return String(picos)
    .padStart(9, '0')
    .slice(0, precision - SHORT_ZONED_PRECISION);
}

/** 'YYYY-MM-DD HH:MM:SS.fffffffff' of local millis and picos, `precision` fraction digits. */
export function formatLocalTimestamp(localMillis: number, picos: number, precision: number): string {
  const days = Math.floor(localMillis / MILLIS_PER_DAY);
  const time = formatTimeOfDay((localMillis - days * MILLIS_PER_DAY) * 1000, Math.min(precision, SHORT_ZONED_PRECISION));
  return `${formatDate(days)} ${time}${isLongZoned(precision) ? subMilliDigits(picos, precision) : ''}`;
}
