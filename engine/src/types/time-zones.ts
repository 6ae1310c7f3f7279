// The zone table of `timestamp with time zone`: every value carries a small zone key (12 bits, as
// Trino's), the same in every process that runs the same Node (keys are derived from ICU's list):
//   0                 UTC
//   1 .. 1681         fixed offsets -14:00 .. +14:00 in minutes (key = 841 + minutes; +00:00 is UTC)
//   2048 + i          the i-th IANA zone of Intl.supportedValuesOf('timeZone') (ICU's canonical names),
//                     then the links of zone-aliases.ts that ICU knows
// Offsets of IANA zones come from Intl once per zone and day and are cached: converting an instant
// to local fields is then a map lookup, not an Intl call.

import { EngineError } from '../errors/engine-error.js';
import { ZONE_ALIASES } from './zone-aliases.js';

function isIcuZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const UTC_ZONE_KEY = 0;
const MAX_OFFSET_MINUTES = 14 * 60;
const OFFSET_KEY_BASE = MAX_OFFSET_MINUTES + 1;
const NAMED_KEY_BASE = 2048;
const MILLIS_PER_MINUTE = 60_000;
const MILLIS_PER_DAY = 86_400_000;

const CANONICAL_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');
const NAMED_ZONES: readonly string[] = [
  ...CANONICAL_ZONES,
  ...ZONE_ALIASES.filter((name) => !CANONICAL_ZONES.includes(name) && isIcuZone(name)),
];
const KEY_BY_LOWER_NAME = new Map<string, number>();
NAMED_ZONES.forEach((name, i) => KEY_BY_LOWER_NAME.set(name.toLowerCase(), NAMED_KEY_BASE + i));
/** Characters of the longest zone name (offsets print in 6). */
export const MAX_ZONE_NAME_LENGTH = Math.max(6, ...NAMED_ZONES.map((name) => name.length));
if (NAMED_KEY_BASE + NAMED_ZONES.length >= 4096) throw new Error('zone table exceeds 12-bit keys');

const UTC_NAMES = new Set([
  'utc',
  'z',
  'gmt',
  'gmt0',
  'ut',
  'uct',
  'zulu',
  'greenwich',
  'universal',
  'etc/utc',
  'etc/gmt',
  'etc/uct',
  'etc/ut',
  'etc/zulu',
  'etc/greenwich',
  'etc/universal',
  'etc/gmt0',
  'etc/gmt+0',
  'etc/gmt-0',
]);

export function zoneNotSupported(name: string): EngineError {
  return new EngineError('NOT_SUPPORTED', `Time zone not supported: ${name}`);
}

/** The key of a zone written as Trino accepts it (an IANA name in any case, UTC, or an offset); throws when unknown. */
export function zoneKeyOf(name: string): number {
  const key = tryZoneKeyOf(name);
  if (key === undefined) throw zoneNotSupported(name);
  return key;
}

const keyCache = new Map<string, number | undefined>();

export function tryZoneKeyOf(name: string): number | undefined {
  if (keyCache.has(name)) return keyCache.get(name);
  const key = lookUpZoneKey(name.trim());
  if (keyCache.size < 10_000) keyCache.set(name, key);
  return key;
}

function lookUpZoneKey(name: string): number | undefined {
  const lower = name.toLowerCase();
  if (UTC_NAMES.has(lower)) return UTC_ZONE_KEY;
  const offset = /^(?:utc|gmt|ut)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(lower);
  if (offset) {
    const minutes = Number(offset[2]) * 60 + Number(offset[3] ?? '0');
    if (Number(offset[3] ?? '0') >= 60 || minutes > MAX_OFFSET_MINUTES) return undefined;
    return offsetZoneKey(offset[1] === '-' ? -minutes : minutes);
  }
  const etc = /^etc\/gmt([+-])(\d{1,2})$/.exec(lower); // POSIX signs: Etc/GMT+5 is UTC-05:00
  if (etc) return Number(etc[2]) > 14 ? undefined : offsetZoneKey((etc[1] === '+' ? -60 : 60) * Number(etc[2]));
  const named = KEY_BY_LOWER_NAME.get(lower);
  if (named !== undefined) return named;
  // Another alias ICU knows: its canonical name's key.
  if (!/^[a-z][a-z0-9_+\-/]*$/i.test(name)) return undefined;
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    if (canonical.toLowerCase() === lower) return undefined;
    return lookUpZoneKey(canonical);
  } catch {
    return undefined;
  }
}

/** The key of a fixed offset in minutes (0 is UTC). */
export function offsetZoneKey(minutes: number): number {
  if (minutes === 0) return UTC_ZONE_KEY;
  if (!Number.isInteger(minutes) || Math.abs(minutes) > MAX_OFFSET_MINUTES)
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid offset minutes ${minutes}`);
  return OFFSET_KEY_BASE + minutes;
}

function isOffsetKey(key: number): boolean {
  return key > 0 && key < NAMED_KEY_BASE;
}

/** The zone's name as Trino prints it: UTC, +01:00, America/Los_Angeles. */
export function zoneName(key: number): string {
  if (key === UTC_ZONE_KEY) return 'UTC';
  if (isOffsetKey(key)) return formatOffsetMinutes(key - OFFSET_KEY_BASE);
  const name = NAMED_ZONES[key - NAMED_KEY_BASE];
  if (name === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `Unknown time zone key ${key}`);
  return name;
}

/** ±HH:MM of an offset in minutes; ±HH:MM:SS when it has seconds (local mean times before 1900), as java.time. */
export function formatOffsetMinutes(minutes: number): string {
  const seconds = Math.round(Math.abs(minutes) * 60);
  const two = (n: number) => String(n).padStart(2, '0');
  const text = `${minutes < 0 ? '-' : '+'}${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}`;
  return seconds % 60 === 0 ? text : `${text}:${two(seconds % 60)}`;
}

// ---- Offsets of instants ----

interface NamedZone {
  format: Intl.DateTimeFormat;
  /** Offset in ms for each UTC day whose offset does not change within the day; NaN when it does. */
  byDay: Map<number, number>;
  /** The day last looked up and its entry: rows of one day (sorted or clustered data) skip the map. */
  lastDay: number;
  lastOffset: number;
}
const namedZones = new Map<number, NamedZone>();

function namedZone(key: number): NamedZone {
  let zone = namedZones.get(key);
  if (zone === undefined) {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: zoneName(key),
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zone = { format, byDay: new Map(), lastDay: NaN, lastOffset: NaN };
    namedZones.set(key, zone);
  }
  return zone;
}

/** Offset (ms) of a named zone at an instant, asked of Intl (whole seconds: ICU's resolution). */
function intlOffsetMillis(zone: NamedZone, epochMillis: number): number {
  const seconds = Math.floor(epochMillis / 1000) * 1000;
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let bc = false;
  for (const part of zone.format.formatToParts(seconds)) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value);
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
      case 'era':
        bc = part.value.startsWith('B');
        break;
    }
  }
  const wall = new Date(0);
  wall.setUTCFullYear(bc ? 1 - year : year, month - 1, day);
  wall.setUTCHours(hour, minute, second, 0);
  return wall.getTime() - seconds;
}

/** The zone's offset from UTC in milliseconds at an instant. */
export function offsetMillisAt(key: number, epochMillis: number): number {
  if (key === UTC_ZONE_KEY) return 0;
  if (isOffsetKey(key)) return (key - OFFSET_KEY_BASE) * MILLIS_PER_MINUTE;
  const zone = namedZone(key);
  const day = Math.floor(epochMillis / MILLIS_PER_DAY);
  if (day === zone.lastDay && !Number.isNaN(zone.lastOffset)) return zone.lastOffset;
  let cached = zone.byDay.get(day);
  if (cached === undefined) {
    const start = intlOffsetMillis(zone, day * MILLIS_PER_DAY);
    const end = intlOffsetMillis(zone, (day + 1) * MILLIS_PER_DAY - 1000);
    cached = start === end ? start : NaN;
    if (zone.byDay.size > 200_000) zone.byDay.clear();
    zone.byDay.set(day, cached);
  }
  zone.lastDay = day;
  zone.lastOffset = cached;
  return Number.isNaN(cached) ? intlOffsetMillis(zone, epochMillis) : cached;
}

/** Local wall-clock milliseconds (as if UTC) of an instant in a zone. */
export function localMillis(key: number, epochMillis: number): number {
  return epochMillis + offsetMillisAt(key, epochMillis);
}

/**
 * The instant of a local wall-clock time in a zone, as java.time resolves it: in an overlap the
 * earlier offset; in a gap `gap` decides: 'shift' moves the time forward by the gap's length
 * (ZonedDateTime.of), 'fail' returns undefined (Trino's literals and casts). In an overlap,
 * `preferOffset` (ms) wins when it is one of the two (Joda keeps a value's offset through arithmetic).
 */
export function instantOfLocal(key: number, local: number, gap: 'shift' | 'fail', preferOffset?: number): number | undefined {
  if (key === UTC_ZONE_KEY) return local;
  if (isOffsetKey(key)) return local - (key - OFFSET_KEY_BASE) * MILLIS_PER_MINUTE;
  // The offsets in force a little before and after; a transition is assumed not to recur within a day.
  const before = offsetMillisAt(key, local - MILLIS_PER_DAY);
  const after = offsetMillisAt(key, local + MILLIS_PER_DAY);
  const candidates = before === after ? [before] : [Math.max(before, after), Math.min(before, after)];
  if (
    preferOffset !== undefined &&
    candidates.length === 2 &&
    candidates.includes(preferOffset) &&
    offsetMillisAt(key, local - preferOffset) === preferOffset
  ) {
    return local - preferOffset;
  }
  // The larger offset gives the earlier instant: java's "earlier offset" in an overlap.
  for (const offset of candidates) {
    if (offsetMillisAt(key, local - offset) === offset) return local - offset;
  }
  if (gap === 'fail') return undefined;
  return local - before;
}
