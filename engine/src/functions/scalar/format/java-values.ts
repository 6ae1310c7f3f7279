// SQL values as the Java objects Trino's format() hands java.util.Formatter: integers as Long,
// real as Float, double as Double, decimals as BigDecimal, text as String, dates and times as
// java.time values. Each knows its Java class name (for Java's error messages) and its toString.

import type { Scalar } from '../../../types/scalar.js';
import { floorDiv, readPicos } from '../../../types/long-plain-temporal.js';
import { formatDate, formatTimeOfDay } from '../../../types/datetime.js';
import { formatDoubleAsText, formatRealAsText } from '../../../types/number-format.js';
import { type SqlType, typeName } from '../../../types/types.js';
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
  | { kind: 'datetime'; days: number; nanosOfDay: number };

const JAVA_CLASS: Record<Exclude<JavaValue['kind'], 'null'>, string> = {
  long: 'java.lang.Long',
  double: 'java.lang.Double',
  decimal: 'java.math.BigDecimal',
  string: 'java.lang.String',
  boolean: 'java.lang.Boolean',
  date: 'java.time.LocalDate',
  time: 'java.time.LocalTime',
  datetime: 'java.time.LocalDateTime',
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
    default:
      throw new EngineError('NOT_SUPPORTED', `Type not supported for formatting: ${typeName(type)}`);
  }
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
  }
}
