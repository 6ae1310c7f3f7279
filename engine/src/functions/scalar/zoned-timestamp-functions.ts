// Functions and operators on `timestamp(p) with time zone` (Trino's DateTimeFunctions and
// TimestampWithTimeZoneOperators). Calendar fields and calendar arithmetic (days and longer) work on
// the value's wall clock in its own zone; hours and shorter units work on the instant, as Joda's
// zoned chronology does in Trino. Results stay in the argument's zone.

import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../../types/scalar.js';
import type { FunctionInfo } from '../function-info.js';
import { MICROS_PER_MILLI, MILLIS_PER_DAY, addMonthsToDays, civilToDays, formatDate, formatTimeOfDay } from '../../types/datetime.js';
import {
  formatOffsetMinutes,
  instantOfLocal,
  offsetMillisAt,
  offsetZoneKey,
  UTC_ZONE_KEY,
  zoneKeyOf,
  zoneName,
} from '../../types/time-zones.js';
import {
  type SqlType,
  BIGINT,
  DOUBLE,
  INTERVAL_DAY_SECOND,
  INTERVAL_YEAR_MONTH,
  VARCHAR,
  timestamp,
  timestampWithTimeZone,
} from '../../types/types.js';
import { packZoned, roundMillis, zonedKey, zonedLocalMillis, zonedMillis, zonedTimestampType } from '../../types/zoned-timestamp.js';
import {
  type ZonedParts,
  PICOS_PER_MILLI,
  SHORT_ZONED_PRECISION,
  isLongZoned,
  subMilliDigits,
  zonedParts,
} from '../../types/long-zoned-timestamp.js';
import { localMicrosToZoned } from '../../types/zoned-casts.js';
import { liftToLongZoned } from './long-zoned-lift.js';
import { type DateTimeUnit, addToTimestamp, parseUnit } from './datetime-fields.js';
import { type TimestampParts, type ZoneOfValue, formatDatetimeParts } from './datetime-format.js';
import { addUnitsExact, diffUnitsExact, truncateExact } from './exact-timestamp-arithmetic.js';
import { exactTimestampImplementation } from './exact-timestamp-lift.js';
import { DATETIME_FUNCTIONS } from './datetime-functions.js';
import { type ScalarFunctionDefinition, type ScalarImplementation, type SignatureTemplate, body } from './signature.js';

const ZONED = { family: 'timestamp with time zone' } as const;
const STRICT_ZONED = { family: 'timestamp with time zone', strict: true } as const;
const VARCHAR_X = { family: 'varchar' } as const;
const sameAsFirst = (types: readonly SqlType[]): SqlType => types[0];
const sameAsLast = (types: readonly SqlType[]): SqlType => types[types.length - 1];

/** Units shorter than a day: added to and truncated on the instant (Joda's time arithmetic). */
const TIME_UNITS: ReadonlySet<DateTimeUnit> = new Set(['millisecond', 'second', 'minute', 'hour']);

// Wall clocks are whole millis (exact numbers at every year) or picoseconds for the exact timestamp
// arithmetic (exact-timestamp-arithmetic.ts), never a double of micros (inexact beyond 2^53).
const PICOS_MILLI = BigInt(PICOS_PER_MILLI);
const localPicos = (v: bigint): bigint => BigInt(zonedLocalMillis(v)) * PICOS_MILLI;
const wholeMillis = (picos: bigint): number => Number(picos / PICOS_MILLI);

/** A wall-clock time (millis) in `key` back to a packed value, keeping `offset` through an overlap. */
function fromLocalMillis(key: number, local: number, offset: number): bigint {
  return packZoned(instantOfLocal(key, local, 'shift', offset) as number, key);
}

function offsetOf(v: bigint): number {
  return offsetMillisAt(zonedKey(v), zonedMillis(v));
}

function wallClockParts(v: bigint): TimestampParts {
  const local = zonedLocalMillis(v);
  const days = Math.floor(local / MILLIS_PER_DAY);
  return { days, microsOfDay: (local - days * MILLIS_PER_DAY) * MICROS_PER_MILLI };
}

function zoneOfValue(v: bigint): ZoneOfValue {
  const key = zonedKey(v);
  return {
    name: zoneName(key),
    offsetMinutes: offsetOf(v) / 60_000,
    region: key !== UTC_ZONE_KEY && !zoneName(key).startsWith('+') && !zoneName(key).startsWith('-'),
  };
}

// ---- The timestamp functions that read calendar fields, on the value's wall clock ----

const LOCAL_FIELD_FUNCTIONS = new Set([
  'year',
  'quarter',
  'month',
  'week',
  'day',
  'day_of_week',
  'day_of_year',
  'year_of_week',
  'hour',
  'minute',
  'second',
  'millisecond',
  'last_day_of_month',
  'date_format',
]);

/** A timestamp template of DATETIME_FUNCTIONS taking the zoned value's wall clock (a short timestamp, exact at any year) in its first parameter. */
function onWallClock(name: string, template: SignatureTemplate): SignatureTemplate {
  return {
    params: [ZONED, ...template.params.slice(1)],
    returnType: template.returnType,
    implement: (types, returnType) => {
      const wallClock = [timestamp(SHORT_ZONED_PRECISION), ...types.slice(1)];
      const short = () => template.implement(wallClock, returnType);
      const inner = exactTimestampImplementation(name, wallClock, returnType, short) ?? short();
      return body((v: bigint, ...rest: Scalar[]) => inner.invoke(zonedLocalMillis(v) * MICROS_PER_MILLI, ...rest));
    },
  };
}

function isTimestampFamily(p: SignatureTemplate['params'][number]): boolean {
  return typeof p === 'object' && 'family' in p && p.family === 'timestamp';
}

const WALL_CLOCK_FUNCTIONS: ScalarFunctionDefinition[] = DATETIME_FUNCTIONS.filter((d) => LOCAL_FIELD_FUNCTIONS.has(d.names[0])).map(
  (d) => ({
    names: d.names,
    description: d.description,
    signatures: d.signatures.filter((s) => s.params.length > 0 && isTimestampFamily(s.params[0])).map((s) => onWallClock(d.names[0], s)),
  }),
);

// ---- Unit arithmetic ----

function addUnits(unitText: string, amount: bigint, v: bigint): bigint {
  const unit = parseUnit(unitText, 'timestamp');
  if (TIME_UNITS.has(unit))
    return packZoned(zonedMillis(v) + Math.round(addToTimestamp(unit, Number(amount), 0) / MICROS_PER_MILLI), zonedKey(v));
  return fromLocalMillis(zonedKey(v), wholeMillis(addUnitsExact(unit, amount, localPicos(v))), offsetOf(v));
}

function truncateUnits(unitText: string, v: bigint): bigint {
  const unit = parseUnit(unitText, 'timestamp');
  const offset = offsetOf(v);
  const truncated = wholeMillis(truncateExact(unit, localPicos(v)));
  if (TIME_UNITS.has(unit)) return packZoned(truncated - offset, zonedKey(v));
  return fromLocalMillis(zonedKey(v), truncated, offset);
}

/** date_diff in the first value's zone: hours and shorter on instants, days and longer on wall clocks. */
function diffUnits(unitText: string, a: bigint, b: bigint): bigint {
  const unit = parseUnit(unitText, 'timestamp');
  const key = zonedKey(a);
  const aOffset = offsetOf(a);
  const bOffset = TIME_UNITS.has(unit) ? aOffset : offsetMillisAt(key, zonedMillis(b));
  return diffUnitsExact(unit, BigInt(zonedMillis(a) + aOffset) * PICOS_MILLI, BigInt(zonedMillis(b) + bOffset) * PICOS_MILLI);
}

function addMonths(v: bigint, months: number): bigint {
  const local = zonedLocalMillis(v);
  const days = Math.floor(local / MILLIS_PER_DAY);
  const moved = addMonthsToDays(days, months) * MILLIS_PER_DAY + (local - days * MILLIS_PER_DAY);
  return fromLocalMillis(zonedKey(v), moved, offsetOf(v));
}

// ---- Text ----

/** ISO 8601 with the offset ('Z' for zero), as Trino's to_iso8601 (a value of `precision`, short or long). */
function toIso8601(v: bigint, precision: number): string {
  const { picos } = zonedParts(v, precision);
  const short = toShort(v, precision);
  const local = zonedLocalMillis(short);
  const days = Math.floor(local / MILLIS_PER_DAY);
  const offsetMinutes = offsetOf(short) / 60_000;
  const time = formatTimeOfDay((local - days * MILLIS_PER_DAY) * MICROS_PER_MILLI, Math.min(precision, SHORT_ZONED_PRECISION));
  const subMilli = isLongZoned(precision) ? subMilliDigits(picos, precision) : '';
  return `${formatDate(days)}T${time}${subMilli}${offsetMinutes === 0 ? 'Z' : formatOffsetMinutes(offsetMinutes)}`;
}

const precisionOf = (type: SqlType): number => (type as { precision: number }).precision;

function toShort(v: bigint, precision: number): bigint {
  const { millis, key } = zonedParts(v, precision);
  return packZoned(millis, key);
}

/** Seconds since the epoch, with the picoseconds of a long value (Trino's to_unixtime). */
function toUnixtime(v: bigint, precision: number): number {
  const { millis, picos } = zonedParts(v, precision);
  return millis / 1000 + picos / (PICOS_PER_MILLI * 1000);
}

/** a - b as a day-second interval: whole milliseconds, the picosecond difference rounded half up (Trino). */
function subtractZoned(a: bigint, aPrecision: number, b: bigint, bPrecision: number): number {
  const x = zonedParts(a, aPrecision);
  const y = zonedParts(b, bPrecision);
  const deltaPicos = x.picos - y.picos;
  const carry = Math.abs(deltaPicos) >= PICOS_PER_MILLI / 2 ? Math.sign(deltaPicos) : 0;
  return x.millis - y.millis + carry;
}

const ISO_TIMESTAMP =
  /^\s*([+-]?\d{4,})(?:-(\d{2})(?:-(\d{2}))?)?(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?\s*$/;

/** from_iso8601_timestamp: calendar dates with an optional time and offset; without an offset, the session zone. */
function fromIso8601Timestamp(text: string, sessionZone: string): bigint {
  const { millis, key } = fromIso8601Parts(text, sessionZone);
  return packZoned(millis, key);
}

/** The instant of ISO 8601 text with the fraction's first 12 digits (millis and picos of the milli) and its zone. */
export function fromIso8601Parts(text: string, sessionZone: string): ZonedParts {
  const m = ISO_TIMESTAMP.exec(text);
  const invalid = () => new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid format: "${text}"`);
  if (m === null) throw invalid();
  const [year, month, day, hour, minute, second] = [m[1], m[2] ?? '1', m[3] ?? '1', m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 59) throw invalid();
  const days = civilToDays(year, month, day);
  if (civilToDays(year, month + 1, 1) <= days) throw invalid();
  const fraction = m[7] ?? '';
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const local = days * MILLIS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
  const zone = m[8];
  const key = zone === undefined ? zoneKeyOf(sessionZone) : zone === 'Z' ? UTC_ZONE_KEY : zoneKeyOf(zone);
  return { millis: instantOfLocal(key, local, 'shift') as number, picos: Number(fraction.slice(3, 12).padEnd(9, '0')), key };
}

/** The fixed-offset zone of an interval (at_timezone(x, INTERVAL '03:04' HOUR TO MINUTE)): whole minutes only. */
function offsetKeyOfInterval(millis: number): number {
  if (millis % 60_000 !== 0)
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'Invalid time zone offset interval: interval contains seconds');
  return offsetZoneKey(millis / 60_000);
}

// ---- from_unixtime ----

function fromUnixtime(seconds: number, key: number): bigint {
  if (!Number.isFinite(seconds)) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid unixtime: ${seconds}`);
  return packZoned(Math.round(seconds * 1000), key);
}

function fromUnixtimeWithOffset(seconds: number, hours: bigint, minutes: bigint): bigint {
  const total = Number(hours) * 60 + Number(minutes);
  if (Math.abs(total) > 14 * 60) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid offset minutes ${total}`);
  return fromUnixtime(seconds, offsetZoneKey(total));
}

const definitions: ScalarFunctionDefinition[] = [
  {
    names: ['at_timezone'],
    description: 'The same instant in another time zone',
    signatures: [
      {
        params: [ZONED, VARCHAR_X],
        returnType: sameAsFirst,
        implement: () => body((v: bigint, zone: string) => packZoned(zonedMillis(v), zoneKeyOf(zone))),
      },
      {
        params: [ZONED, INTERVAL_DAY_SECOND],
        returnType: sameAsFirst,
        implement: () => body((v: bigint, offset: number) => packZoned(zonedMillis(v), offsetKeyOfInterval(offset))),
      },
    ],
  },
  {
    names: ['with_timezone'],
    description: 'The timestamp read as a wall clock time in the given zone',
    signatures: [
      {
        params: [{ family: 'timestamp' }, VARCHAR_X],
        returnType: (types) => zonedTimestampType((types[0] as { precision: number }).precision),
        returnTypeDisplay: 'timestamp(p) with time zone',
        implement: ([t]) => {
          const precision = (t as { precision: number }).precision;
          return body((micros: number, zone: string) => localMicrosToZoned(micros, zoneKeyOf(zone), precision));
        },
      },
    ],
  },
  {
    names: ['from_unixtime'],
    description: 'The instant of seconds since the epoch, in the given zone (the session zone with one argument)',
    signatures: [
      {
        params: [DOUBLE, VARCHAR_X],
        returnType: timestampWithTimeZone(3),
        implement: () => body((s: number, zone: string) => fromUnixtime(s, zoneKeyOf(zone))),
      },
      { params: [DOUBLE, BIGINT, BIGINT], returnType: timestampWithTimeZone(3), implement: () => body(fromUnixtimeWithOffset) },
    ],
  },
  {
    names: ['to_unixtime'],
    description: 'Seconds since the epoch of the given instant',
    signatures: [
      {
        params: [ZONED],
        returnType: DOUBLE,
        implement: ([t]) => body((v: bigint) => toUnixtime(v, (t as { precision: number }).precision)),
      },
    ],
  },
  {
    names: ['$from_iso8601_timestamp'],
    description: 'from_iso8601_timestamp with the session zone as its second argument',
    signatures: [{ params: [VARCHAR_X, VARCHAR_X], returnType: timestampWithTimeZone(3), implement: () => body(fromIso8601Timestamp) }],
  },
  {
    names: ['timezone_hour'],
    description: 'Hours of the zone offset of the value',
    signatures: [
      { params: [ZONED], returnType: BIGINT, implement: () => body((v: bigint) => BigInt(Math.trunc(offsetOf(v) / 3_600_000))) },
    ],
  },
  {
    names: ['timezone_minute'],
    description: 'Minutes of the zone offset of the value',
    signatures: [
      { params: [ZONED], returnType: BIGINT, implement: () => body((v: bigint) => BigInt(Math.trunc(offsetOf(v) / 60_000) % 60)) },
    ],
  },
  {
    names: ['timezone'],
    description: 'The time zone of the value',
    signatures: [{ params: [ZONED], returnType: VARCHAR, implement: () => body((v: bigint) => zoneName(zonedKey(v))) }],
  },
  {
    names: ['date_add'],
    description: 'Adds a number of units to a timestamp with time zone',
    signatures: [{ params: [VARCHAR_X, BIGINT, ZONED], returnType: sameAsLast, implement: ([, , t]) => roundedTo(t, body(addUnits)) }],
  },
  {
    names: ['date_trunc'],
    description: 'Truncates a timestamp with time zone to the given unit in its zone',
    signatures: [{ params: [VARCHAR_X, ZONED], returnType: sameAsLast, implement: () => body(truncateUnits) }],
  },
  {
    names: ['date_diff'],
    description: 'Difference in whole units between two timestamps with time zone',
    signatures: [{ params: [VARCHAR_X, ZONED, ZONED], returnType: BIGINT, implement: () => body(diffUnits) }],
  },
  {
    names: ['format_datetime'],
    description: 'Formats the given timestamp with time zone with a Joda-Time pattern',
    signatures: [
      {
        params: [ZONED, VARCHAR_X],
        returnType: VARCHAR,
        implement: () => body((v: bigint, pattern: string) => formatDatetimeParts(wallClockParts(v), pattern, zoneOfValue(v))),
      },
    ],
  },
  {
    names: ['to_iso8601'],
    description: 'Formats the given timestamp with time zone as ISO 8601 text',
    signatures: [
      {
        params: [ZONED],
        returnType: VARCHAR,
        implement: ([t]) => body((v: bigint) => toIso8601(v, (t as { precision: number }).precision)),
      },
    ],
  },
];

/** The zoned argument's type at precision 3 or more: Trino's sum with a day-second interval (milliseconds). */
function atLeastMillis(index: number): (types: readonly SqlType[]) => SqlType {
  return (types) => timestampWithTimeZone(Math.max(SHORT_ZONED_PRECISION, precisionOf(types[index])));
}

function plusOrMinus(sign: 1 | -1): SignatureTemplate[] {
  const plusMillis = (v: bigint, ms: number) => packZoned(zonedMillis(v) + sign * ms, zonedKey(v));
  const plusMonths = (v: bigint, months: number) => addMonths(v, sign * months);
  const signatures: SignatureTemplate[] = [
    { params: [ZONED, INTERVAL_DAY_SECOND], returnType: atLeastMillis(0), implement: () => body(plusMillis) },
    { params: [ZONED, INTERVAL_YEAR_MONTH], returnType: sameAsFirst, implement: () => body(plusMonths) },
  ];
  if (sign === -1) return signatures;
  return [
    ...signatures,
    {
      params: [INTERVAL_DAY_SECOND, ZONED],
      returnType: atLeastMillis(1),
      implement: () => body((ms: number, v: bigint) => plusMillis(v, ms)),
    },
    {
      params: [INTERVAL_YEAR_MONTH, ZONED],
      returnType: sameAsLast,
      implement: () => body((months: number, v: bigint) => plusMonths(v, months)),
    },
  ];
}

/** The body with its zoned result rounded to the precision of `type` (Trino rounds date_add and interval sums). */
function roundedTo(type: SqlType, inner: ScalarImplementation): ScalarImplementation {
  const precision = (type as { precision: number }).precision;
  if (precision >= SHORT_ZONED_PRECISION) return inner;
  return body((...args: Scalar[]) => {
    const v = inner.invoke(...args) as bigint;
    return packZoned(roundMillis(zonedMillis(v), precision), zonedKey(v));
  });
}

/** How the long (p > 3) variants treat sub-millisecond digits (long-zoned-lift.ts). */
const LONG_RULES = {
  date_trunc: { dropsFraction: true },
  date_diff: { inUtc: true },
  with_timezone: { own: true },
  to_unixtime: { own: true },
  to_iso8601: { own: true },
};

export const ZONED_TIMESTAMP_FUNCTIONS: readonly ScalarFunctionDefinition[] = liftToLongZoned(
  [...WALL_CLOCK_FUNCTIONS, ...definitions],
  LONG_RULES,
);

export const ZONED_TIMESTAMP_OPERATORS: readonly ScalarFunctionDefinition[] = [
  ...liftToLongZoned(
    [
      { names: ['add'], description: 'Addition', signatures: plusOrMinus(1) },
      { names: ['subtract'], description: 'Subtraction', signatures: plusOrMinus(-1) },
    ],
    {},
  ),
  {
    names: ['subtract'],
    description: 'Subtraction',
    // strict: a date or plain timestamp coerces to a zoned one, but date - date does not exist in Trino
    signatures: [
      {
        params: [STRICT_ZONED, STRICT_ZONED],
        returnType: INTERVAL_DAY_SECOND,
        implement: ([s, t]) => body((a: bigint, b: bigint) => subtractZoned(a, precisionOf(s), b, precisionOf(t))),
      },
    ],
  },
];

/**
 * The Trino signatures that read the session zone, which the analyzer completes with it
 * (time-zone-translation.ts): listed by SHOW FUNCTIONS as Trino lists them.
 */
export const SESSION_ZONE_FUNCTION_INFOS: readonly FunctionInfo[] = [
  {
    name: 'from_iso8601_timestamp',
    returnType: 'timestamp(3) with time zone',
    argumentTypes: ['varchar(x)'],
    description: 'Parses an ISO 8601 timestamp; without an offset, in the session time zone',
  },
  {
    name: 'from_unixtime',
    returnType: 'timestamp(3) with time zone',
    argumentTypes: ['double'],
    description: 'The instant of seconds since the epoch, in the session time zone',
  },
  {
    name: 'from_iso8601_timestamp_nanos',
    returnType: 'timestamp(9) with time zone',
    argumentTypes: ['varchar(x)'],
    description: 'Parses an ISO 8601 timestamp to nanoseconds; without an offset, in the session time zone',
  },
  {
    name: 'parse_datetime',
    returnType: 'timestamp(3) with time zone',
    argumentTypes: ['varchar(x)', 'varchar(y)'],
    description: 'Parses text with a Joda-Time pattern; without a zone in the text, in the session time zone',
  },
  {
    name: 'from_unixtime_nanos',
    returnType: 'timestamp(9) with time zone',
    argumentTypes: ['bigint'],
    description: 'The instant of nanoseconds since the epoch, in the session time zone',
  },
  {
    name: 'from_unixtime_nanos',
    returnType: 'timestamp(9) with time zone',
    argumentTypes: ['decimal(p,s)'],
    description: 'The instant of nanoseconds since the epoch, in the session time zone',
  },
].map((info) => ({ ...info, functionType: 'scalar', deterministic: true }));
