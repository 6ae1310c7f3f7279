// parse_datetime reads every pattern letter of Joda-Time's DateTimeFormat, as Trino (which hands the
// pattern to Joda) does. Expectations: Trino's TestDateTimeFunctions.testParseDatetime; DuckDB's
// strptime on the same text for day of year and ISO week dates (%j, %G-W%V-%u) and 12-hour clocks;
// Joda's documented field semantics for the rest (a parsed day-of-week name moves the date within
// its ISO week, as Joda sets day of week after day of month; G with Y gives years before year 1; C
// replaces the century of the year; K is 0-11 and h 1-12 within the AM/PM half; z reads Joda's
// default zone names), and Joda's errors: IllegalFieldValueException's "Cannot parse ...: Value v for
// field must be in the range [min,max]" and "Illegal pattern component" for a letter it does not define.

import { DuckDBInstance } from '@duckdb/node-api';
import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';

describe('parse_datetime pattern letters', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const parsed = async (text: string, pattern: string) =>
    (await engine.rows(`SELECT CAST(parse_datetime('${text}', '${pattern.replace(/'/g, "''")}') AS varchar)`))[0][0];

  it("gives Trino's results for its own test cases", async () => {
    expect(await parsed('2020-08-18 03:04:05.678', 'yyyy-MM-dd HH:mm:ss.SSS')).to.equal('2020-08-18 03:04:05.678 UTC');
    expect(await parsed('1960/01/22 03:04', 'yyyy/MM/dd HH:mm')).to.equal('1960-01-22 03:04:00.000 UTC');
    expect(await parsed('1960/01/22 03:04 Asia/Oral', 'yyyy/MM/dd HH:mm ZZZZZ')).to.equal('1960-01-22 03:04:00.000 Asia/Oral');
    expect(await parsed('1960/01/22 03:04 +0500', 'yyyy/MM/dd HH:mm Z')).to.equal('1960-01-22 03:04:00.000 +05:00');
  });

  it("reads day of year, ISO week dates and 12-hour clocks as DuckDB's strptime does", async () => {
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const cases: [string, string, string, string][] = [
      ['2020-231', 'yyyy-DDD', '2020-231', '%Y-%j'],
      ['2024-366', 'yyyy-DDD', '2024-366', '%Y-%j'],
      ['2020-W34-1', "xxxx-'W'ww-e", '2020-W34-1', '%G-W%V-%u'],
      ['2021-W01-7', "xxxx-'W'ww-e", '2021-W01-7', '%G-W%V-%u'],
      ['2020-W53-5', "xxxx-'W'ww-e", '2020-W53-5', '%G-W%V-%u'],
      ['2020-01-01 12:30 AM', 'yyyy-MM-dd hh:mm a', '2020-01-01 12:30 AM', '%Y-%m-%d %I:%M %p'],
      ['2020-01-01 12:30 PM', 'yyyy-MM-dd hh:mm a', '2020-01-01 12:30 PM', '%Y-%m-%d %I:%M %p'],
    ];
    for (const [text, pattern, duckText, duckFormat] of cases) {
      const rows = (await duck.runAndReadAll(`SELECT CAST(strptime('${duckText}', '${duckFormat}') AS varchar)`)).getRows();
      expect(await parsed(text, pattern), `${text} ${pattern}`).to.equal(`${rows[0][0]}.000 UTC`);
    }
    duck.closeSync();
  });

  it("sets the other letters' fields as Joda does", async () => {
    expect(await parsed('2020-08-18 Mon', 'yyyy-MM-dd E')).to.equal('2020-08-17 00:00:00.000 UTC');
    expect(await parsed('2020-08-18 Sunday', 'yyyy-MM-dd EEEE')).to.equal('2020-08-23 00:00:00.000 UTC');
    expect(await parsed('12 BC', 'YYYY G')).to.equal('-0011-01-01 00:00:00.000 UTC');
    expect(await parsed('2020 AD', 'YYYY G')).to.equal('2020-01-01 00:00:00.000 UTC');
    expect(await parsed('19', 'CC')).to.equal('1970-01-01 00:00:00.000 UTC');
    expect(await parsed('20 1999', 'CC yyyy')).to.equal('2099-01-01 00:00:00.000 UTC');
    expect(await parsed('0:30 PM', 'K:mm a')).to.equal('1970-01-01 12:30:00.000 UTC');
    expect(await parsed('11:30', 'K:mm')).to.equal('1970-01-01 11:30:00.000 UTC');
    expect(await parsed('12:30', 'hh:mm')).to.equal('1970-01-01 00:30:00.000 UTC');
    expect(await parsed('24:00', 'kk:mm')).to.equal('1970-01-01 00:00:00.000 UTC');
    expect(await parsed('2020-07-05 10:00 EST', 'yyyy-MM-dd HH:mm z')).to.equal('2020-07-05 10:00:00.000 America/New_York');
    expect(await parsed('2020-07-05 10:00 GMT', 'yyyy-MM-dd HH:mm zzzz')).to.equal('2020-07-05 10:00:00.000 UTC');
    expect(await parsed('20200818', 'yyyyMMdd')).to.equal('2020-08-18 00:00:00.000 UTC');
  });

  it("reads two-digit years within 50 years of Joda's pivot, this year minus 30, and other digit counts as they are", async () => {
    const low = new Date().getUTCFullYear() - 30 - 50;
    const expectedYear = (twoDigits: number) => low + ((twoDigits - (low % 100) + 100) % 100);
    for (const twoDigits of [0, 45, 50, 69, 70, 99]) {
      const text = String(twoDigits).padStart(2, '0');
      expect(await parsed(`${text}-01-02`, 'yy-MM-dd'), text).to.equal(`${expectedYear(twoDigits)}-01-02 00:00:00.000 UTC`);
    }
    expect(await parsed('2020-01-02', 'yy-MM-dd')).to.equal('2020-01-02 00:00:00.000 UTC');
    expect(await parsed('7-01-02', 'yy-MM-dd')).to.equal('0007-01-02 00:00:00.000 UTC');
  });

  it("fails as Joda does: a value out of its field's range where it is set, a name it does not know, a letter it does not define", async () => {
    const cases: [string, string, string][] = [
      ['2023-366', 'yyyy-DDD', 'Cannot parse "2023-366": Value 366 for dayOfYear must be in the range [1,365]'],
      ['2020-W54-1', "xxxx-'W'ww-e", 'Cannot parse "2020-W54-1": Value 54 for weekOfWeekyear must be in the range [1,53]'],
      ['2021-W53-1', "xxxx-'W'ww-e", 'Cannot parse "2021-W53-1": Value 53 for weekOfWeekyear must be in the range [1,52]'],
      ['2020-02-30', 'yyyy-MM-dd', 'Cannot parse "2020-02-30": Value 30 for dayOfMonth must be in the range [1,29]'],
      ['13:00 AM', 'hh:mm a', 'Cannot parse "13:00 AM": Value 13 for clockhourOfHalfday must be in the range [1,12]'],
      ['2020-08-18 Xyz', 'yyyy-MM-dd E', 'Invalid format: "2020-08-18 Xyz"'],
      ['2020 XY', 'yyyy G', 'Invalid format: "2020 XY"'],
    ];
    for (const [text, pattern, message] of cases) {
      const e = await engine.failure(`SELECT parse_datetime('${text}', '${pattern.replace(/'/g, "''")}')`);
      expect([e.errorName, e.rawMessage], `${text} ${pattern}`).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', message]);
    }
    const e = await engine.failure("SELECT parse_datetime('2020', 'qqqq')");
    expect([e.errorName, e.rawMessage]).to.deep.equal(['INVALID_FUNCTION_ARGUMENT', 'Illegal pattern component: qqqq']);
  });
});
