// format_datetime (Joda-Time patterns), date_format and date_parse (MySQL specifiers), as Trino
// implements them. Patterns compile once into lists of printers and are cached.

import type { RE2JS } from 're2js';
import { EngineError } from '../../errors/engine-error.js';
import {
  MICROS_PER_DAY,
  MICROS_PER_HOUR,
  MICROS_PER_MINUTE,
  MICROS_PER_SECOND,
  civilToDays,
  dayOfMonthOfDays,
  dayOfWeekOfDays,
  dayOfYearOfDays,
  daysInMonth,
  isoWeekOfDays,
  monthOfDays,
  timestampDays,
  timestampMicrosOfDay,
  yearOfDays,
} from '../../types/datetime.js';
import { compileRegexp } from './regexp-pattern.js';
import { formatOffsetMinutes } from '../../types/time-zones.js';

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The calendar fields of a timestamp, computed once per formatted value. */
interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micros: number; // of the second
  dayOfWeek: number; // ISO, Monday 1
  dayOfYear: number;
  weekYear: number;
  week: number;
  zone: ZoneOfValue;
}

/** The zone a formatted value is in: plain timestamps are formatted as UTC (Trino). */
export interface ZoneOfValue {
  /** UTC, +01:00 or an IANA name. */
  name: string;
  offsetMinutes: number;
  /** Whether the zone is a region (IANA name) rather than UTC or a fixed offset. */
  region: boolean;
}
const UTC_ZONE: ZoneOfValue = { name: 'UTC', offsetMinutes: 0, region: false };

/** A timestamp as its day since the epoch and its micros of that day (exact at any year, unlike one double of micros). */
export interface TimestampParts {
  days: number;
  microsOfDay: number;
}

const partsOf = (timestampMicros: number): TimestampParts => ({
  days: timestampDays(timestampMicros),
  microsOfDay: timestampMicrosOfDay(timestampMicros),
});

function fieldsOf({ days, microsOfDay: ofDay }: TimestampParts, zone: ZoneOfValue = UTC_ZONE): Fields {
  const { weekYear, week } = isoWeekOfDays(days);
  return {
    year: yearOfDays(days),
    month: monthOfDays(days),
    day: dayOfMonthOfDays(days),
    hour: Math.floor(ofDay / MICROS_PER_HOUR),
    minute: Math.floor(ofDay / MICROS_PER_MINUTE) % 60,
    second: Math.floor(ofDay / MICROS_PER_SECOND) % 60,
    micros: ofDay % MICROS_PER_SECOND,
    dayOfWeek: dayOfWeekOfDays(days),
    dayOfYear: dayOfYearOfDays(days),
    weekYear,
    week,
    zone,
  };
}

type Printer = (f: Fields) => string;

function padded(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

function invalidArgument(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

function cached<T>(cache: Map<string, T>, key: string, build: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = build();
    if (cache.size >= 1000) cache.clear();
    cache.set(key, value);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Joda-Time patterns (format_datetime)

function jodaPrinter(letter: string, count: number): Printer {
  const number =
    (get: (f: Fields) => number): Printer =>
    (f) =>
      padded(get(f), count);
  const text = (names: string[], get: (f: Fields) => number): Printer =>
    count >= 4 ? (f) => names[get(f)] : count === 3 ? (f) => names[get(f)].slice(0, 3) : (f) => padded(get(f) + 1, count);
  switch (letter) {
    case 'G':
      return (f) => (f.year > 0 ? 'AD' : 'BC');
    case 'C':
      return number((f) => Math.floor(f.year / 100));
    case 'Y':
    case 'y':
      return count === 2 ? (f) => padded(((f.year % 100) + 100) % 100, 2) : number((f) => f.year);
    case 'x':
      return count === 2 ? (f) => padded(((f.weekYear % 100) + 100) % 100, 2) : number((f) => f.weekYear);
    case 'w':
      return number((f) => f.week);
    case 'e':
      return number((f) => f.dayOfWeek);
    case 'E':
      return count >= 4 ? (f) => DAY_NAMES[f.dayOfWeek - 1] : (f) => DAY_NAMES[f.dayOfWeek - 1].slice(0, 3);
    case 'D':
      return number((f) => f.dayOfYear);
    case 'M':
      return text(MONTH_NAMES, (f) => f.month - 1);
    case 'd':
      return number((f) => f.day);
    case 'a':
      return (f) => (f.hour < 12 ? 'AM' : 'PM');
    case 'K':
      return number((f) => f.hour % 12);
    case 'h':
      return number((f) => (f.hour % 12 === 0 ? 12 : f.hour % 12));
    case 'H':
      return number((f) => f.hour);
    case 'k':
      return number((f) => (f.hour === 0 ? 24 : f.hour));
    case 'm':
      return number((f) => f.minute);
    case 's':
      return number((f) => f.second);
    case 'S':
      return (f) => {
        const digits = padded(f.micros, 6);
        return count <= 6 ? digits.slice(0, count) : digits + '0'.repeat(count - 6);
      };
    case 'z':
      return (f) => zoneText(f.zone, count);
    case 'Z':
      return count === 1
        ? (f) => formatOffsetMinutes(f.zone.offsetMinutes).replace(':', '')
        : count === 2
          ? (f) => formatOffsetMinutes(f.zone.offsetMinutes)
          : (f) => f.zone.name;
    default:
      throw invalidArgument(`Illegal pattern component: ${letter.repeat(count)}`);
  }
}

/** Joda's `z` (short) and `zzzz` (long) zone names, known here for UTC and fixed offsets only. */
function zoneText(zone: ZoneOfValue, count: number): string {
  if (zone.region)
    throw new EngineError(
      'NOT_SUPPORTED',
      `Zone names (pattern ${'z'.repeat(count)}) of region time zones are not supported: ${zone.name}`,
    );
  if (zone.name === 'UTC') return count >= 4 ? 'Coordinated Universal Time' : 'UTC';
  return zone.name;
}

function compileJoda(pattern: string): Printer[] {
  const printers: Printer[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "'") {
      // '' is a quote; 'text' is literal text
      const end = pattern.indexOf("'", i + 1);
      if (end === i + 1) {
        printers.push(() => "'");
        i += 2;
        continue;
      }
      if (end < 0) throw invalidArgument(`Illegal pattern component: ${pattern.slice(i)}`);
      const literal = pattern.slice(i + 1, end).replace(/''/g, "'");
      printers.push(() => literal);
      i = end + 1;
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (j < pattern.length && pattern[j] === c) j++;
      printers.push(jodaPrinter(c, j - i));
      i = j;
    } else {
      printers.push(() => c);
      i++;
    }
  }
  return printers;
}

const JODA_CACHE = new Map<string, Printer[]>();

/** format_datetime(timestamp, pattern) with a Joda-Time pattern, in UTC. */
export function formatDatetime(timestampMicros: number, pattern: string, zone?: ZoneOfValue): string {
  return formatDatetimeParts(partsOf(timestampMicros), pattern, zone);
}

export function formatDatetimeParts(parts: TimestampParts, pattern: string, zone?: ZoneOfValue): string {
  const printers = cached(JODA_CACHE, pattern, () => compileJoda(pattern));
  const f = fieldsOf(parts, zone);
  let out = '';
  for (const p of printers) out += p(f);
  return out;
}

// ---------------------------------------------------------------------------------------------
// MySQL specifiers (date_format, date_parse)

const UNSUPPORTED_MYSQL = new Set(['D', 'U', 'u', 'V', 'X']);

function hour12(h: number): number {
  return h % 12 === 0 ? 12 : h % 12;
}

function mysqlPrinter(spec: string): Printer {
  switch (spec) {
    case 'a':
      return (f) => DAY_NAMES[f.dayOfWeek - 1].slice(0, 3);
    case 'b':
      return (f) => MONTH_NAMES[f.month - 1].slice(0, 3);
    case 'c':
      return (f) => String(f.month);
    case 'd':
      return (f) => padded(f.day, 2);
    case 'e':
      return (f) => String(f.day);
    case 'f':
      return (f) => padded(f.micros, 6);
    case 'H':
      return (f) => padded(f.hour, 2);
    case 'h':
    case 'I':
      return (f) => padded(hour12(f.hour), 2);
    case 'i':
      return (f) => padded(f.minute, 2);
    case 'j':
      return (f) => padded(f.dayOfYear, 3);
    case 'k':
      return (f) => String(f.hour);
    case 'l':
      return (f) => String(hour12(f.hour));
    case 'M':
      return (f) => MONTH_NAMES[f.month - 1];
    case 'm':
      return (f) => padded(f.month, 2);
    case 'p':
      return (f) => (f.hour < 12 ? 'AM' : 'PM');
    case 'r':
      return (f) => `${padded(hour12(f.hour), 2)}:${padded(f.minute, 2)}:${padded(f.second, 2)} ${f.hour < 12 ? 'AM' : 'PM'}`;
    case 'S':
    case 's':
      return (f) => padded(f.second, 2);
    case 'T':
      return (f) => `${padded(f.hour, 2)}:${padded(f.minute, 2)}:${padded(f.second, 2)}`;
    case 'v':
      return (f) => padded(f.week, 2);
    case 'W':
      return (f) => DAY_NAMES[f.dayOfWeek - 1];
    case 'w':
      return (f) => String(f.dayOfWeek % 7);
    case 'x':
      return (f) => padded(f.weekYear, 4);
    case 'Y':
      return (f) => padded(f.year, 4);
    case 'y':
      return (f) => padded(((f.year % 100) + 100) % 100, 2);
    default:
      return () => spec; // %% and any other character print themselves, as in MySQL
  }
}

/** Splits a MySQL format into literal text and specifier letters. */
function mysqlTokens(format: string): Array<{ literal: string } | { spec: string }> {
  const tokens: Array<{ literal: string } | { spec: string }> = [];
  for (let i = 0; i < format.length; i++) {
    if (format[i] === '%' && i + 1 < format.length) {
      const spec = format[++i];
      if (UNSUPPORTED_MYSQL.has(spec)) throw invalidArgument(`%${spec} not supported in date format string`);
      tokens.push({ spec });
    } else {
      tokens.push({ literal: format[i] });
    }
  }
  return tokens;
}

const MYSQL_FORMAT_CACHE = new Map<string, Printer[]>();

/** date_format(timestamp, format) with MySQL specifiers. */
export function dateFormat(timestampMicros: number, format: string): string {
  return dateFormatParts(partsOf(timestampMicros), format);
}

export function dateFormatParts(parts: TimestampParts, format: string): string {
  const printers = cached(MYSQL_FORMAT_CACHE, format, () =>
    mysqlTokens(format).map((t): Printer => ('literal' in t ? () => t.literal : mysqlPrinter(t.spec))),
  );
  const f = fieldsOf(parts);
  let out = '';
  for (const p of printers) out += p(f);
  return out;
}

interface ParseState {
  year: number;
  month: number;
  day: number;
  dayOfYear: number | undefined;
  hour: number;
  minute: number;
  second: number;
  micros: number;
  pm: boolean | undefined;
}

type FieldParser = { pattern: string; apply: (s: ParseState, text: string) => void };

function monthNameIndex(text: string): number {
  const lower = text.toLowerCase();
  return MONTH_NAMES.findIndex((m) => m.toLowerCase() === lower || m.slice(0, 3).toLowerCase() === lower) + 1;
}

function mysqlParser(spec: string): FieldParser {
  const num = (digits: string, apply: (s: ParseState, n: number) => void): FieldParser => ({
    pattern: `(\\d{${digits}})`,
    apply: (s, t) => apply(s, Number(t)),
  });
  switch (spec) {
    case 'Y':
      return num('1,4', (s, n) => (s.year = n));
    case 'y':
      return num('2', (s, n) => (s.year = n < 70 ? 2000 + n : 1900 + n));
    case 'm':
    case 'c':
      return num('1,2', (s, n) => (s.month = n));
    case 'd':
    case 'e':
      return num('1,2', (s, n) => (s.day = n));
    case 'j':
      return num('1,3', (s, n) => (s.dayOfYear = n));
    case 'H':
    case 'k':
    case 'h':
    case 'I':
    case 'l':
      return num('1,2', (s, n) => (s.hour = n));
    case 'i':
      return num('1,2', (s, n) => (s.minute = n));
    case 'S':
    case 's':
      return num('1,2', (s, n) => (s.second = n));
    case 'f':
      return { pattern: '(\\d{1,9})', apply: (s, t) => (s.micros = Math.round(Number(`0.${t}`) * MICROS_PER_SECOND)) };
    case 'p':
      return { pattern: '(AM|PM|am|pm)', apply: (s, t) => (s.pm = t.toUpperCase() === 'PM') };
    case 'b':
    case 'M':
      return { pattern: '([A-Za-z]+)', apply: (s, t) => (s.month = monthNameIndex(t)) };
    case 'a':
    case 'W':
      return { pattern: '(?:[A-Za-z]+)', apply: () => undefined };
    case 'T':
      return {
        pattern: '(\\d{1,2}:\\d{1,2}:\\d{1,2})',
        apply: (s, t) => ([s.hour, s.minute, s.second] = t.split(':').map(Number)),
      };
    case 'r':
      return {
        pattern: '(\\d{1,2}:\\d{1,2}:\\d{1,2} (?:AM|PM|am|pm))',
        apply: (s, t) => {
          const [time, half] = t.split(' ');
          [s.hour, s.minute, s.second] = time.split(':').map(Number);
          s.pm = half.toUpperCase() === 'PM';
        },
      };
    default:
      return { pattern: escapeRegExp(spec), apply: () => undefined };
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface CompiledParser {
  regexp: RE2JS;
  appliers: Array<(s: ParseState, text: string) => void>;
}

const MYSQL_PARSE_CACHE = new Map<string, CompiledParser>();

/** date_parse(text, format): the timestamp(3) the text denotes under MySQL specifiers. */
export function dateParse(text: string, format: string): number {
  const parser = cached(MYSQL_PARSE_CACHE, format, () => {
    let source = '';
    const appliers: CompiledParser['appliers'] = [];
    for (const t of mysqlTokens(format)) {
      if ('literal' in t) {
        source += escapeRegExp(t.literal);
        continue;
      }
      const p = mysqlParser(t.spec);
      source += p.pattern;
      if (p.pattern.startsWith('(') && !p.pattern.startsWith('(?:')) appliers.push(p.apply);
    }
    // linear-time engine: adjacent variable-width fields must not backtrack exponentially
    return { regexp: compileRegexp(source), appliers };
  });
  const m = parser.regexp.matcher(text);
  const invalid = () => invalidArgument(`Invalid format: "${text}"`);
  if (!m.matches()) throw invalid();
  const state: ParseState = { year: 1970, month: 1, day: 1, dayOfYear: undefined, hour: 0, minute: 0, second: 0, micros: 0, pm: undefined };
  parser.appliers.forEach((apply, i) => apply(state, m.group(i + 1) ?? ''));
  if (state.pm !== undefined) {
    if (state.hour < 1 || state.hour > 12) throw invalid();
    state.hour = (state.hour % 12) + (state.pm ? 12 : 0);
  }
  if (state.month < 1 || state.month > 12 || state.day < 1 || state.day > daysInMonth(state.year, state.month)) throw invalid();
  if (state.hour > 23 || state.minute > 59 || state.second > 59) throw invalid();
  const days =
    state.dayOfYear !== undefined ? civilToDays(state.year, 1, 1) + state.dayOfYear - 1 : civilToDays(state.year, state.month, state.day);
  const micros = state.hour * MICROS_PER_HOUR + state.minute * MICROS_PER_MINUTE + state.second * MICROS_PER_SECOND + state.micros;
  // timestamp(3): the parsed fraction keeps millisecond precision
  return days * MICROS_PER_DAY + Math.floor(micros / 1000) * 1000;
}
