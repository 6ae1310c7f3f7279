// SQL values as the Java objects Trino's format() hands java.util.Formatter: integers as Long,
// real as Float, double as Double, decimals as BigDecimal, text as String, dates and times as
// java.time values (a zoned timestamp a ZonedDateTime); json as json_format's text; uuid, ipaddress,
// time with time zone and intervals as their CAST to varchar (Trino's fallback). Each knows its Java class name (for Java's error messages) and its toString.

import type { Scalar } from '../../../types/scalar.js';
import { floorDiv, readPicos } from '../../../types/long-plain-temporal.js';
import { formatDate, formatTimeOfDay } from '../../../types/datetime.js';
import { formatDoubleAsText, formatRealAsText } from '../../../types/number-format.js';
import { type SqlType, VARCHAR, typeName } from '../../../types/types.js';
import { castFunction } from '../../../types/casts.js';
import { zonedParts } from '../../../types/long-zoned-timestamp.js';
import { formatOffsetMinutes, offsetMillisAt, zoneName } from '../../../types/time-zones.js';
import { EngineError } from '../../../errors/engine-error.js';

const NANOS_PER_DAY = 86_400_000_000_000n;

export type JavaValue =
  | { kind: 'null' }
  | { kind: 'long'; value: bigint }
  | { kind: 'double'; value: number; float: boolean }
  | { kind: 'decimal'; unscaled: bigint; scale: number }
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'date'; days: number }
  // nanoseconds, as java.time holds them (a long value's picoseconds round half up to them, as Trino)
  | { kind: 'time'; nanosOfDay: number }
  | { kind: 'datetime'; days: number; nanosOfDay: number }
  // a ZonedDateTime: the local date and time, its offset, its zone (an offset or a region id) and its instant
  | {
      kind: 'zoned';
      days: number;
      nanosOfDay: number;
      offsetSeconds: number;
      zoneId: string;
      zoneIsOffset: boolean;
      epochNanos: bigint;
    };

const JAVA_CLASS: Record<Exclude<JavaValue['kind'], 'null'>, string> = {
  long: 'java.lang.Long',
  double: 'java.lang.Double',
  decimal: 'java.math.BigDecimal',
  string: 'java.lang.String',
  boolean: 'java.lang.Boolean',
  date: 'java.time.LocalDate',
  time: 'java.time.LocalTime',
  datetime: 'java.time.LocalDateTime',
  zoned: 'java.time.ZonedDateTime',
};

export function javaClassName(value: JavaValue): string {
  if (value.kind === 'null') return 'null';
  return value.kind === 'double' && value.float ? 'java.lang.Float' : JAVA_CLASS[value.kind];
}

/** The converter of one argument type, or a NOT_SUPPORTED error naming the type. */
export function javaValueOf(type: SqlType): (value: Scalar) => JavaValue {
  const convert = converter(type);
  return (value) => (value === null ? { kind: 'null' } : convert(value));
}

function converter(type: SqlType): (value: Scalar) => JavaValue {
  switch (type.kind) {
    case 'unknown':
      return () => ({ kind: 'null' });
    case 'boolean':
      return (v) => ({ kind: 'boolean', value: v === true || v === 1 });
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
      return (v) => ({ kind: 'long', value: BigInt(v as number | bigint) });
    case 'real':
      return (v) => ({ kind: 'double', value: v as number, float: true });
    case 'double':
      return (v) => ({ kind: 'double', value: v as number, float: false });
    case 'decimal':
      return (v) => ({ kind: 'decimal', unscaled: v as bigint, scale: type.scale });
    case 'varchar':
      return (v) => ({ kind: 'string', value: v as string });
    case 'char':
      return (v) => ({ kind: 'string', value: (v as string).padEnd(type.length, ' ') });
    case 'date':
      return (v) => ({ kind: 'date', days: v as number });
    case 'time': {
      const picos = readPicos(type);
      return (v) => ({ kind: 'time', nanosOfDay: Number(floorDiv(picos(v) + 500n, 1000n) % NANOS_PER_DAY) });
    }
    case 'timestamp': {
      const picos = readPicos(type);
      return (v) => {
        const nanos = floorDiv(picos(v) + 500n, 1000n);
        const days = floorDiv(nanos, NANOS_PER_DAY);
        return { kind: 'datetime', days: Number(days), nanosOfDay: Number(nanos - days * NANOS_PER_DAY) };
      };
    }
    case 'timestamp with time zone':
      return (v) => zonedDateTime(v as bigint, type.precision);
    case 'json':
      return (v) => ({ kind: 'string', value: v as string });
    case 'uuid':
    case 'ipaddress':
    case 'time with time zone':
    case 'interval year to month':
    case 'interval day to second': {
      const toText = castFunction(type, VARCHAR) as (v: Scalar) => Scalar;
      return (v) => ({ kind: 'string', value: toText(v) as string });
    }
    default:
      throw new EngineError('NOT_SUPPORTED', `Type not supported for formatting: ${typeName(type)}`);
  }
}

/** DateTimes.toZonedDateTime: the instant (picoseconds rounded half up to nanoseconds) at the value's zone. */
function zonedDateTime(v: bigint, precision: number): JavaValue {
  const { millis, picos, key } = zonedParts(v, precision);
  const epochNanos = BigInt(millis) * 1_000_000n + BigInt(Math.floor((picos + 500) / 1000));
  const offsetMillis = offsetMillisAt(key, millis);
  const local = epochNanos + BigInt(offsetMillis) * 1_000_000n;
  const days = floorDiv(local, NANOS_PER_DAY);
  const zoneId = zoneName(key);
  return {
    kind: 'zoned',
    days: Number(days),
    nanosOfDay: Number(local - days * NANOS_PER_DAY),
    offsetSeconds: offsetMillis / 1000,
    zoneId,
    zoneIsOffset: zoneId !== 'UTC' && /^[+-]/.test(zoneId),
    epochNanos,
  };
}

/** ZoneOffset.toString: Z, or ±HH:MM with :SS when it has seconds. */
function offsetText(offsetSeconds: number): string {
  return offsetSeconds === 0 ? 'Z' : formatOffsetMinutes(offsetSeconds / 60);
}

/** java.time's LocalTime.toString: HH:mm, then :ss, then the fraction in groups of three digits. */
function localTime(nanosOfDay: number): string {
  const text = `${formatTimeOfDay(Math.floor(nanosOfDay / 1000), 0)}.${String(nanosOfDay % 1_000_000_000).padStart(9, '0')}`;
  const [hoursMinutes, fraction] = [text.slice(0, 5), text.slice(9).replace(/(000)+$/, '')];
  const seconds = text.slice(5, 8);
  if (fraction === '' && seconds === ':00') return hoursMinutes;
  return fraction === '' ? hoursMinutes + seconds : `${hoursMinutes}${seconds}.${fraction}`;
}

function bigDecimalString(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString();
  const adjusted = digits.length - 1 - scale;
  let body: string;
  if (scale === 0) body = digits;
  else if (adjusted >= -6) {
    const padded = digits.padStart(scale + 1, '0');
    body = `${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
  } else body = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}E${adjusted}`;
  return negative ? `-${body}` : body;
}

/** Java's String.valueOf of the value: what %s prints. */
export function javaToString(value: JavaValue): string {
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'long':
      return value.value.toString();
    case 'double':
      return value.float ? formatRealAsText(value.value) : formatDoubleAsText(value.value);
    case 'decimal':
      return bigDecimalString(value.unscaled, value.scale);
    case 'string':
      return value.value;
    case 'boolean':
      return String(value.value);
    case 'date':
      return formatDate(value.days);
    case 'time':
      return localTime(value.nanosOfDay);
    case 'datetime':
      return `${formatDate(value.days)}T${localTime(value.nanosOfDay)}`;
    case 'zoned': {
      const local = `${formatDate(value.days)}T${localTime(value.nanosOfDay)}${offsetText(value.offsetSeconds)}`;
      return value.zoneIsOffset ? local : `${local}[${value.zoneId}]`;
    }
  }
}
