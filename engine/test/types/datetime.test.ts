import { expect } from 'chai';
import {
  addMonthsToDays,
  civilToDays,
  dayOfWeekOfDays,
  daysToCivil,
  formatDate,
  formatIntervalDaySecond,
  formatIntervalYearMonth,
  formatTimestamp,
  isoWeekOfDays,
  parseDate,
  parseTimestamp,
} from '../../src/types/datetime.js';

function jsDays(y: number, m: number, d: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d); // not Date.UTC, which reads years 0..99 as 1900..1999
  return date.getTime() / 86_400_000;
}

describe('date and time values', () => {
  it('converts civil dates to days and back, agreeing with Date.UTC', () => {
    for (const [y, m, d] of [
      [1970, 1, 1],
      [2000, 2, 29],
      [1900, 3, 1],
      [1969, 12, 31],
      [1582, 10, 15],
      [2024, 12, 31],
      [9999, 12, 31],
      [1, 1, 1],
    ]) {
      const days = civilToDays(y, m, d);
      expect(days).to.equal(jsDays(y, m, d));
      expect(daysToCivil(days)).to.deep.equal({ year: y, month: m, day: d });
    }
    for (let days = -800_000; days < 800_000; days += 997) {
      const date = new Date(days * 86_400_000);
      expect(daysToCivil(days)).to.deep.equal({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
    }
  });

  it('computes ISO days of week and weeks', () => {
    expect(dayOfWeekOfDays(civilToDays(1970, 1, 1))).to.equal(4);
    expect(dayOfWeekOfDays(civilToDays(2024, 6, 9))).to.equal(7);
    expect(isoWeekOfDays(civilToDays(2021, 1, 3))).to.deep.equal({ weekYear: 2020, week: 53 });
    expect(isoWeekOfDays(civilToDays(2024, 12, 30))).to.deep.equal({ weekYear: 2025, week: 1 });
    expect(isoWeekOfDays(civilToDays(2024, 6, 12))).to.deep.equal({ weekYear: 2024, week: 24 });
  });

  it('adds months clamping to the end of the month', () => {
    expect(formatDate(addMonthsToDays(civilToDays(2020, 1, 31), 1))).to.equal('2020-02-29');
    expect(formatDate(addMonthsToDays(civilToDays(2021, 1, 31), 1))).to.equal('2021-02-28');
    expect(formatDate(addMonthsToDays(civilToDays(2021, 3, 15), -14))).to.equal('2020-01-15');
  });

  it('parses and formats dates and timestamps', () => {
    expect(parseDate('2024-02-29')).to.equal(civilToDays(2024, 2, 29));
    expect(parseDate('2023-02-29')).to.equal(undefined);
    expect(parseDate('2023-13-01')).to.equal(undefined);
    expect(parseDate('abc')).to.equal(undefined);
    expect(formatDate(-1)).to.equal('1969-12-31');
    const ts = parseTimestamp('2001-08-22 03:04:05.321');
    expect(ts).to.deep.equal({ micros: Date.UTC(2001, 7, 22, 3, 4, 5, 321) * 1000, precision: 3 });
    expect(formatTimestamp(ts!.micros, 3)).to.equal('2001-08-22 03:04:05.321');
    expect(formatTimestamp(ts!.micros, 0)).to.equal('2001-08-22 03:04:05');
    expect(formatTimestamp(ts!.micros + 654, 6)).to.equal('2001-08-22 03:04:05.321654');
    expect(formatTimestamp(-1000, 3)).to.equal('1969-12-31 23:59:59.999');
    expect(parseTimestamp('2001-08-22')).to.deep.equal({ micros: Date.UTC(2001, 7, 22) * 1000, precision: 0 });
    expect(parseTimestamp('2001-08-22 25:00:00')).to.equal(undefined);
  });

  it('formats intervals as Trino prints them', () => {
    expect(formatIntervalYearMonth(14)).to.equal('1-2');
    expect(formatIntervalYearMonth(-14)).to.equal('-1-2');
    expect(formatIntervalYearMonth(0)).to.equal('0-0');
    expect(formatIntervalDaySecond(((1 * 24 + 2) * 3600 + 3 * 60 + 4) * 1000)).to.equal('1 02:03:04.000');
    expect(formatIntervalDaySecond(-1500)).to.equal('-0 00:00:01.500');
  });
});
