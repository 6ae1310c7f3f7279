// parse_datetime(text, pattern): text read with a Joda-Time pattern into `timestamp(3) with time
// zone`, in the zone the text names (Z: an offset, ZZZ: a zone id, z: Joda's default zone names) or
// else the session zone (the analyzer passes it as the last argument). Every letter Joda's
// DateTimeFormat defines is read (G C Y y x w e E D M d a K h H k m s S z Z); the fields are set as
// Joda sets them (joda-parsed-fields.ts); another letter fails as Joda's "Illegal pattern component".

import { EngineError } from '../../errors/engine-error.js';
import { MILLIS_PER_DAY } from '../../types/datetime.js';
import { instantOfLocal, offsetZoneKey, tryZoneKeyOf, UTC_ZONE_KEY, zoneKeyOf } from '../../types/time-zones.js';
import { timestampWithTimeZone } from '../../types/types.js';
import { packZoned } from '../../types/zoned-timestamp.js';
import { FieldValueError, computeLocalDateTime, type JodaField, type LocalDateTime, type SavedField } from './joda-parsed-fields.js';
import { compileRegexp } from './regexp-pattern.js';
import { type ScalarFunctionDefinition, body } from './signature.js';

interface Parsed {
  saved: SavedField[];
  zoneKey?: number;
}

interface Field {
  /** A capturing group, or a non-capturing literal. */
  source: string;
  /** Saves what the group read; false when it is no value of the field (a name it does not know). */
  apply?: (p: Parsed, text: string) => boolean | undefined;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** Joda's DateTimeUtils.getDefaultTimeZoneNames: what `z` reads. */
const ZONE_NAMES: Record<string, string> = {
  UT: 'UTC',
  UTC: 'UTC',
  GMT: 'UTC',
  EST: 'America/New_York',
  EDT: 'America/New_York',
  CST: 'America/Chicago',
  CDT: 'America/Chicago',
  MST: 'America/Denver',
  MDT: 'America/Denver',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
};
/** Letters Joda reads as numbers: a year before one of them cannot take a variable number of digits. */
const NUMERIC_LETTERS = 'CYyxwehHkKmsSD';

function save(p: Parsed, field: JodaField, value: number): undefined {
  p.saved.push({ field, value });
}

function number(field: JodaField, maxDigits: number): Field {
  return { source: `(\\d{1,${maxDigits}})`, apply: (p, t) => save(p, field, Number(t)) };
}

/** A name (full or three-letter, any case) out of `names`, saved as its index plus `base`. */
function text(field: JodaField, names: readonly string[], base: number): Field {
  return {
    source: '([A-Za-z]+)',
    apply: (p, t) => {
      const index = names.findIndex((n) => n === t.toLowerCase() || n.slice(0, 3) === t.toLowerCase());
      if (index < 0) return false;
      save(p, field, index + base);
      return true;
    },
  };
}

/** Joda's two-digit year: 2 digits land within 50 years of 30 years ago; when lenient, other digit counts are the year itself. */
function twoDigitYear(field: JodaField, lenient: boolean): Field {
  const pivot = new Date().getUTCFullYear() - 30;
  const low = pivot - 50;
  return {
    source: lenient ? '([+-]?\\d{1,9})' : '(\\d{2})',
    apply: (p, t) => {
      if (t.length !== 2) return save(p, field, Number(t));
      const n = Number(t);
      const lowTwoDigits = ((low % 100) + 100) % 100;
      save(p, field, low - lowTwoDigits + n + (n < lowTwoDigits ? 100 : 0));
    },
  };
}

function year(field: JodaField, count: number, nextIsNumeric: boolean): Field {
  if (count === 2) return twoDigitYear(field, !nextIsNumeric);
  return { source: `([+-]?\\d{1,${nextIsNumeric ? count : 9}})`, apply: (p, t) => save(p, field, Number(t)) };
}

function field(letter: string, count: number, nextIsNumeric: boolean): Field {
  switch (letter) {
    case 'G':
      return text('era', ['bc', 'ad'], 0);
    case 'C':
      return number('centuryOfEra', count);
    case 'y':
      return year('year', count, nextIsNumeric);
    case 'Y':
      return year('yearOfEra', count, nextIsNumeric);
    case 'x':
      return year('weekyear', count, nextIsNumeric);
    case 'w':
      return number('weekOfWeekyear', 2);
    case 'e':
      return number('dayOfWeek', 1);
    case 'E':
      return text('dayOfWeek', DAYS, 1);
    case 'D':
      return number('dayOfYear', 3);
    case 'M':
      return count >= 3 ? text('monthOfYear', MONTHS, 1) : number('monthOfYear', 2);
    case 'd':
      return number('dayOfMonth', 2);
    case 'a':
      return { source: '([AaPp][Mm])', apply: (p, t) => save(p, 'halfdayOfDay', t.toUpperCase() === 'PM' ? 1 : 0) };
    case 'K':
      return number('hourOfHalfday', 2);
    case 'h':
      return number('clockhourOfHalfday', 2);
    case 'H':
      return number('hourOfDay', 2);
    case 'k':
      return number('clockhourOfDay', 2);
    case 'm':
      return number('minuteOfHour', 2);
    case 's':
      return number('secondOfMinute', 2);
    case 'S':
      // Joda reads up to nine digits of the fraction of a second, to milliseconds.
      return { source: '(\\d{1,9})', apply: (p, t) => save(p, 'millisOfSecond', Number(t.padEnd(3, '0').slice(0, 3))) };
    case 'z': {
      const names = Object.keys(ZONE_NAMES).sort((a, b) => b.length - a.length);
      return { source: `(${names.join('|')})`, apply: (p, t) => void (p.zoneKey = zoneKeyOf(ZONE_NAMES[t])) };
    }
    case 'Z':
      if (count >= 3) return { source: '([A-Za-z][A-Za-z0-9_/+-]*)', apply: (p, t) => void (p.zoneKey = zoneOrInvalid(t)) };
      return {
        source: count === 1 ? '(Z|[+-]\\d\\d:?\\d\\d)' : '(Z|[+-]\\d\\d:\\d\\d)',
        apply: (p, t) =>
          void (p.zoneKey =
            t === 'Z' ? UTC_ZONE_KEY : offsetZoneKey((t[0] === '-' ? -1 : 1) * (Number(t.slice(1, 3)) * 60 + Number(t.slice(-2))))),
      };
    default:
      throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Illegal pattern component: ${letter.repeat(count)}`);
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
      const next = pattern[j];
      const nextIsNumeric = next !== undefined && (NUMERIC_LETTERS.includes(next) || (next === 'M' && pattern[j + 2] !== 'M'));
      const f = field(c, j - i, nextIsNumeric);
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
  const p: Parsed = { saved: [] };
  if (compiled.fields.some((f, i) => f.apply?.(p, m.group(i + 1) ?? '') === false)) throw invalid();
  let local: LocalDateTime;
  try {
    local = computeLocalDateTime(p.saved);
  } catch (e) {
    if (!(e instanceof FieldValueError)) throw e;
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Cannot parse "${text}": ${e.message}`);
  }
  const key = p.zoneKey ?? zoneKeyOf(sessionZone);
  const instant = instantOfLocal(key, local.days * MILLIS_PER_DAY + local.millisOfDay, 'fail');
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
