// functions/datetime.md: the documented examples that involve no time zone (those with zones are
// the zoned timestamp type's), with their documented results, and the duration functions' edges.
// The page prints date_trunc and date_add of TIMESTAMP '... 05:10:00' with '.000'; Trino types that
// literal timestamp(0) and prints no fraction, and Trino's behaviour is the one followed here.

import { expect } from 'chai';
import { type DocumentedExample, documentedExamples, failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

documentedExamples('functions/datetime.md', [
  ["SELECT from_iso8601_date('2020-05-11')", '2020-05-11'],
  ["SELECT from_iso8601_date('2020-W10')", '2020-03-02'],
  ["SELECT from_iso8601_date('2020-123')", '2020-05-02'],
  ["SELECT date_trunc('day' , TIMESTAMP '2022-10-20 05:10:00')", '2022-10-20 00:00:00'],
  ["SELECT date_trunc('month' , TIMESTAMP '2022-10-20 05:10:00')", '2022-10-01 00:00:00'],
  ["SELECT date_trunc('year', TIMESTAMP '2022-10-20 05:10:00')", '2022-01-01 00:00:00'],
  ["SELECT date_add('second', 86, TIMESTAMP '2020-03-01 00:00:00')", '2020-03-01 00:01:26'],
  ["SELECT date_add('hour', 9, TIMESTAMP '2020-03-01 00:00:00')", '2020-03-01 09:00:00'],
  ["SELECT date_diff('second', TIMESTAMP '2020-03-01 00:00:00', TIMESTAMP '2020-03-02 00:00:00')", '86400'],
  ["SELECT date_diff('day', DATE '2020-03-01', DATE '2020-03-02')", '1'],
  ["SELECT parse_duration('42.8ms')", '0 00:00:00.043'],
  ["SELECT parse_duration('3.81 d')", '3 19:26:24.000'],
  ["SELECT parse_duration('5m')", '0 00:05:00.000'],
  ['SELECT human_readable_seconds(96)', '1 minute, 36 seconds'],
  ['SELECT human_readable_seconds(3762)', '1 hour, 2 minutes, 42 seconds'],
  ['SELECT human_readable_seconds(56363463)', '93 weeks, 1 day, 8 hours, 31 minutes, 3 seconds'],
  ["SELECT date_format(TIMESTAMP '2022-10-20 05:10:00', '%m-%d-%Y %H')", '10-20-2022 05'],
  ["SELECT date_parse('2022/10/20/05', '%Y/%m/%d/%H')", '2022-10-20 05:00:00.000'],
  ["SELECT extract(YEAR FROM TIMESTAMP '2022-10-20 05:10:00')", '2022'],
] satisfies DocumentedExample[]);

describe('date and duration functions: edges and bad input', () => {
  const engine = new EngineHarness();

  it('ISO week dates across year boundaries, ordinal dates in leap years', async () => {
    const { rows } = await engine.query(
      "SELECT CAST(from_iso8601_date('2020-W53-7') AS varchar), CAST(from_iso8601_date('2021-W01-1') AS varchar), CAST(from_iso8601_date('2020-366') AS varchar), CAST(from_iso8601_date('2015-W53-5') AS varchar)",
    );
    expect(rows[0]).to.deep.equal(['2021-01-03', '2021-01-04', '2020-12-31', '2016-01-01']);
  });

  it('to_milliseconds, and human_readable_seconds rounds the absolute value', async () => {
    const { rows } = await engine.query(
      "SELECT to_milliseconds(parse_duration('1.5s')), to_milliseconds(INTERVAL '2' DAY), human_readable_seconds(0.4), human_readable_seconds(-60.6), human_readable_seconds(604800)",
    );
    expect(rows[0]).to.deep.equal([1500n, 172800000n, '0 seconds', '1 minute, 1 second', '1 week']);
  });

  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ["SELECT from_iso8601_date('2021-W53')", 'Invalid format: "2021-W53"'],
      ["SELECT from_iso8601_date('2021-366')", 'Invalid format: "2021-366"'],
      ["SELECT parse_duration('abc')", 'duration is not a valid data duration string: abc'],
      ["SELECT parse_duration('5 weeks')", 'Unknown time unit: weeks'],
      ['SELECT human_readable_seconds(infinity())', 'Invalid argument found: Infinity'],
    ],
    engine,
  );
});
