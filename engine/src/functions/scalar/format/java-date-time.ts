// The date/time conversions of java.util.Formatter (%tY, %tB, %tH, ..., and the composites %tF,
// %tT, %tD, %tR, %tr) over java.time's local values, in the US English locale. A field the value
// does not have (an hour of a date) fails as Java's UnsupportedTemporalTypeException does.

import { dayOfWeekOfDays, dayOfYearOfDays, daysToCivil } from '../../../types/datetime.js';
import { FormatError } from './format-error.js';
import { type JavaValue, javaClassName } from './java-values.js';
import { zoneAbbreviation } from './java-zone-names.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

interface Fields {
  days?: number;
  nanosOfDay?: number;
  /** A ZonedDateTime's zone and instant. */
  zone?: { offsetSeconds: number; zoneId: string; zoneIsOffset: boolean; epochNanos: bigint };
  className: string;
}

function fieldsOf(value: JavaValue): Fields | undefined {
  switch (value.kind) {
    case 'date':
      return { days: value.days, className: javaClassName(value) };
    case 'time':
      return { nanosOfDay: value.nanosOfDay, className: javaClassName(value) };
    case 'datetime':
      return { days: value.days, nanosOfDay: value.nanosOfDay, className: javaClassName(value) };
    case 'zoned':
      return { days: value.days, nanosOfDay: value.nanosOfDay, zone: value, className: javaClassName(value) };
    default:
      return undefined;
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const floorDivide = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));

function dateField(days: number | undefined, field: string): number {
  if (days === undefined) throw new FormatError('UnsupportedTemporalTypeException', `Unsupported field: ${field}`);
  return days;
}

function timeField(nanos: number | undefined, field: string): number {
  if (nanos === undefined) throw new FormatError('UnsupportedTemporalTypeException', `Unsupported field: ${field}`);
  return nanos;
}

const COMPOSITES: Record<string, string> = { R: 'H:M', T: 'H:M:S', r: 'I:M:S p', D: 'm/d/y', F: 'Y-m-d', c: 'a b d H:M:S Z Y' };

/** `%t<conversion>` of the value; `mismatch` is the error for a value that is no date or time. */
export function formatDateTimeField(conversion: string, value: JavaValue, mismatch: () => Error): string {
  const fields = fieldsOf(value);
  if (fields === undefined) throw mismatch();
  const composite = COMPOSITES[conversion];
  if (composite !== undefined)
    return composite.replace(/[A-Za-z]/g, (c) => (c === 'p' ? field('p', fields).toUpperCase() : field(c, fields)));
  return field(conversion, fields);
}

/** The zone of a ZonedDateTime, or Java's error for a value without one (`field` when it asks for a field). */
function zoneOf(fields: Fields, conversion: string, field?: string): NonNullable<Fields['zone']> {
  if (fields.zone !== undefined) return fields.zone;
  if (field !== undefined) throw new FormatError('UnsupportedTemporalTypeException', `Unsupported field: ${field}`);
  throw new FormatError('IllegalFormatConversionException', `${conversion} != ${fields.className}`);
}

/** Java's %tz: the offset as +HHMM. */
function rfc822Offset(offsetSeconds: number): string {
  const minutes = Math.trunc(Math.abs(offsetSeconds) / 60);
  return `${offsetSeconds < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60), 2)}${pad(minutes % 60, 2)}`;
}

function field(conversion: string, fields: Fields): string {
  const { days, nanosOfDay } = fields;
  const civil = () =>
    daysToCivil(
      dateField(
        days,
        conversion === 'Y' || conversion === 'y' || conversion === 'C'
          ? 'YearOfEra'
          : conversion === 'j'
            ? 'DayOfYear'
            : conversion === 'A' || conversion === 'a'
              ? 'DayOfWeek'
              : conversion === 'd' || conversion === 'e'
                ? 'DayOfMonth'
                : 'MonthOfYear',
      ),
    );
  const hour = () =>
    Math.floor(
      timeField(nanosOfDay, conversion === 'p' ? 'AmPmOfDay' : conversion === 'I' || conversion === 'l' ? 'ClockHourOfAmPm' : 'HourOfDay') /
        3_600_000_000_000,
    );
  switch (conversion) {
    case 'Y':
      return pad(civil().year, 4);
    case 'y':
      return pad(((civil().year % 100) + 100) % 100, 2);
    case 'C':
      return pad(Math.floor(civil().year / 100), 2);
    case 'm':
      return pad(civil().month, 2);
    case 'B':
      return MONTHS[civil().month - 1];
    case 'b':
    case 'h':
      return MONTHS[civil().month - 1].slice(0, 3);
    case 'd':
      return pad(civil().day, 2);
    case 'e':
      return String(civil().day);
    case 'j':
      civil();
      return pad(dayOfYearOfDays(days!), 3);
    case 'A':
      civil();
      return WEEKDAYS[dayOfWeekOfDays(days!) - 1];
    case 'a':
      civil();
      return WEEKDAYS[dayOfWeekOfDays(days!) - 1].slice(0, 3);
    case 'H':
      return pad(hour(), 2);
    case 'k':
      return String(hour());
    case 'I':
      return pad(hour() % 12 === 0 ? 12 : hour() % 12, 2);
    case 'l':
      return String(hour() % 12 === 0 ? 12 : hour() % 12);
    case 'p':
      return hour() < 12 ? 'am' : 'pm';
    case 'M':
      return pad(Math.floor(timeField(nanosOfDay, 'MinuteOfHour') / 60_000_000_000) % 60, 2);
    case 'S':
      return pad(Math.floor(timeField(nanosOfDay, 'SecondOfMinute') / 1_000_000_000) % 60, 2);
    case 'L':
      return pad(Math.floor(timeField(nanosOfDay, 'MilliOfSecond') / 1_000_000) % 1000, 3);
    case 'N':
      return pad(timeField(nanosOfDay, 'NanoOfSecond') % 1_000_000_000, 9);
    case 'z':
      return rfc822Offset(zoneOf(fields, conversion, 'OffsetSeconds').offsetSeconds);
    case 'Z': {
      const zone = zoneOf(fields, conversion);
      return zone.zoneIsOffset ? zone.zoneId : zoneAbbreviation(zone.zoneId, zone.epochNanos);
    }
    case 's':
      return String(floorDivide(zoneOf(fields, conversion, 'InstantSeconds').epochNanos, 1_000_000_000n));
    case 'Q':
      return String(floorDivide(zoneOf(fields, conversion, 'InstantSeconds').epochNanos, 1_000_000n));
    default:
      throw new FormatError('UnknownFormatConversionException', `Conversion = 't${conversion}'`);
  }
}
