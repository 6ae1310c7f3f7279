// timestamp(p) and time(p) for p 7..12: the results of Trino's TestTimestamp, TestTime, TestDateTrunc,
// TestExtract and TestOperators (session zone Pacific/Apia as Trino's testing session), through the
// whole engine; the functions that do not take them yet fail with NOT_SUPPORTED; the short
// (p <= 6) values keep their layout.

import { expect } from 'chai';
import { failureCases, typedCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

function apia(): EngineHarness {
  const engine = new EngineHarness();
  engine.session.timeZone = 'Pacific/Apia';
  return engine;
}

const T12 = "TIMESTAMP '2020-05-10 12:34:56.555555555555'";
const T7 = "TIMESTAMP '2020-05-10 12:34:56.1234567'";

describe('timestamp(p) and time(p) above precision 6 (Trino TestTimestamp, TestTime)', function () {
  this.timeout(60_000);
  const engine = apia();

  describe('literals, text and typeof', () => {
    typedCases(
      [
        ["TIMESTAMP '2020-05-01 12:34:56.1234567'", '2020-05-01 12:34:56.1234567', 'timestamp(7)'],
        ["TIMESTAMP '2020-05-01 12:34:56.123456789012'", '2020-05-01 12:34:56.123456789012', 'timestamp(12)'],
        ["TIMESTAMP '1500-05-01 12:34:56.123456789012'", '1500-05-01 12:34:56.123456789012', 'timestamp(12)'],
        ["TIMESTAMP '-123001-05-01 12:34:56.123456789012'", '-123001-05-01 12:34:56.123456789012', 'timestamp(12)'],
        ["TIMESTAMP '123001-05-01 12:34:56.12345678901'", '+123001-05-01 12:34:56.12345678901', 'timestamp(11)'],
        ["TIME '12:34:56.123456789012'", '12:34:56.123456789012', 'time(12)'],
        ["typeof(TIMESTAMP '2020-05-01 12:34:56.123456789')", 'timestamp(9)', 'varchar(12)'],
        ["CAST(TIMESTAMP '2020-05-01 12:34:56.12345678901' AS VARCHAR)", '2020-05-01 12:34:56.12345678901', 'varchar'],
        ["CAST(TIME '12:34:56.123456789012' AS VARCHAR(21))", '12:34:56.123456789012', 'varchar(21)'],
        ["CAST(TIMESTAMP '-123001-05-01 12:34:56.123456789012' AS JSON)", '"-123001-05-01 12:34:56.123456789012"', 'json'],
        ["to_iso8601(TIMESTAMP '2020-05-01 12:34:56.123456789012')", '2020-05-01T12:34:56.123456789012', 'varchar'],
        ["CAST('2020-05-10 12:34:56.111111111111 +01:23' AS TIMESTAMP(12))", '2020-05-10 12:34:56.111111111111', 'timestamp(12)'],
        ["CAST('2020-05-01 12:34:56.111111111111' AS TIMESTAMP(0))", '2020-05-01 12:34:56', 'timestamp(0)'],
        ["CAST('12:34:56.111111111111' AS TIME(0))", '12:34:56', 'time(0)'],
      ],
      engine,
    );
    failureCases(
      'INVALID_CAST_ARGUMENT',
      [
        [
          "SELECT CAST('2020-05-10 12:34:56.1111111 Foo/Bar' AS TIMESTAMP(7))",
          'Value cannot be cast to timestamp: 2020-05-10 12:34:56.1111111 Foo/Bar',
        ],
      ],
      engine,
    );
    failureCases(
      'NUMERIC_VALUE_OUT_OF_RANGE',
      [
        ["SELECT TIMESTAMP '2020-05-01 12:34:56.1234567890123'", 'TIMESTAMP precision must be in range [0, 12]: 13'],
        ["SELECT TIME '12:34:56.1234567890123'", 'TIME precision must be in range [0, 12]: 13'],
      ],
      engine,
    );
  });

  describe('casts round half up (testRoundUp, testRoundDown, testCastToTime)', () => {
    const up = [
      '57',
      '56.6',
      '56.56',
      '56.556',
      '56.5556',
      '56.55556',
      '56.555556',
      '56.5555556',
      '56.55555556',
      '56.555555556',
      '56.5555555556',
      '56.55555555556',
    ];
    typedCases(
      up.map((seconds, p) => [`CAST(${T12} AS TIMESTAMP(${p}))`, `2020-05-10 12:34:${seconds}`, `timestamp(${p})`] as const),
      engine,
    );
    typedCases(
      [
        ["CAST(TIMESTAMP '2020-05-10 12:34:56.111111111111' AS TIMESTAMP(7))", '2020-05-10 12:34:56.1111111', 'timestamp(7)'],
        ["CAST(TIMESTAMP '2020-05-10 12:34:56.111111111111' AS TIMESTAMP(3))", '2020-05-10 12:34:56.111', 'timestamp(3)'],
        ["CAST(TIMESTAMP '2020-06-10 15:55:23.383345' AS TIMESTAMP(12))", '2020-06-10 15:55:23.383345000000', 'timestamp(12)'],
        [
          "CAST(CAST(TIMESTAMP '2020-05-10 12:34:56.111111111111' AS TIMESTAMP(0)) AS TIMESTAMP(12))",
          '2020-05-10 12:34:56.000000000000',
          'timestamp(12)',
        ],
        ["CAST(TIMESTAMP '2020-05-01 23:59:59.999999999999' AS TIME(9))", '00:00:00.000000000', 'time(9)'],
        ["CAST(TIMESTAMP '2020-05-01 23:59:59.999999999999' AS TIME(6))", '00:00:00.000000', 'time(6)'],
        ["CAST(TIMESTAMP '2020-05-01 12:34:56.1234567' AS TIME(7))", '12:34:56.1234567', 'time(7)'],
        ["CAST(TIMESTAMP '2020-05-01 12:34:56.123456789012' AS DATE)", '2020-05-01', 'date'],
        ["CAST(DATE '2020-05-01' AS TIMESTAMP(9))", '2020-05-01 00:00:00.000000000', 'timestamp(9)'],
        ["CAST(TIME '12:34:56.555555555555' AS TIME(11))", '12:34:56.55555555556', 'time(11)'],
        ["CAST(TIME '23:59:59.9999999' AS TIME(6))", '00:00:00.000000', 'time(6)'],
      ],
      engine,
    );
  });

  describe('zoned casts in the session zone', () => {
    typedCases(
      [
        [
          "CAST(TIMESTAMP '2020-05-01 12:34:56.1234567' AS TIMESTAMP(7) WITH TIME ZONE)",
          '2020-05-01 12:34:56.1234567 Pacific/Apia',
          'timestamp(7) with time zone',
        ],
        [
          "CAST(TIMESTAMP '2020-05-01 12:34:56.123456789012' AS TIMESTAMP(9) WITH TIME ZONE)",
          '2020-05-01 12:34:56.123456789 Pacific/Apia',
          'timestamp(9) with time zone',
        ],
        [
          "CAST(TIMESTAMP '2020-05-01 12:34:56.123456789012 Asia/Tokyo' AS TIMESTAMP(12))",
          '2020-05-01 12:34:56.123456789012',
          'timestamp(12)',
        ],
        [
          "with_timezone(TIMESTAMP '2020-05-01 12:34:56.1234567', 'America/Los_Angeles')",
          '2020-05-01 12:34:56.1234567 America/Los_Angeles',
          'timestamp(7) with time zone',
        ],
      ],
      engine,
    );
  });

  describe('comparison and arithmetic (TestOperators)', () => {
    typedCases(
      [
        [`${T7} = TIMESTAMP '2020-05-10 12:34:56.1234567000'`, 'true', 'boolean'],
        [`${T7} < TIMESTAMP '2020-05-10 12:34:56.1234568'`, 'true', 'boolean'],
        [`${T7} BETWEEN TIMESTAMP '2020-05-10 12:34:56.1234566' AND TIMESTAMP '2020-05-10 12:34:56.1234568'`, 'true', 'boolean'],
        ["TIME '12:34:56.1234567' > TIME '12:34:56.1234566'", 'true', 'boolean'],
        [`${T7} + INTERVAL '1.123' SECOND`, '2020-05-10 12:34:57.2464567', 'timestamp(7)'],
        [`INTERVAL '1' MONTH + ${T7}`, '2020-06-10 12:34:56.1234567', 'timestamp(7)'],
        [`${T7} - INTERVAL '1' DAY`, '2020-05-09 12:34:56.1234567', 'timestamp(7)'],
        [
          "TIMESTAMP '2020-05-01 12:34:56.999999999999' - TIMESTAMP '2020-05-01 12:34:55.111111111111'",
          '0 00:00:01.889',
          'interval day to second',
        ],
        ["TIMESTAMP '2020-05-01 12:34:55.1111111' - TIMESTAMP '2020-05-01 12:34:56.9999999'", '-0 00:00:01.889', 'interval day to second'],
        ["TIME '12:34:56.1234567' + INTERVAL '1.123' SECOND", '12:34:57.2464567', 'time(7)'],
        ["TIME '12:34:56.2222222' - TIME '12:34:55.1111111'", '0 00:00:01.111', 'interval day to second'],
        ["TIME '23:59:59.1234567' + INTERVAL '1' SECOND", '00:00:00.1234567', 'time(7)'],
        // At precision 6 too Trino rounds the difference to millis (the engine truncated it)
        ["TIMESTAMP '2020-05-01 12:34:56.999999' - TIMESTAMP '2020-05-01 12:34:55.111111'", '0 00:00:01.889', 'interval day to second'],
        ["TIME '12:34:55.111111' - TIME '12:34:56.999999'", '-0 00:00:01.889', 'interval day to second'],
      ],
      engine,
    );
  });

  describe('datetime functions (TestDateTrunc, TestExtract, testDateAdd, testDateDiff, testFormatDateTime, testDateFormat)', () => {
    typedCases(
      [
        ["date_trunc('millisecond', TIMESTAMP '2020-05-10 12:34:56.1234567')", '2020-05-10 12:34:56.1230000', 'timestamp(7)'],
        ["date_trunc('week', TIMESTAMP '2020-05-10 12:34:56.1234567')", '2020-05-04 00:00:00.0000000', 'timestamp(7)'],
        ["date_trunc('hour', TIME '12:34:56.1111111')", '12:00:00.0000000', 'time(7)'],
        ["date_add('millisecond', 1, TIMESTAMP '1500-05-10 12:34:56.555555555555')", '1500-05-10 12:34:56.556555555555', 'timestamp(12)'],
        ["date_add('millisecond', 1, TIME '12:34:56.1000000')", '12:34:56.1010000', 'time(7)'],
        ["date_diff('millisecond', TIMESTAMP '2020-05-10 12:34:55.1111111', TIMESTAMP '2020-05-10 12:34:56.2222222')", '1111', 'bigint'],
        ["date_diff('hour', TIME '11:34:55.1111111', TIME '12:34:56.2222222')", '1', 'bigint'],
        ["EXTRACT(DOW FROM TIMESTAMP '2020-05-10 12:34:56.1234567')", '7', 'bigint'],
        ["millisecond(TIMESTAMP '2020-05-10 12:34:56.1234567')", '123', 'bigint'],
        ["year_of_week(TIMESTAMP '2020-05-10 12:34:56.1234567')", '2020', 'bigint'],
        ["second(TIME '12:34:56.1234567')", '56', 'bigint'],
        ["last_day_of_month(TIMESTAMP '2020-05-01 12:34:56.1234567')", '2020-05-31', 'date'],
        [`format_datetime(${T12}, 'yyyy-MM-dd HH:mm:ss.SSS')`, '2020-05-10 12:34:56.556', 'varchar'],
        [`date_format(${T12}, '%Y-%m-%d %H:%i:%s.%f')`, '2020-05-10 12:34:56.556000', 'varchar'],
      ],
      engine,
    );
  });

  describe('format and sequence (testFormat, testSequenceIntervalDayToSecond, testSequenceIntervalYearToMonth)', () => {
    typedCases(
      [
        ["format('%s', TIMESTAMP '2020-05-10 12:34:56.1111111')", '2020-05-10T12:34:56.111111100', 'varchar'],
        ["format('%s', TIMESTAMP '2020-05-10 12:34:56.5555555555')", '2020-05-10T12:34:56.555555556', 'varchar'],
        ["format('%s', TIMESTAMP '-123001-05-10 12:34:56.111111111111')", '-123001-05-10T12:34:56.111111111', 'varchar'],
        ["format('%s', TIME '12:34:56.5555555555')", '12:34:56.555555556', 'varchar'],
        ["format('%s', TIMESTAMP '2020-05-10 12:34:56.123456')", '2020-05-10T12:34:56.123456', 'varchar'],
        [
          "sequence(TIMESTAMP '2020-01-01 12:34:56.123456789012', TIMESTAMP '2020-01-01 12:34:59.123456789012', INTERVAL '1' SECOND)",
          '[2020-01-01 12:34:56.123456789012, 2020-01-01 12:34:57.123456789012, 2020-01-01 12:34:58.123456789012, 2020-01-01 12:34:59.123456789012]',
          'array(timestamp(12))',
        ],
        [
          "sequence(TIMESTAMP '2020-01-01 12:34:56.1234567', TIMESTAMP '2020-04-01 12:34:59.1234567', INTERVAL '1' MONTH)",
          '[2020-01-01 12:34:56.1234567, 2020-02-01 12:34:56.1234567, 2020-03-01 12:34:56.1234567, 2020-04-01 12:34:56.1234567]',
          'array(timestamp(7))',
        ],
      ],
      engine,
    );
    failureCases('INVALID_FUNCTION_ARGUMENT', [[`SELECT sequence(${T7}, ${T7}, INTERVAL '0' SECOND)`, 'step must not be zero']], engine);
  });

  it('groups, joins, sorts and aggregates on the exact value', async () => {
    const values = `VALUES (1, TIMESTAMP '2020-01-01 00:00:00.000000000001'), (2, TIMESTAMP '2020-01-01 00:00:00.000000000002'), (3, TIMESTAMP '2020-01-01 00:00:00.000000000001'), (4, TIMESTAMP '1969-12-31 23:59:59.999999999999')`;
    const grouped = await engine.query(`SELECT CAST(t AS varchar), count(*), min(k) FROM (${values}) v(k, t) GROUP BY t ORDER BY t`);
    expect(grouped.rows).to.deep.equal([
      ['1969-12-31 23:59:59.999999999999', 1n, 4],
      ['2020-01-01 00:00:00.000000000001', 2n, 1],
      ['2020-01-01 00:00:00.000000000002', 1n, 2],
    ]);
    const joined = await engine.query(`SELECT a.k, b.k FROM (${values}) a(k, t) JOIN (${values}) b(k, t) ON a.t = b.t AND a.k < b.k`);
    expect(joined.rows).to.deep.equal([[1, 3]]);
    const aggregates = await engine.query(
      `SELECT CAST(min(t) AS varchar), CAST(max(t) AS varchar), count(DISTINCT t) FROM (${values}) v(k, t)`,
    );
    expect(aggregates.rows).to.deep.equal([['1969-12-31 23:59:59.999999999999', '2020-01-01 00:00:00.000000000002', 3n]]);
  });

  it('keeps a micros number for a timestamp up to precision 3 and a time up to 6, a bigint of picoseconds above', async () => {
    const { rows } = await engine.query(
      "SELECT TIMESTAMP '1970-01-01 00:00:01.001', TIMESTAMP '1970-01-01 00:00:01.000001', TIMESTAMP '1970-01-01 00:00:01.0000010', TIME '00:00:01.000001', TIME '00:00:01.000000001'",
    );
    expect(rows).to.deep.equal([[1_001_000, 1_000_001_000_000n, 1_000_001_000_000n, 1_000_001, 1_000_000_001_000n]]);
  });
});
