// The fields a Joda-Time pattern reads (parse_datetime), set on a local date-time the way Joda's
// DateTimeParserBucket does: starting from 1970-01-01 00:00, each parsed field is set in the order of
// its range then its unit, largest first (era; year and weekyear; century and year of era; month,
// week, day of year; day of month; day of week; AM/PM; hour of day; hour of half day; minute; second;
// millisecond), and the pass runs twice so that later fields see the earlier ones settled. A value out
// of its field's range at the moment it is set fails the parse with Joda's IllegalFieldValueException
// message ("Value 13 for monthOfYear must be in the range [1,12]").

import {
  MILLIS_PER_HOUR,
  MILLIS_PER_MINUTE,
  MILLIS_PER_SECOND,
  civilToDays,
  dayOfWeekOfDays,
  dayOfYearOfDays,
  daysInMonth,
  daysToCivil,
  isLeapYear,
  isoWeekOfDays,
} from '../../types/datetime.js';

/** A local date-time: days since 1970-01-01 and the milliseconds of that day. */
export interface LocalDateTime {
  days: number;
  millisOfDay: number;
}

export type JodaField =
  | 'era'
  | 'year'
  | 'weekyear'
  | 'centuryOfEra'
  | 'yearOfEra'
  | 'monthOfYear'
  | 'weekOfWeekyear'
  | 'dayOfYear'
  | 'dayOfMonth'
  | 'dayOfWeek'
  | 'halfdayOfDay'
  | 'hourOfDay'
  | 'clockhourOfDay'
  | 'hourOfHalfday'
  | 'clockhourOfHalfday'
  | 'minuteOfHour'
  | 'secondOfMinute'
  | 'millisOfSecond';

/** Joda's order of setting (a stable sort keeps pattern order among equals). */
const RANK: Record<JodaField, number> = {
  era: 0,
  year: 1,
  weekyear: 1,
  centuryOfEra: 2,
  yearOfEra: 3,
  monthOfYear: 4,
  weekOfWeekyear: 5,
  dayOfYear: 6,
  dayOfMonth: 7,
  dayOfWeek: 8,
  halfdayOfDay: 9,
  hourOfDay: 10,
  clockhourOfDay: 10,
  hourOfHalfday: 11,
  clockhourOfHalfday: 11,
  minuteOfHour: 12,
  secondOfMinute: 13,
  millisOfSecond: 14,
};

export interface SavedField {
  field: JodaField;
  value: number;
}

/** A field value out of its range where it was set. */
export class FieldValueError extends Error {
  constructor(field: JodaField, value: number, min: number, max: number) {
    super(`Value ${value} for ${field} must be in the range [${min},${max}]`);
  }
}

/** Joda's FieldUtils.verifyValueBounds. */
function check(field: JodaField, value: number, min: number, max: number): void {
  if (value < min || value > max) throw new FieldValueError(field, value, min, max);
}

const MIN_YEAR = -292275054;
const MAX_YEAR = 292278993;

function withYear(t: LocalDateTime, year: number): LocalDateTime {
  const { month, day } = daysToCivil(t.days);
  return { ...t, days: civilToDays(year, month, Math.min(day, daysInMonth(year, month))) };
}

function weeksInWeekyear(weekYear: number): number {
  return isoWeekOfDays(civilToDays(weekYear, 12, 28)).week;
}

/** The first day (a Monday) of ISO week 1 of a week-based year. */
function weekOneMonday(weekYear: number): number {
  const jan4 = civilToDays(weekYear, 1, 4);
  return jan4 - dayOfWeekOfDays(jan4) + 1;
}

function withWeek(t: LocalDateTime, weekYear: number, week: number): LocalDateTime {
  return { ...t, days: weekOneMonday(weekYear) + (week - 1) * 7 + dayOfWeekOfDays(t.days) - 1 };
}

/** `t` with `field` set to `value`; a FieldValueError when the value is out of the field's range there. */
function setField(t: LocalDateTime, { field, value }: SavedField): LocalDateTime {
  const year = daysToCivil(t.days).year;
  const hour = Math.floor(t.millisOfDay / MILLIS_PER_HOUR);
  const withHour = (h: number) => ({ ...t, millisOfDay: t.millisOfDay + (h - hour) * MILLIS_PER_HOUR });
  const withUnit = (unit: number, max: number) => {
    const current = Math.floor(t.millisOfDay / unit) % max;
    return { ...t, millisOfDay: t.millisOfDay + (value - current) * unit };
  };
  switch (field) {
    case 'era':
      check(field, value, 0, 1);
      return (year > 0 ? 1 : 0) === value ? t : withYear(t, -year);
    case 'year':
      check(field, value, MIN_YEAR, MAX_YEAR);
      return withYear(t, value);
    case 'weekyear':
      check(field, value, MIN_YEAR, MAX_YEAR);
      return withWeek(t, value, Math.min(isoWeekOfDays(t.days).week, weeksInWeekyear(value)));
    case 'centuryOfEra':
    case 'yearOfEra': {
      const yearOfEra = year > 0 ? year : 1 - year;
      if (field === 'yearOfEra') check(field, value, 1, MAX_YEAR);
      else check(field, value, 0, Math.floor(MAX_YEAR / 100));
      const target = field === 'yearOfEra' ? value : value * 100 + (yearOfEra % 100);
      return withYear(t, year > 0 ? target : 1 - target);
    }
    case 'monthOfYear': {
      check(field, value, 1, 12);
      const { day } = daysToCivil(t.days);
      return { ...t, days: civilToDays(year, value, Math.min(day, daysInMonth(year, value))) };
    }
    case 'weekOfWeekyear': {
      const { weekYear } = isoWeekOfDays(t.days);
      check(field, value, 1, weeksInWeekyear(weekYear));
      return withWeek(t, weekYear, value);
    }
    case 'dayOfYear':
      check(field, value, 1, isLeapYear(year) ? 366 : 365);
      return { ...t, days: t.days + value - dayOfYearOfDays(t.days) };
    case 'dayOfMonth': {
      const { month, day } = daysToCivil(t.days);
      check(field, value, 1, daysInMonth(year, month));
      return { ...t, days: t.days + value - day };
    }
    case 'dayOfWeek':
      check(field, value, 1, 7);
      return { ...t, days: t.days + value - dayOfWeekOfDays(t.days) };
    case 'halfdayOfDay':
      check(field, value, 0, 1);
      return withHour((hour % 12) + value * 12);
    case 'hourOfDay':
      check(field, value, 0, 23);
      return withHour(value);
    case 'clockhourOfDay':
      check(field, value, 1, 24);
      return withHour(value % 24);
    case 'hourOfHalfday':
      check(field, value, 0, 11);
      return withHour(hour - (hour % 12) + value);
    case 'clockhourOfHalfday':
      check(field, value, 1, 12);
      return withHour(hour - (hour % 12) + (value % 12));
    case 'minuteOfHour':
      check(field, value, 0, 59);
      return withUnit(MILLIS_PER_MINUTE, 60);
    case 'secondOfMinute':
      check(field, value, 0, 59);
      return withUnit(MILLIS_PER_SECOND, 60);
    case 'millisOfSecond':
      check(field, value, 0, 999);
      return withUnit(1, 1000);
  }
}

/** The local date-time the saved fields give from 1970-01-01 00:00; a FieldValueError when one is out of range. */
export function computeLocalDateTime(saved: readonly SavedField[]): LocalDateTime {
  const ordered = saved.map((s, index) => ({ s, index })).sort((a, b) => RANK[a.s.field] - RANK[b.s.field] || a.index - b.index);
  let t: LocalDateTime = { days: 0, millisOfDay: 0 };
  for (let pass = 0; pass < 2; pass++) for (const { s } of ordered) t = setField(t, s);
  return t;
}
