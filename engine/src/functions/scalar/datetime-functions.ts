// Date and time functions (Trino's DateTimeFunctions) on dates, times and plain timestamps; those on
// `timestamp with time zone` (from_unixtime, to_unixtime, at_timezone...) are in zoned-timestamp-functions.ts.

import { EngineError } from '../../errors/engine-error.js';
import {
  MICROS_PER_DAY,
  MICROS_PER_HOUR,
  MICROS_PER_MILLI,
  MICROS_PER_MINUTE,
  MICROS_PER_SECOND,
  MILLIS_PER_DAY,
  MILLIS_PER_HOUR,
  MILLIS_PER_MINUTE,
  MILLIS_PER_SECOND,
  civilToDays,
  daysInMonth,
  dayOfMonthOfDays,
  dayOfWeekOfDays,
  dayOfYearOfDays,
  formatDate,
  formatTimeOfDay,
  isLeapYear,
  isoWeekOfDays,
  monthOfDays,
  timestampDays,
  timestampMicrosOfDay,
  yearOfDays,
} from '../../types/datetime.js';
import { type SqlType, BIGINT, DATE, INTERVAL_DAY_SECOND, INTERVAL_YEAR_MONTH, VARCHAR, timestamp } from '../../types/types.js';
import {
  type TemporalKind,
  addToDate,
  addToTime,
  addToTimestamp,
  diffTimestamps,
  parseUnit,
  truncateDate,
  truncateTimestamp,
} from './datetime-fields.js';
import { dateFormat, dateParse, formatDatetime } from './datetime-format.js';
import { type ScalarFunctionDefinition, type SignatureTemplate, body } from './signature.js';

const TIMESTAMP = { family: 'timestamp' } as const;
const TIME = { family: 'time' } as const;
const VARCHAR_X = { family: 'varchar' } as const;
const sameAsLast = (types: readonly SqlType[]): SqlType => types[types.length - 1];

type DayField = (days: number) => number;
type MicrosField = (microsOfDay: number) => number;

/** A field of dates, and of timestamps through their date part; bigint results as Trino returns. */
function dateField(names: string[], description: string, field: DayField): ScalarFunctionDefinition {
  return {
    names,
    description,
    signatures: [
      { params: [DATE], returnType: BIGINT, implement: () => body((d: number) => BigInt(field(d))) },
      { params: [TIMESTAMP], returnType: BIGINT, implement: () => body((t: number) => BigInt(field(timestampDays(t)))) },
    ],
  };
}

/** A field of the time of day, for timestamps and times, plus an optional interval variant. */
function timeField(names: string[], description: string, field: MicrosField, interval?: SignatureTemplate): ScalarFunctionDefinition {
  return {
    names,
    description,
    signatures: [
      { params: [TIMESTAMP], returnType: BIGINT, implement: () => body((t: number) => BigInt(field(timestampMicrosOfDay(t)))) },
      { params: [TIME], returnType: BIGINT, implement: () => body((t: number) => BigInt(field(t))) },
      ...(interval === undefined ? [] : [interval]),
    ],
  };
}

function intervalField(type: SqlType, field: (value: number) => number): SignatureTemplate {
  return { params: [type], returnType: BIGINT, implement: () => body((v: number) => BigInt(field(v))) };
}

const truncDiv = (a: number, b: number) => Math.trunc(a / b);

type Param = SignatureTemplate['params'][number];

/** A function of a unit and values, for dates, timestamps and times (the unit is checked per kind). */
function unitFunction(
  names: string[],
  description: string,
  params: (value: Param) => Param[],
  returnType: SignatureTemplate['returnType'],
  implement: (kind: TemporalKind) => (...args: never[]) => number | bigint,
): ScalarFunctionDefinition {
  const kinds: Array<[TemporalKind, Param]> = [
    ['date', DATE],
    ['timestamp', TIMESTAMP],
    ['time', TIME],
  ];
  return {
    names,
    description,
    signatures: kinds.map(([kind, value]) => ({ params: params(value), returnType, implement: () => body(implement(kind)) })),
  };
}

function addUnits(kind: TemporalKind) {
  return (unit: string, amount: bigint, value: number): number => {
    const u = parseUnit(unit, kind);
    const n = Number(amount);
    return kind === 'date' ? addToDate(u, n, value) : kind === 'time' ? addToTime(u, n, value) : addToTimestamp(u, n, value);
  };
}

function diffUnits(kind: TemporalKind) {
  return (unit: string, a: number, b: number): bigint => {
    const u = parseUnit(unit, kind);
    const scale = kind === 'date' ? MICROS_PER_DAY : 1;
    return BigInt(diffTimestamps(u, a * scale, b * scale));
  };
}

function truncUnits(kind: TemporalKind) {
  return (unit: string, value: number): number => {
    const u = parseUnit(unit, kind);
    if (kind === 'date') return truncateDate(u, value);
    return truncateTimestamp(u, value); // times of day truncate like timestamps on day 0
  };
}

/** ISO 8601 dates as Joda's date element parser reads them: calendar (yyyy[-MM[-dd]]), week (yyyy-Www[-D]) and ordinal (yyyy-DDD). */
const ISO_CALENDAR_DATE = /^\s*([+-]?\d{4,})(?:-(\d{2})(?:-(\d{2}))?)?\s*$/;
const ISO_WEEK_DATE = /^\s*([+-]?\d{4,})-W(\d{2})(?:-(\d))?\s*$/;
const ISO_ORDINAL_DATE = /^\s*([+-]?\d{4,})-(\d{3})\s*$/;

/** ISO weeks in the week-based year: 53 when it starts on a Thursday, or a Wednesday in a leap year. */
function isoWeeksInYear(year: number): number {
  return isoWeekOfDays(civilToDays(year, 12, 28)).week;
}

function fromIso8601Date(text: string): number {
  const invalid = () => new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid format: "${text}"`);
  const week = ISO_WEEK_DATE.exec(text);
  if (week !== null) {
    const [year, weekNumber, weekday] = [Number(week[1]), Number(week[2]), week[3] === undefined ? 1 : Number(week[3])];
    if (weekNumber < 1 || weekNumber > isoWeeksInYear(year) || weekday < 1 || weekday > 7) throw invalid();
    const january4 = civilToDays(year, 1, 4);
    return january4 - (dayOfWeekOfDays(january4) - 1) + (weekNumber - 1) * 7 + (weekday - 1);
  }
  const ordinal = ISO_ORDINAL_DATE.exec(text);
  if (ordinal !== null) {
    const [year, day] = [Number(ordinal[1]), Number(ordinal[2])];
    if (day < 1 || day > (isLeapYear(year) ? 366 : 365)) throw invalid();
    return civilToDays(year, 1, 1) + day - 1;
  }
  const m = ISO_CALENDAR_DATE.exec(text);
  const year = m === null ? NaN : Number(m[1]);
  const month = m?.[2] === undefined ? 1 : Number(m[2]);
  const day = m?.[3] === undefined ? 1 : Number(m[3]);
  if (m === null || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) throw invalid();
  return civilToDays(year, month, day);
}

export const DATETIME_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['year'],
    description: 'Year of the given date, timestamp or interval',
    signatures: [...dateField([], '', yearOfDays).signatures, intervalField(INTERVAL_YEAR_MONTH, (m) => truncDiv(m, 12))],
  },
  dateField(['quarter'], 'Quarter of the year of the given date or timestamp', (d) => Math.floor((monthOfDays(d) - 1) / 3) + 1),
  {
    names: ['month'],
    description: 'Month of the year of the given date, timestamp or interval',
    signatures: [...dateField([], '', monthOfDays).signatures, intervalField(INTERVAL_YEAR_MONTH, (m) => m % 12)],
  },
  dateField(['week', 'week_of_year'], 'Week of the year (ISO 8601) of the given date or timestamp', (d) => isoWeekOfDays(d).week),
  dateField(['year_of_week', 'yow'], 'Year of the ISO week of the given date or timestamp', (d) => isoWeekOfDays(d).weekYear),
  {
    names: ['day', 'day_of_month'],
    description: 'Day of the month of the given date, timestamp or interval',
    signatures: [
      ...dateField([], '', dayOfMonthOfDays).signatures,
      intervalField(INTERVAL_DAY_SECOND, (ms) => truncDiv(ms, MILLIS_PER_DAY)),
    ],
  },
  dateField(['day_of_week', 'dow'], 'Day of the week (ISO: Monday 1 .. Sunday 7)', dayOfWeekOfDays),
  dateField(['day_of_year', 'doy'], 'Day of the year of the given date or timestamp', dayOfYearOfDays),
  timeField(
    ['hour'],
    'Hour of the day',
    (m) => Math.floor(m / MICROS_PER_HOUR),
    intervalField(INTERVAL_DAY_SECOND, (ms) => truncDiv(ms, MILLIS_PER_HOUR) % 24),
  ),
  timeField(
    ['minute'],
    'Minute of the hour',
    (m) => Math.floor(m / MICROS_PER_MINUTE) % 60,
    intervalField(INTERVAL_DAY_SECOND, (ms) => truncDiv(ms, MILLIS_PER_MINUTE) % 60),
  ),
  timeField(
    ['second'],
    'Second of the minute',
    (m) => Math.floor(m / MICROS_PER_SECOND) % 60,
    intervalField(INTERVAL_DAY_SECOND, (ms) => truncDiv(ms, MILLIS_PER_SECOND) % 60),
  ),
  timeField(
    ['millisecond'],
    'Millisecond of the second',
    (m) => Math.floor(m / MICROS_PER_MILLI) % 1000,
    intervalField(INTERVAL_DAY_SECOND, (ms) => ms % 1000),
  ),
  unitFunction(['date_add'], 'Adds a number of units to a date, time or timestamp', (v) => [VARCHAR_X, BIGINT, v], sameAsLast, addUnits),
  unitFunction(
    ['date_diff'],
    'Difference in whole units between two dates, times or timestamps',
    (v) => [VARCHAR_X, v, v],
    BIGINT,
    diffUnits,
  ),
  unitFunction(['date_trunc'], 'Truncates a date, time or timestamp to the given unit', (v) => [VARCHAR_X, v], sameAsLast, truncUnits),
  {
    names: ['last_day_of_month'],
    description: 'Last day of the month of the given date or timestamp',
    signatures: [
      { params: [DATE], returnType: DATE, implement: () => body((d: number) => civilToDays(yearOfDays(d), monthOfDays(d) + 1, 0)) },
      {
        params: [TIMESTAMP],
        returnType: DATE,
        implement: () =>
          body((t: number) => {
            const d = timestampDays(t);
            return civilToDays(yearOfDays(d), monthOfDays(d) + 1, 0);
          }),
      },
    ],
  },
  {
    names: ['format_datetime'],
    description: 'Formats the given timestamp with a Joda-Time pattern',
    signatures: [{ params: [TIMESTAMP, VARCHAR_X], returnType: VARCHAR, implement: () => body(formatDatetime) }],
  },
  {
    names: ['date_format'],
    description: 'Formats the given timestamp with MySQL format specifiers',
    signatures: [{ params: [TIMESTAMP, VARCHAR_X], returnType: VARCHAR, implement: () => body(dateFormat) }],
  },
  {
    names: ['date_parse'],
    description: 'Parses a timestamp with MySQL format specifiers',
    signatures: [{ params: [VARCHAR_X, VARCHAR_X], returnType: timestamp(3), implement: () => body(dateParse) }],
  },
  {
    names: ['from_iso8601_date'],
    description: 'Parses an ISO 8601 date',
    signatures: [{ params: [VARCHAR_X], returnType: DATE, implement: () => body(fromIso8601Date) }],
  },
  {
    names: ['to_iso8601'],
    description: 'Formats the given date or timestamp as ISO 8601 text',
    signatures: [
      { params: [DATE], returnType: VARCHAR, implement: () => body(formatDate) },
      {
        params: [TIMESTAMP],
        returnType: VARCHAR,
        implement: ([t]) => {
          const precision = t.kind === 'timestamp' ? t.precision : 3;
          return body((v: number) => `${formatDate(timestampDays(v))}T${formatTimeOfDay(timestampMicrosOfDay(v), precision)}`);
        },
      },
    ],
  },
];
