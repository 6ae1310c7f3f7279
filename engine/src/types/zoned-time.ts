// `time(p) with time zone`: a time of day with a fixed offset (Trino has offsets only, no region
// zones, for this type). Trino compares, hashes and orders these by the time normalized to +00:00
// modulo 24 hours, so the value holds that normalized time: one JS bigint per value in a bigint[]
// column, (normalized picoseconds of the day << 12) | (offset minutes + 840). `value >> 12` is then
// what equality, hashing and ordering read, exactly as for zoned timestamps.

import { EngineError } from '../errors/engine-error.js';
import { formatOffsetMinutes } from './time-zones.js';
import type { SqlType } from './types.js';

export const PICOS_PER_SECOND = 1_000_000_000_000n;
export const PICOS_PER_MINUTE = 60n * PICOS_PER_SECOND;
export const PICOS_PER_DAY = 86_400n * PICOS_PER_SECOND;
const OFFSET_BIAS = 840; // 14 hours
const MAX_OFFSET_MINUTES = 14 * 60;

export function zonedTimeType(precision: number): SqlType {
  return { kind: 'time with time zone', precision };
}

function floorMod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

/** A wall-clock time (picoseconds of the day) at an offset. */
export function packZonedTime(picosOfDay: bigint, offsetMinutes: number): bigint {
  const normalized = floorMod(picosOfDay - BigInt(offsetMinutes) * PICOS_PER_MINUTE, PICOS_PER_DAY);
  return (normalized << 12n) | BigInt(offsetMinutes + OFFSET_BIAS);
}

export function zonedTimeOffset(v: bigint): number {
  return Number(v & 0xfffn) - OFFSET_BIAS;
}

/** The wall-clock picoseconds of the day at the value's own offset. */
export function zonedTimePicos(v: bigint): bigint {
  return floorMod((v >> 12n) + BigInt(zonedTimeOffset(v)) * PICOS_PER_MINUTE, PICOS_PER_DAY);
}

/** Picoseconds of the day rounded half up to `precision` digits, wrapping at midnight (Trino). */
export function roundPicosOfDay(picos: bigint, precision: number): bigint {
  const unit = 10n ** BigInt(12 - precision);
  const ofDay = floorMod(picos, PICOS_PER_DAY);
  return floorMod(((ofDay + unit / 2n) / unit) * unit, PICOS_PER_DAY);
}

/** A value of one precision in another: the wall clock rounded, the offset kept. */
export function rescaleZonedTime(v: bigint, precision: number): bigint {
  return packZonedTime(roundPicosOfDay(zonedTimePicos(v), precision), zonedTimeOffset(v));
}

/** 'HH:MM:SS[.fff...]' of picoseconds of the day, `precision` fraction digits (no rounding). */
export function formatPicosOfDay(picos: bigint, precision: number): string {
  const seconds = Number(picos / PICOS_PER_SECOND);
  const pad = (n: number) => String(n).padStart(2, '0');
  const text = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  if (precision === 0) return text;
  return `${text}.${String(picos % PICOS_PER_SECOND)
    .padStart(12, '0')
    .slice(0, precision)}`;
}

/** Trino's text: '12:00:00.000+09:00'. */
export function formatZonedTime(v: bigint, precision: number): string {
  return `${formatPicosOfDay(zonedTimePicos(v), precision)}${formatOffsetMinutes(zonedTimeOffset(v))}`;
}

// hh:mm[:ss[.fraction]] then an optional offset ±HH:MM, as Trino's time pattern.
const TIME_TEXT = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d+))?)?\s*(?:([+-])(\d\d):(\d\d))?$/;

export interface ParsedZonedTime {
  /** The wall clock, exact to 12 fraction digits (more digits are refused). */
  picos: bigint;
  /** Undefined when the text has no offset. */
  offsetMinutes?: number;
  /** Fraction digits written. */
  precision: number;
}

export function invalidZonedTime(text: string): EngineError {
  return new EngineError('INVALID_CAST_ARGUMENT', `Value cannot be cast to time with time zone: ${text}`);
}

/** Parses time text with an optional offset; undefined when it is not a time. */
export function parseZonedTime(text: string): ParsedZonedTime | undefined {
  const m = TIME_TEXT.exec(text.trim());
  if (m === null) return undefined;
  const [hour, minute, second] = [m[1], m[2], m[3] ?? '0'].map(Number);
  const fraction = m[4] ?? '';
  if (hour > 23 || minute > 59 || second > 59 || fraction.length > 12) return undefined;
  let offsetMinutes: number | undefined;
  if (m[5] !== undefined) {
    const [offsetHour, offsetMinute] = [Number(m[6]), Number(m[7])];
    if (offsetMinute > 59 || offsetHour * 60 + offsetMinute > MAX_OFFSET_MINUTES) return undefined;
    offsetMinutes = (m[5] === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute);
  }
  const picos = BigInt((hour * 60 + minute) * 60 + second) * PICOS_PER_SECOND + BigInt(fraction.padEnd(12, '0') || '0');
  return { picos, offsetMinutes, precision: fraction.length };
}

/** Whether literal text is a time with an offset (TIME '12:00:00+09:00' is `time(p) with time zone`). */
export function hasTimeOffset(text: string): boolean {
  const parsed = parseZonedTime(text);
  return parsed !== undefined && parsed.offsetMinutes !== undefined;
}

/** Types whose values equal, hash and order by `value >> 12` (the zone or offset in the low 12 bits is ignored). */
export function comparesByInstant(type: SqlType): boolean {
  return type.kind === 'timestamp with time zone' || type.kind === 'time with time zone';
}
