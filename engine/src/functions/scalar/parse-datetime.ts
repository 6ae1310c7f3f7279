// parse_datetime(text, pattern): text read with a Joda-Time pattern into `timestamp(3) with time
// zone`, in the zone the text names (Z: an offset, ZZZ: a zone id) or else the session zone (the
// analyzer passes it as the last argument). The pattern letters of dates, times, fractions, AM/PM and
// zones are read; a letter this engine does not read is refused by name, never guessed.

import { EngineError } from '../../errors/engine-error.js';
import { civilToDays, daysInMonth, MILLIS_PER_DAY } from '../../types/datetime.js';
import { instantOfLocal, offsetZoneKey, tryZoneKeyOf, UTC_ZONE_KEY, zoneKeyOf } from '../../types/time-zones.js';
import { timestampWithTimeZone } from '../../types/types.js';
import { packZoned } from '../../types/zoned-timestamp.js';
import { compileRegexp } from './regexp-pattern.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

interface Parsed {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  pm?: boolean;
  zoneKey?: number;
}

interface Field {
  /** A capturing group, or a non-capturing literal. */
  source: string;
  apply?: (p: Parsed, text: string) => void;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

function number(min: number, max: number, set: (p: Parsed, n: number) => void): Field {
  return { source: `(\\d{${min},${max}})`, apply: (p, t) => set(p, Number(t)) };
}

function field(letter: string, count: number): Field {
  switch (letter) {
    case 'y':
    case 'Y':
      return count === 2
        ? number(2, 2, (p, n) => (p.year = n + (n < 70 ? 2000 : 1900)))
        : { source: '([+-]?\\d{1,9})', apply: (p, t) => (p.year = Number(t)) };
    case 'M':
      if (count >= 3)
        return {
          source: '([A-Za-z]+)',
          apply: (p, t) => (p.month = MONTHS.findIndex((m) => m === t.toLowerCase() || m.slice(0, 3) === t.toLowerCase()) + 1),
        };
      return number(count, 2, (p, n) => (p.month = n));
    case 'd':
      return number(count, 2, (p, n) => (p.day = n));
    case 'H':
    case 'k':
      return number(count, 2, (p, n) => (p.hour = letter === 'k' && n === 24 ? 0 : n));
    case 'h':
      return number(count, 2, (p, n) => (p.hour = n));
    case 'm':
      return number(count, 2, (p, n) => (p.minute = n));
    case 's':
      return number(count, 2, (p, n) => (p.second = n));
    case 'S':
      // Joda reads the fraction of a second to milliseconds.
      return { source: `(\\d{1,${Math.max(count, 3)}})`, apply: (p, t) => (p.millis = Math.floor(Number(t.padEnd(3, '0').slice(0, 3)))) };
    case 'a':
      return { source: '([AaPp][Mm])', apply: (p, t) => (p.pm = t.toUpperCase() === 'PM') };
    case 'E':
      return { source: '(?:[A-Za-z]+)' };
    case 'Z':
      if (count >= 3) return { source: '([A-Za-z][A-Za-z0-9_/+-]*)', apply: (p, t) => (p.zoneKey = zoneOrInvalid(t)) };
      return {
        source: count === 1 ? '(Z|[+-]\\d\\d:?\\d\\d)' : '(Z|[+-]\\d\\d:\\d\\d)',
        apply: (p, t) =>
          (p.zoneKey =
            t === 'Z' ? UTC_ZONE_KEY : offsetZoneKey((t[0] === '-' ? -1 : 1) * (Number(t.slice(1, 3)) * 60 + Number(t.slice(-2))))),
      };
    default:
      throw new EngineError('NOT_SUPPORTED', `parse_datetime pattern letter '${letter}' is not supported`);
  }
}

function zoneOrInvalid(text: string): number {
  const key = tryZoneKeyOf(text);
  if (key === undefined) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `The datetime zone id '${text}' is not recognised`);
  return key;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compile(pattern: string): { regexp: ReturnType<typeof compileRegexp>; fields: Field[] } {
  const fields: Field[] = [];
  let source = '';
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i];
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end < 0) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Illegal pattern component: ${pattern.slice(i)}`);
      source += escape(end === i + 1 ? "'" : pattern.slice(i + 1, end));
      i = end + 1;
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (pattern[j] === c) j++;
      const f = field(c, j - i);
      source += f.source;
      if (f.apply !== undefined) fields.push(f);
      i = j;
    } else {
      source += escape(c);
      i++;
    }
  }
  return { regexp: compileRegexp(source), fields };
}

const CACHE = new Map<string, ReturnType<typeof compile>>();

function parseDatetime(text: string, pattern: string, sessionZone: string): bigint {
  let compiled = CACHE.get(pattern);
  if (compiled === undefined) {
    compiled = compile(pattern);
    if (CACHE.size > 100) CACHE.clear();
    CACHE.set(pattern, compiled);
  }
  const invalid = () => new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid format: "${text}"`);
  const m = compiled.regexp.matcher(text);
  if (!m.matches()) throw invalid();
  const p: Parsed = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, millis: 0 };
  compiled.fields.forEach((f, i) => f.apply?.(p, m.group(i + 1) ?? ''));
  if (p.pm !== undefined) {
    if (p.hour < 1 || p.hour > 12) throw invalid();
    p.hour = (p.hour % 12) + (p.pm ? 12 : 0);
  }
  if (p.month < 1 || p.month > 12 || p.day < 1 || p.day > daysInMonth(p.year, p.month) || p.hour > 23 || p.minute > 59 || p.second > 59)
    throw invalid();
  const key = p.zoneKey ?? zoneKeyOf(sessionZone);
  const local = civilToDays(p.year, p.month, p.day) * MILLIS_PER_DAY + ((p.hour * 60 + p.minute) * 60 + p.second) * 1000 + p.millis;
  const instant = instantOfLocal(key, local, 'fail');
  if (instant === undefined)
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Cannot parse "${text}": Illegal instant due to time zone offset transition`);
  return packZoned(instant, key);
}

export const PARSE_DATETIME_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['$parse_datetime'],
    description: 'parse_datetime with the session zone as its third argument',
    signatures: [
      {
        params: [{ family: 'varchar' }, { family: 'varchar' }, { family: 'varchar' }],
        returnType: timestampWithTimeZone(3),
        implement: () => body(parseDatetime),
      },
    ],
  },
];
