// `timestamp(p) with time zone` values: an instant in epoch milliseconds and a zone key
// (time-zones.ts), packed into one int64 as Trino packs its short zoned timestamps
// (millis << 12 | zone key). One 64-bit word per value keeps pages, Arrow batches and exchanges
// to a single BigInt64Array; millis << 12 still spans ±71,000 years. That is precision 0..3;
// 4..12 add the picoseconds of the milli (long-zoned-timestamp.ts). Values are equal, hash and
// order by their instant alone (the zone key is masked off).

import { variantKey } from './variant/variant-equality.js';
import { EngineError, type SourceLocation } from '../errors/engine-error.js';
import type { Scalar } from './scalar.js';
import { MapValue } from './map-value.js';
import { parseDate, MILLIS_PER_DAY } from './datetime.js';
import { type ZonedParts, formatLocalTimestamp, zonedParts } from './long-zoned-timestamp.js';
import { instantOfLocal, localMillis, tryZoneKeyOf, zoneName } from './time-zones.js';
import { type SqlType, timestampWithTimeZone } from './types.js';

export const MAX_ZONED_PRECISION = 12;
const ZONE_BITS = 12n;
const ZONE_MASK = 0xfffn;

/** timestamp(p) with time zone, or NOT_SUPPORTED above the precision held here (never a silent rounding). */
export function zonedTimestampType(precision: number, location?: SourceLocation): SqlType {
  if (precision > MAX_ZONED_PRECISION) {
    throw new EngineError(
      'NOT_SUPPORTED',
      `timestamp(${precision}) with time zone is not supported: precision above ${MAX_ZONED_PRECISION}`,
      location,
    );
  }
  return timestampWithTimeZone(precision);
}

export function packZoned(epochMillis: number, zoneKey: number): bigint {
  return (BigInt(epochMillis) << ZONE_BITS) | BigInt(zoneKey);
}
export function zonedMillis(packed: bigint): number {
  return Number(packed >> ZONE_BITS);
}
export function zonedKey(packed: bigint): number {
  return Number(packed & ZONE_MASK);
}
/** The instant part of a packed value as a bigint: what equality, hashing and ordering use. */
export function zonedInstant(packed: bigint): bigint {
  return packed >> ZONE_BITS;
}

/** Local wall-clock milliseconds (as if UTC) of a packed value in its own zone. */
export function zonedLocalMillis(packed: bigint): number {
  return localMillis(zonedKey(packed), zonedMillis(packed));
}

/** Trino's text: '2012-10-30 18:00:00.000 America/Los_Angeles' (a value of `precision`, short or long). */
export function formatZoned(v: bigint, precision: number): string {
  const { millis, picos, key } = zonedParts(v, precision);
  return `${formatLocalTimestamp(localMillis(key, millis), picos, precision)} ${zoneName(key)}`;
}

/** Rounds epoch milliseconds to `precision` (0..3) fraction digits, half up. */
export function roundMillis(millis: number, precision: number): number {
  if (precision >= 3) return millis;
  const unit = 10 ** (3 - precision);
  return Math.floor((millis + unit / 2) / unit) * unit;
}

// year-month-day [hh:mm[:ss[.fff]]] then a zone (attached offset or a name after spaces), as Trino's pattern.
const ZONED_TEXT = /^([+-]?\d{4,})-(\d{1,2})-(\d{1,2})(?: (?:(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d+))?)?)?\s*(\S.*)?)?$/;

export interface ParsedZoned {
  /** The instant and zone written, exact to 12 fraction digits (the 13th rounds half up). */
  parts: ZonedParts;
  /** Fraction digits written. */
  precision: number;
}

function invalid(text: string): EngineError {
  return new EngineError('INVALID_CAST_ARGUMENT', `Value cannot be cast to timestamp: ${text}`);
}

/**
 * Parses zoned timestamp text; a text without a zone takes `defaultZoneKey` (the session zone), or
 * is invalid when there is none. A local time in a daylight-saving gap is invalid (Trino).
 */
export function parseZoned(text: string, defaultZoneKey?: number): ParsedZoned {
  const trimmed = text.trim();
  const m = ZONED_TEXT.exec(trimmed);
  if (m === null) throw invalid(text);
  const zoneText = m[8];
  let zoneKey = defaultZoneKey;
  if (zoneText !== undefined) {
    zoneKey = tryZoneKeyOf(zoneText);
  }
  if (zoneKey === undefined) throw invalid(text);
  const days = parseDate(`${m[1]}-${m[2]}-${m[3]}`);
  const hour = Number(m[4] ?? '0');
  const minute = Number(m[5] ?? '0');
  const second = Number(m[6] ?? '0');
  if (days === undefined || hour > 23 || minute > 59 || second > 59) throw invalid(text);
  const fraction = m[7] ?? '';
  const fractionMillis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const picos = Number(fraction.slice(3, 12).padEnd(9, '0')) + (fraction.length > 12 && fraction[12] >= '5' ? 1 : 0);
  const local = days * MILLIS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000;
  const instant = instantOfLocal(zoneKey, local, 'fail');
  if (instant === undefined)
    throw new EngineError('INVALID_CAST_ARGUMENT', `Invalid TIMESTAMP due to daylight savings transition: ${text}`);
  const carry = picos === 1_000_000_000 ? 1 : 0;
  return { parts: { millis: instant + fractionMillis + carry, picos: carry ? 0 : picos, key: zoneKey }, precision: fraction.length };
}

/** Whether text ends in a zone (so that a TIMESTAMP literal of it is zoned). */
export function hasZone(text: string): boolean {
  const m = ZONED_TEXT.exec(text.trim());
  return m !== null && m[8] !== undefined;
}

/**
 * A value of `type` with each zoned timestamp or time in it (itself, or inside arrays, maps and rows
 * at any depth) as its instant, for code that hashes or keys whole values and must see equal
 * instants alike; the identity for types without them.
 */
export function zonedAsInstants(type: SqlType): (value: Scalar) => Scalar {
  return zonedInstantMapper(type) ?? ((v) => v);
}

/** The mapper of a type that holds zoned values at any depth; undefined when it holds none. */
export function zonedInstantMapper(type: SqlType): ((value: Scalar) => Scalar) | undefined {
  switch (type.kind) {
    case 'timestamp with time zone':
    case 'time with time zone':
      return (v) => (v === null ? null : zonedInstant(v as bigint));
    case 'variant': // a variant by what it means (variant-equality.ts)
      return (v) => (v === null ? null : variantKey(v as Uint8Array));
    case 'array': {
      const element = zonedInstantMapper(type.element);
      return element && ((v) => (v === null ? null : (v as readonly Scalar[]).map(element)));
    }
    case 'map': {
      const [key, value] = [zonedInstantMapper(type.key), zonedInstantMapper(type.value)];
      if (key === undefined && value === undefined) return undefined;
      const [keys, values] = [key ?? ((v: Scalar) => v), value ?? ((v: Scalar) => v)];
      return (v) => (v === null ? null : new MapValue((v as MapValue).keys.map(keys), (v as MapValue).values.map(values)));
    }
    case 'row': {
      const fields = type.fields.map((f) => zonedInstantMapper(f.type));
      if (fields.every((f) => f === undefined)) return undefined;
      return (v) => (v === null ? null : (v as readonly Scalar[]).map((x, i) => (fields[i] === undefined ? x : fields[i]!(x))));
    }
    default:
      return undefined;
  }
}
