// The fields a Joda-Time pattern reads (parse_datetime), set on a local date-time the way Joda's
// DateTimeParserBucket does: starting from 1970-01-01 00:00, each parsed field is set in the order of
// its range then its unit, largest first (era; year and weekyear; century and year of era; month,
// week, day of year; day of month; day of week; AM/PM; hour of day; hour of half day; minute; second;
// millisecond), and the pass runs twice so that later fields see the earlier ones settled. A value out
// of its field's range at the moment it is set fails the parse, as Joda's IllegalFieldValueException.

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

const inRange = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;

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

/** `t` with `field` set to `value`, or undefined when the value is out of the field's range there. */
function setField(t: LocalDateTime, { field, value }: SavedField): LocalDateTime | undefined {
  const year = daysToCivil(t.days).year;
  const hour = Math.floor(t.millisOfDay / MILLIS_PER_HOUR);
  const withHour = (h: number) => ({ ...t, millisOfDay: t.millisOfDay + (h - hour) * MILLIS_PER_HOUR });
  const withUnit = (unit: number, max: number) => {
    const current = Math.floor(t.millisOfDay / unit) % max;
    return { ...t, millisOfDay: t.millisOfDay + (value - current) * unit };
  };
  switch (field) {
    case 'era':
      if (!inRange(value, 0, 1)) return undefined;
      return (year > 0 ? 1 : 0) === value ? t : withYear(t, -year);
    case 'year':
      return inRange(value, -292275054, 292278993) ? withYear(t, value) : undefined;
    case 'weekyear': {
      if (!inRange(value, -292275054, 292278993)) return undefined;
      return withWeek(t, value, Math.min(isoWeekOfDays(t.days).week, weeksInWeekyear(value)));
    }
    case 'centuryOfEra':
    case 'yearOfEra': {
      const yearOfEra = year > 0 ? year : 1 - year;
      const target = field === 'yearOfEra' ? value : value * 100 + (yearOfEra % 100);
      if (field === 'yearOfEra' ? !inRange(value, 1, 292278993) : !inRange(value, 0, 2922789) || target < 1) return undefined;
      return withYear(t, year > 0 ? target : 1 - target);
    }
    case 'monthOfYear': {
      if (!inRange(value, 1, 12)) return undefined;
      const { day } = daysToCivil(t.days);
      return { ...t, days: civilToDays(year, value, Math.min(day, daysInMonth(year, value))) };
    }
    case 'weekOfWeekyear': {
      const { weekYear } = isoWeekOfDays(t.days);
      return inRange(value, 1, weeksInWeekyear(weekYear)) ? withWeek(t, weekYear, value) : undefined;
    }
    case 'dayOfYear':
      return inRange(value, 1, isLeapYear(year) ? 366 : 365) ? { ...t, days: t.days + value - dayOfYearOfDays(t.days) } : undefined;
    case 'dayOfMonth': {
      const { month, day } = daysToCivil(t.days);
      return inRange(value, 1, daysInMonth(year, month)) ? { ...t, days: t.days + value - day } : undefined;
    }
    case 'dayOfWeek':
      return inRange(value, 1, 7) ? { ...t, days: t.days + value - dayOfWeekOfDays(t.days) } : undefined;
    case 'halfdayOfDay':
      return inRange(value, 0, 1) ? withHour((hour % 12) + value * 12) : undefined;
    case 'hourOfDay':
      return inRange(value, 0, 23) ? withHour(value) : undefined;
    case 'clockhourOfDay':
      return inRange(value, 1, 24) ? withHour(value % 24) : undefined;
    case 'hourOfHalfday':
      return inRange(value, 0, 11) ? withHour(hour - (hour % 12) + value) : undefined;
    case 'clockhourOfHalfday':
      return inRange(value, 1, 12) ? withHour(hour - (hour % 12) + (value % 12)) : undefined;
    case 'minuteOfHour':
      return inRange(value, 0, 59) ? withUnit(MILLIS_PER_MINUTE, 60) : undefined;
    case 'secondOfMinute':
      return inRange(value, 0, 59) ? withUnit(MILLIS_PER_SECOND, 60) : undefined;
    case 'millisOfSecond':
      return inRange(value, 0, 999) ? withUnit(1, 1000) : undefined;
  }
}

/** The local date-time the saved fields give from 1970-01-01 00:00, or undefined when one is out of range. */
export function computeLocalDateTime(saved: readonly SavedField[]): LocalDateTime | undefined {
  const ordered = saved.map((s, index) => ({ s, index })).sort((a, b) => RANK[a.s.field] - RANK[b.s.field] || a.index - b.index);
  let t: LocalDateTime | undefined = { days: 0, millisOfDay: 0 };
  for (let pass = 0; pass < 2; pass++) {
    for (const { s } of ordered) {
      t = setField(t, s);
      if (t === undefined) return undefined;
    }
  }
  return t;
}
