// from_iso8601_timestamp_nanos, from_unixtime_nanos and parse_datetime: the examples of Trino's
// functions/datetime.md with the session zone each names, parse_datetime as Trino's
// TestDateTimeFunctions.testParseDatetime (session zone Pacific/Apia), and bad input.

import { documentedExamples, failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

function inZone(zone: string): EngineHarness {
  const engine = new EngineHarness();
  engine.session.timeZone = zone;
  return engine;
}

documentedExamples(
  'functions/datetime.md, session zone America/Vancouver',
  [
    ["SELECT from_iso8601_timestamp_nanos('2020-05-11T11:15:05')", '2020-05-11 11:15:05.000000000 America/Vancouver'],
    ["SELECT from_iso8601_timestamp_nanos('2020-05-11T11:15:05.123456789+01:00')", '2020-05-11 11:15:05.123456789 +01:00'],
    ["SELECT typeof(from_iso8601_timestamp_nanos('2020-05-11T11:15:05Z'))", 'timestamp(9) with time zone'],
  ],
  inZone('America/Vancouver'),
);

documentedExamples('functions/datetime.md (from_unixtime_nanos, session zone UTC)', [
  ['SELECT from_unixtime_nanos(100)', '1970-01-01 00:00:00.000000100 UTC'],
  ["SELECT from_unixtime_nanos(DECIMAL '1234')", '1970-01-01 00:00:00.000001234 UTC'],
  ["SELECT from_unixtime_nanos(DECIMAL '1234.499')", '1970-01-01 00:00:00.000001234 UTC'],
  ["SELECT from_unixtime_nanos(DECIMAL '-1234')", '1969-12-31 23:59:59.999998766 UTC'],
  // Whole nanoseconds of the epoch, exact beyond 2^53.
  ['SELECT from_unixtime_nanos(1589195705123456789)', '2020-05-11 11:15:05.123456789 UTC'],
  ['SELECT from_unixtime_nanos(-1)', '1969-12-31 23:59:59.999999999 UTC'],
]);

documentedExamples(
  "parse_datetime (Trino's TestDateTimeFunctions, session zone Pacific/Apia)",
  [
    ["SELECT parse_datetime('2020-08-18 03:04:05.678', 'yyyy-MM-dd HH:mm:ss.SSS')", '2020-08-18 03:04:05.678 Pacific/Apia'],
    ["SELECT parse_datetime('1960/01/22 03:04', 'yyyy/MM/dd HH:mm')", '1960-01-22 03:04:00.000 Pacific/Apia'],
    ["SELECT parse_datetime('1960/01/22 03:04 Asia/Oral', 'yyyy/MM/dd HH:mm ZZZZZ')", '1960-01-22 03:04:00.000 Asia/Oral'],
    ["SELECT parse_datetime('1960/01/22 03:04 +0500', 'yyyy/MM/dd HH:mm Z')", '1960-01-22 03:04:00.000 +05:00'],
    ["SELECT parse_datetime('11-May-2020 03:15 PM', 'dd-MMM-yyyy hh:mm a')", '2020-05-11 15:15:00.000 Pacific/Apia'],
  ],
  inZone('Pacific/Apia'),
);

describe('nanosecond constructors and parse_datetime: bad input', () => {
  const engine = new EngineHarness();
  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ["SELECT from_iso8601_timestamp_nanos('2020-13-11')", 'Invalid format: "2020-13-11"'],
      [
        "SELECT parse_datetime('2020-13-11', 'yyyy-MM-dd')",
        'Cannot parse "2020-13-11": Value 13 for monthOfYear must be in the range [1,12]',
      ],
      ["SELECT parse_datetime('2020-01-11 Mars/Phobos', 'yyyy-MM-dd ZZZ')", "The datetime zone id 'Mars/Phobos' is not recognised"],
      ["SELECT parse_datetime('AD 2020', 'q yyyy')", 'Illegal pattern component: q'],
    ],
    engine,
  );
});
