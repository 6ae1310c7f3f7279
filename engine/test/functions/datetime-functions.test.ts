import { expect } from 'chai';
import { evaluateConstant } from '../../src/exec/expression/compiler.js';
import { civilToDays, formatDate, formatTimestamp } from '../../src/types/datetime.js';
import { timestampWithTimeZone } from '../../src/types/types.js';
import { formatZoned } from '../../src/types/zoned-timestamp.js';
import { BIG, DATE_T, DBL, TS3, VC, errorOf, evalFn, lit, op } from '../expression/eval-helpers.js';

const d = (y: number, m: number, day: number) => [civilToDays(y, m, day), DATE_T] as [number, typeof DATE_T];
const ts = (y: number, m: number, day: number, h = 0, mi = 0, s = 0, ms = 0) =>
  [Date.UTC(y, m - 1, day, h, mi, s, ms) * 1000, TS3] as [number, typeof TS3];
const TIME3 = { kind: 'time', precision: 3 } as const;
const YM = { kind: 'interval year to month' } as const;
const DS = { kind: 'interval day to second' } as const;
const s = (text: string) => [text, VC] as [string, typeof VC];
const n = (value: number) => [BigInt(value), BIG] as [bigint, typeof BIG];
const asDate = (v: unknown) => formatDate(v as number);
const asTs = (v: unknown) => formatTimestamp(v as number, 3);

describe('date and time functions', () => {
  it('extracts fields of dates and timestamps', () => {
    const date = d(2024, 2, 29);
    expect(evalFn('year', date)).to.equal(2024n);
    expect(evalFn('quarter', date)).to.equal(1n);
    expect(evalFn('month', date)).to.equal(2n);
    expect(evalFn('day', date)).to.equal(29n);
    expect(evalFn('day_of_month', date)).to.equal(29n);
    expect(evalFn('day_of_week', date)).to.equal(4n);
    expect(evalFn('dow', d(2024, 3, 3))).to.equal(7n);
    expect(evalFn('day_of_year', date)).to.equal(60n);
    expect(evalFn('doy', d(2023, 12, 31))).to.equal(365n);
    expect(evalFn('week', d(2021, 1, 3))).to.equal(53n);
    expect(evalFn('year_of_week', d(2021, 1, 3))).to.equal(2020n);
    const t = ts(2001, 8, 22, 3, 4, 5, 321);
    expect(evalFn('year', t)).to.equal(2001n);
    expect(evalFn('hour', t)).to.equal(3n);
    expect(evalFn('minute', t)).to.equal(4n);
    expect(evalFn('second', t)).to.equal(5n);
    expect(evalFn('millisecond', t)).to.equal(321n);
    expect(evalFn('hour', ts(1969, 12, 31, 23, 59))).to.equal(23n);
    expect(evalFn('hour', [(13 * 3600 + 7) * 1e6, TIME3])).to.equal(13n);
  });

  it('extracts fields of intervals', () => {
    expect(evalFn('year', [26, YM])).to.equal(2n);
    expect(evalFn('month', [26, YM])).to.equal(2n);
    const ms = ((3 * 24 + 4) * 3600 + 5 * 60 + 6) * 1000 + 7;
    expect(evalFn('day', [ms, DS])).to.equal(3n);
    expect(evalFn('hour', [ms, DS])).to.equal(4n);
    expect(evalFn('minute', [ms, DS])).to.equal(5n);
    expect(evalFn('second', [ms, DS])).to.equal(6n);
    expect(evalFn('millisecond', [ms, DS])).to.equal(7n);
  });

  it('date_add adds units, clamping month ends', () => {
    expect(asDate(evalFn('date_add', s('day'), n(1), d(2020, 2, 28)))).to.equal('2020-02-29');
    expect(asDate(evalFn('date_add', s('month'), n(1), d(2020, 1, 31)))).to.equal('2020-02-29');
    expect(asDate(evalFn('date_add', s('YEAR'), n(-1), d(2020, 2, 29)))).to.equal('2019-02-28');
    expect(asDate(evalFn('date_add', s('quarter'), n(1), d(2020, 11, 30)))).to.equal('2021-02-28');
    expect(asDate(evalFn('date_add', s('week'), n(2), d(2020, 12, 25)))).to.equal('2021-01-08');
    expect(asTs(evalFn('date_add', s('hour'), n(25), ts(2020, 1, 1, 1)))).to.equal('2020-01-02 02:00:00.000');
    expect(asTs(evalFn('date_add', s('millisecond'), n(-1), ts(2020, 1, 1)))).to.equal('2019-12-31 23:59:59.999');
    expect(evalFn('date_add', s('hour'), n(25), [3600e6, TIME3])).to.equal(2 * 3600e6);
    expect(errorOf(() => evalFn('date_add', s('hour'), n(1), d(2020, 1, 1)))).to.equal(
      "INVALID_FUNCTION_ARGUMENT: 'hour' is not a valid DATE field",
    );
  });

  it('date_diff counts whole units', () => {
    expect(evalFn('date_diff', s('day'), d(2020, 1, 1), d(2020, 3, 1))).to.equal(60n);
    expect(evalFn('date_diff', s('day'), d(2020, 3, 1), d(2020, 1, 1))).to.equal(-60n);
    expect(evalFn('date_diff', s('month'), d(2020, 1, 31), d(2020, 2, 29))).to.equal(1n);
    expect(evalFn('date_diff', s('month'), d(2020, 1, 15), d(2020, 2, 14))).to.equal(0n);
    expect(evalFn('date_diff', s('year'), d(2000, 2, 29), d(2001, 2, 28))).to.equal(1n);
    expect(evalFn('date_diff', s('quarter'), d(2020, 1, 1), d(2020, 12, 31))).to.equal(3n);
    expect(evalFn('date_diff', s('week'), d(2020, 1, 1), d(2020, 1, 14))).to.equal(1n);
    expect(evalFn('date_diff', s('hour'), ts(2020, 1, 1, 0, 30), ts(2020, 1, 1, 2, 29))).to.equal(1n);
    expect(evalFn('date_diff', s('second'), ts(2020, 1, 1, 0, 0, 2), ts(2020, 1, 1))).to.equal(-2n);
  });

  it('date_trunc truncates to the unit', () => {
    expect(asDate(evalFn('date_trunc', s('month'), d(2020, 5, 17)))).to.equal('2020-05-01');
    expect(asDate(evalFn('date_trunc', s('quarter'), d(2020, 5, 17)))).to.equal('2020-04-01');
    expect(asDate(evalFn('date_trunc', s('year'), d(2020, 5, 17)))).to.equal('2020-01-01');
    expect(asDate(evalFn('date_trunc', s('week'), d(2020, 5, 17)))).to.equal('2020-05-11');
    expect(asTs(evalFn('date_trunc', s('hour'), ts(2020, 5, 17, 13, 45, 12, 345)))).to.equal('2020-05-17 13:00:00.000');
    expect(asTs(evalFn('date_trunc', s('second'), ts(1969, 12, 31, 23, 59, 59, 500)))).to.equal('1969-12-31 23:59:59.000');
    expect(asTs(evalFn('date_trunc', s('month'), ts(2020, 5, 17, 13)))).to.equal('2020-05-01 00:00:00.000');
  });

  it('last_day_of_month', () => {
    expect(asDate(evalFn('last_day_of_month', d(2020, 2, 10)))).to.equal('2020-02-29');
    expect(asDate(evalFn('last_day_of_month', ts(2021, 12, 31, 23)))).to.equal('2021-12-31');
  });

  it('format_datetime with Joda patterns', () => {
    const t = ts(2001, 8, 2, 15, 4, 5, 67);
    expect(evalFn('format_datetime', t, s('yyyy-MM-dd HH:mm:ss.SSS'))).to.equal('2001-08-02 15:04:05.067');
    expect(evalFn('format_datetime', t, s("EEE, d MMM yy h:mm a 'at' EEEE MMMM"))).to.equal('Thu, 2 Aug 01 3:04 PM at Thursday August');
    expect(evalFn('format_datetime', t, s('D w e Z'))).to.equal('214 31 4 +0000');
    expect(errorOf(() => evalFn('format_datetime', t, s('q')))).to.equal('INVALID_FUNCTION_ARGUMENT: Illegal pattern component: q');
  });

  it('date_format and date_parse with MySQL specifiers', () => {
    const t = ts(2001, 8, 2, 15, 4, 5, 67);
    expect(evalFn('date_format', t, s('%Y-%m-%d %H:%i:%s.%f'))).to.equal('2001-08-02 15:04:05.067000');
    expect(evalFn('date_format', t, s('%a %b %e %c %j %l%p %r %T %W %M %y %%'))).to.equal(
      'Thu Aug 2 8 214 3PM 03:04:05 PM 15:04:05 Thursday August 01 %',
    );
    expect(errorOf(() => evalFn('date_format', t, s('%D')))).to.equal('INVALID_FUNCTION_ARGUMENT: %D not supported in date format string');
    expect(asTs(evalFn('date_parse', s('2001-08-02 15:04:05'), s('%Y-%m-%d %H:%i:%s')))).to.equal('2001-08-02 15:04:05.000');
    expect(asTs(evalFn('date_parse', s('02/08/2001 3:04 PM'), s('%d/%m/%Y %h:%i %p')))).to.equal('2001-08-02 15:04:00.000');
    expect(asTs(evalFn('date_parse', s('2001.123456'), s('%Y.%f')))).to.equal('2001-01-01 00:00:00.123');
    expect(errorOf(() => evalFn('date_parse', s('2001-13-01'), s('%Y-%m-%d')))).to.equal(
      'INVALID_FUNCTION_ARGUMENT: Invalid format: "2001-13-01"',
    );
  });

  it('unix time and ISO 8601 conversions', () => {
    // from_unixtime(x) and to_unixtime(timestamp) read the session zone: zoned-timestamp.test.ts.
    const zoned = evalFn('from_unixtime', [1e9 + 0.5, DBL], s('UTC'));
    expect(formatZoned(zoned as bigint, 3)).to.equal('2001-09-09 01:46:40.500 UTC');
    expect(evalFn('to_unixtime', [zoned, timestampWithTimeZone(3)])).to.equal(1e9 + 0.5);
    expect(asDate(evalFn('from_iso8601_date', s('2020-05-17')))).to.equal('2020-05-17');
    expect(asDate(evalFn('from_iso8601_date', s('2020-05')))).to.equal('2020-05-01');
    expect(errorOf(() => evalFn('from_iso8601_date', s('2020-02-30')))).to.equal('INVALID_FUNCTION_ARGUMENT: Invalid format: "2020-02-30"');
    expect(evalFn('to_iso8601', d(2020, 5, 17))).to.equal('2020-05-17');
    expect(evalFn('to_iso8601', ts(2020, 5, 17, 1, 2, 3, 4))).to.equal('2020-05-17T01:02:03.004');
  });
});

describe('date and interval arithmetic', () => {
  const date = (y: number, m: number, day: number) => lit(civilToDays(y, m, day), DATE_T);
  it('adds intervals to dates and timestamps', () => {
    expect(asDate(evaluateConstant(op('add', date(2020, 1, 31), lit(1, YM))))).to.equal('2020-02-29');
    expect(asDate(evaluateConstant(op('add', lit(2 * 86_400_000, DS), date(2020, 12, 31))))).to.equal('2021-01-02');
    expect(asDate(evaluateConstant(op('subtract', date(2020, 3, 1), lit(86_400_000, DS))))).to.equal('2020-02-29');
    expect(errorOf(() => evaluateConstant(op('add', date(2020, 1, 1), lit(3_600_000, DS))))).to.equal(
      'INVALID_FUNCTION_ARGUMENT: Cannot add hour, minutes or seconds to a date',
    );
    const t = lit(Date.UTC(2020, 0, 31, 12) * 1000, TS3);
    expect(asTs(evaluateConstant(op('add', t, lit(1, YM))))).to.equal('2020-02-29 12:00:00.000');
    expect(asTs(evaluateConstant(op('subtract', t, lit(90 * 60_000, DS))))).to.equal('2020-01-31 10:30:00.000');
    const other = lit(Date.UTC(2020, 0, 30) * 1000, TS3);
    expect(evaluateConstant(op('subtract', t, other))).to.equal(36 * 3_600_000);
  });

  it('does interval arithmetic', () => {
    expect(evaluateConstant(op('add', lit(14, YM), lit(10, YM)))).to.equal(24);
    expect(evaluateConstant(op('multiply', lit(1000, DS), lit(3, { kind: 'integer' })))).to.equal(3000);
    expect(evaluateConstant(op('multiply', lit(2.5, DBL), lit(1000, DS)))).to.equal(2500);
    expect(evaluateConstant(op('divide', lit(1000, DS), lit(3, DBL)))).to.equal(333);
    expect(evaluateConstant(op('negate', lit(5, YM)))).to.equal(-5);
    expect(errorOf(() => evaluateConstant(op('divide', lit(1000, DS), lit(0, DBL))))).to.equal('DIVISION_BY_ZERO: Division by zero');
  });
});
