// time(p) with time zone: Trino's results (TestTimeWithTimeZone: literals, casts with rounding half
// up that wraps at midnight, lower digits zeroed, date_add/date_diff/date_trunc, interval
// arithmetic typed time(max(3, p))), comparison by the time normalized to +00:00 modulo a day
// (=, GROUP BY, DISTINCT, joins, ORDER BY), the offset functions, AT TIME ZONE with the zone's
// offset at the query's start, casts to timestamps on the query's start date, and bad input.

import { expect } from 'chai';
import { cliRows, cliText, failureCases, typedCases, type TypedCase } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

/** [expression, Trino's result as its CLI prints it, Trino's type] */
const TZ = (p: number) => `time(${p}) with time zone`;

const TRINO_CASES: readonly TypedCase[] = [
  ["TIME '12:34:56+08:35'", '12:34:56+08:35', TZ(0)],
  ["TIME '12:34:56.123456789012-14:00'", '12:34:56.123456789012-14:00', TZ(12)],
  ["CAST(TIME '12:34:56.555555+08:35' AS TIME(0))", '12:34:57', 'time(0)'],
  ["CAST(TIME '12:34:56.55555555+08:35' AS TIME(3))", '12:34:56.556', 'time(3)'],
  ["CAST(TIME '12:34:56.123 +08:35' AS TIME(9) WITH TIME ZONE)", '12:34:56.123000000+08:35', TZ(9)],
  ["CAST(TIME '12:34:56.555555 +08:35' AS TIME(3) WITH TIME ZONE)", '12:34:56.556+08:35', TZ(3)],
  ["CAST(TIME '23:59:59.999999999999+08:35' AS TIME(0) WITH TIME ZONE)", '00:00:00+08:35', TZ(0)],
  ["CAST(TIME '12:34:56.55555555555+08:35' AS TIME(5) WITH TIME ZONE)", '12:34:56.55556+08:35', TZ(5)],
  ["CAST(CAST(TIME '12:34:56.555555+08:35' AS TIME(0) WITH TIME ZONE) AS TIME(6) WITH TIME ZONE)", '12:34:57.000000+08:35', TZ(6)],
  ["CAST('12:34:56.555555555555+08:35' AS TIME(8) WITH TIME ZONE)", '12:34:56.55555556+08:35', TZ(8)],
  ["CAST('23:59:59.999999999999+08:35' AS TIME(2) WITH TIME ZONE)", '00:00:00.00+08:35', TZ(2)],
  ["CAST(TIMESTAMP '2020-03-08 03:23:45.123 America/Los_Angeles' AS TIME(3) WITH TIME ZONE)", '03:23:45.123-08:00', TZ(3)],
  ["date_add('second', 1, TIME '12:34:56.12345678+08:35')", '12:34:57.12345678+08:35', TZ(8)],
  ["date_add('minute', 365 * 24 * 60 + 1, TIME '12:34:56+08:35')", '12:35:56+08:35', TZ(0)],
  ["date_diff('millisecond', TIME '13:35:56.123+09:36', TIME '12:34:56.123+08:35')", '0', 'bigint'],
  ["date_diff('second', TIME '00:00:00.12345678+14:00', TIME '00:00:00.12345678-14:00')", '14400', 'bigint'],
  ["date_trunc('minute', TIME '12:34:56.1111111111+08:35')", '12:34:00.0000000000+08:35', TZ(10)],
  ["TIME '00:00:00+00:00' + INTERVAL '1' SECOND * 10000000000", '17:46:40.000+00:00', TZ(3)],
  ["TIME '00:00:00.0000000000+00:00' - INTERVAL '1' SECOND * 10000000000", '06:13:20.0000000000+00:00', TZ(10)],
  ["TIME '00:00:00.037+00:00' + INTERVAL '1' SECOND * 9223372", '18:02:52.037+00:00', TZ(3)],
];

describe("time(p) with time zone: Trino's results", function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  engine.session.timeZone = 'Pacific/Apia';
  typedCases(TRINO_CASES, engine);
});

/** Trino's testCastToTimestamp and testCastToTimestampWithTimeZone: the session started 2020-05-01 12:34:56.111 in Pacific/Apia. */
const ON_SESSION_DATE: readonly TypedCase[] = [
  ["CAST(TIME '12:34:56.1111111111+08:35' AS TIMESTAMP(1))", '2020-05-01 12:34:56.1', 'timestamp(1)'],
  ["CAST(TIME '12:34:56.555555+08:35' AS TIMESTAMP(0))", '2020-05-01 12:34:57', 'timestamp(0)'],
  ["CAST(TIME '12:34:56.123+08:35' AS TIMESTAMP(6))", '2020-05-01 12:34:56.123000', 'timestamp(6)'],
  ["CAST(TIME '12:34:56.123-08:35' AS TIMESTAMP(3) WITH TIME ZONE)", '2020-05-01 12:34:56.123 -08:35', 'timestamp(3) with time zone'],
  [
    "CAST(TIME '12:34:56.555555555555+08:35' AS TIMESTAMP(5) WITH TIME ZONE)",
    '2020-05-01 12:34:56.55556 +08:35',
    'timestamp(5) with time zone',
  ],
  [
    "CAST(TIME '12:34:56.123456+08:35' AS TIMESTAMP(12) WITH TIME ZONE)",
    '2020-05-01 12:34:56.123456000000 +08:35',
    'timestamp(12) with time zone',
  ],
];

describe("time(p) with time zone to timestamps, on the date the query started (Trino's results)", function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  engine.session.timeZone = 'Pacific/Apia';
  engine.session.startTime = Date.parse('2020-05-01T12:34:56.111+12:00');
  typedCases(ON_SESSION_DATE, engine);
});

describe('time(p) with time zone: semantics and functions', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const texts = (sql: string) => cliRows(engine, sql);

  it('compares by the time at +00:00 modulo a day, and groups, deduplicates, joins and orders so', async () => {
    expect(
      await texts(
        "SELECT TIME '12:00:00+09:00' = TIME '03:00:00+00:00', TIME '01:00+02:00' < TIME '00:30+00:00', TIME '12:00:00.000+09:00' <> TIME '03:00:00.001+00:00'",
      ),
    ).to.deep.equal([['true', 'false', 'true']]);
    const values =
      "(VALUES (1, TIME '12:00:00.000+09:00'), (2, TIME '03:00:00.000+00:00'), (3, TIME '03:00:00.001+00:00'), (4, TIME '22:00:00.000-05:00'))";
    expect(await texts(`SELECT count(*), min(id) FROM ${values} v(id, t) GROUP BY t ORDER BY min(t)`)).to.deep.equal([
      ['3', '1'],
      ['1', '3'],
    ]);
    expect(await texts(`SELECT count(DISTINCT t) FROM ${values} v(id, t)`)).to.deep.equal([['2']]);
    expect(
      await texts(`SELECT a.id, b.id FROM ${values} a(id, t) JOIN ${values} b(id, t) ON a.t = b.t AND a.id < b.id ORDER BY 1, 2`),
    ).to.deep.equal([
      ['1', '2'],
      ['1', '4'],
      ['2', '4'],
    ]);
    expect(await texts(`SELECT id FROM ${values} v(id, t) ORDER BY t DESC, id`)).to.deep.equal([['3'], ['1'], ['2'], ['4']]);
  });

  it('reads the offset and the wall-clock fields', async () => {
    expect(
      await texts(
        "SELECT timezone(TIME '12:00:00+09:00'), timezone_hour(TIME '12:00:00-09:30'), timezone_minute(TIME '12:00:00-09:30'), hour(TIME '12:34:56.789+09:00'), minute(TIME '12:34:56.789+09:00'), second(TIME '12:34:56.789+09:00'), millisecond(TIME '12:34:56.789+09:00')",
      ),
    ).to.deep.equal([['+09:00', '-9', '-30', '12', '34', '56', '789']]);
  });

  it('takes the session offset at the query start for casts of text and time, current_time and AT TIME ZONE', async () => {
    const apia = new EngineHarness();
    apia.session.timeZone = 'Asia/Kathmandu';
    expect(
      await texts(
        "SELECT CAST('12:00' AS time(0) with time zone), CAST(TIME '10:00:00.123' AS time(3) with time zone), TIME '10:00:00+09:00' AT TIME ZONE 'Asia/Kolkata', TIME '10:00:00+09:00' AT TIME ZONE '-03:00'",
      ),
    ).to.deep.equal([['12:00:00+00:00', '10:00:00.123+00:00', '06:30:00+05:30', '22:00:00-03:00']]);
    const { rows, columns } = await apia.query(
      "SELECT timezone(current_time), typeof(current_time(6)), CAST(TIME '10:00:00' AS time(0) with time zone)",
    );
    expect(rows[0].map((v, i) => cliText(v, columns[i].type))).to.deep.equal(['+05:45', 'time(6) with time zone', '10:00:00+05:45']);
  });

  failureCases(
    'INVALID_CAST_ARGUMENT',
    [
      ["SELECT CAST('12:00 +15:00' AS time with time zone)", 'Value cannot be cast to time with time zone: 12:00 +15:00'],
      ["SELECT CAST('25:00:00+01:00' AS time with time zone)", 'Value cannot be cast to time with time zone: 25:00:00+01:00'],
    ],
    engine,
  );
  failureCases(
    'INVALID_LITERAL',
    [["SELECT TIME '01:02:03 America/Los_Angeles'", "'01:02:03 America/Los_Angeles' is not a valid TIME literal"]],
    engine,
  );
  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      ['SELECT CAST(NULL AS time(13) with time zone)', 'TIME WITH TIME ZONE precision must be in range [0, 12]: 13'],
      ["SELECT date_add('day', 1, TIME '12:00:00+01:00')", "'day' is not a valid TIME field"],
    ],
    engine,
  );
});
