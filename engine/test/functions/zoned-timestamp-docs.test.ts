// timestamp(p) with time zone: the zoned examples of Trino's functions/datetime.md and
// language/types.md with the session zone each example names, cases from Trino's own tests of the
// type (TestTimestampWithTimeZone, TestAtTimeZone, TestDateTrunc), SQL semantics (equal instants
// are equal whatever their zones: =, GROUP BY, DISTINCT, joins, ORDER BY) and bad input.
//
// The documentation prints `TIMESTAMP '2012-10-31 01:00 UTC'` as '2012-10-31 01:00:00.000 UTC', a
// rendering from before timestamps had a precision: Trino types a literal with the fraction digits
// written (timestamp(0) with time zone here, TestTimestampWithTimeZone.testLiterals), so it prints
// '2012-10-31 01:00:00 UTC'. Those examples are checked with Trino's actual rendering.

import { expect } from 'chai';
import { type DocumentedExample, documentedExamples, failureCases } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';

function inZone(zone: string): EngineHarness {
  const engine = new EngineHarness();
  engine.session.timeZone = zone;
  return engine;
}

documentedExamples('functions/datetime.md', [
  ["SELECT timestamp '2012-10-31 01:00 UTC'", '2012-10-31 01:00:00 UTC'],
  ["SELECT timestamp '2012-10-31 01:00 UTC' AT TIME ZONE 'America/Los_Angeles'", '2012-10-30 18:00:00 America/Los_Angeles'],
  ["SELECT at_timezone(TIMESTAMP '2022-11-01 09:08:07.321 GMT', 'America/Los_Angeles')", '2022-11-01 02:08:07.321 America/Los_Angeles'],
  ["SELECT with_timezone(TIMESTAMP '2022-11-01 09:08:07.321', 'America/Los_Angeles')", '2022-11-01 09:08:07.321 America/Los_Angeles'],
  ["SELECT date_add('day', -1, TIMESTAMP '2020-03-01 00:00:00 UTC')", '2020-02-29 00:00:00 UTC'],
  ["SELECT date_diff('hour', TIMESTAMP '2020-03-01 00:00:00 UTC', TIMESTAMP '2020-03-02 00:00:00 UTC')", '24'],
] satisfies DocumentedExample[]);

documentedExamples(
  'functions/datetime.md, session zone America/Los_Angeles',
  [["SELECT timestamp '2012-10-31 01:00 UTC' AT LOCAL", '2012-10-30 18:00:00 America/Los_Angeles']],
  inZone('America/Los_Angeles'),
);

documentedExamples(
  'functions/datetime.md, session zone America/Vancouver',
  [
    ["SELECT from_iso8601_timestamp('2020-05-11')", '2020-05-11 00:00:00.000 America/Vancouver'],
    ["SELECT from_iso8601_timestamp('2020-05-11T11:15:05')", '2020-05-11 11:15:05.000 America/Vancouver'],
    ["SELECT from_iso8601_timestamp('2020-05-11T11:15:05.055+01:00')", '2020-05-11 11:15:05.055 +01:00'],
  ],
  inZone('America/Vancouver'),
);

documentedExamples(
  'functions/datetime.md, session zone America/New_York',
  [['SELECT current_timezone()', 'America/New_York']],
  inZone('America/New_York'),
);

documentedExamples('language/types.md', [
  ["SELECT TIMESTAMP '2001-08-22 03:04:05.321 UTC'", '2001-08-22 03:04:05.321 UTC'],
  ["SELECT TIMESTAMP '2001-08-22 03:04:05.321 -08:30'", '2001-08-22 03:04:05.321 -08:30'],
  ["SELECT TIMESTAMP '2001-08-22 03:04:05.321 GMT-08:30'", '2001-08-22 03:04:05.321 -08:30'],
  ["SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/New_York'", '2001-08-22 03:04:05.321 America/New_York'],
] satisfies DocumentedExample[]);

// Cases and results of Trino's own tests of the type (io.trino.operator.scalar.timestamptz).
documentedExamples('Trino timestamptz tests', [
  ["SELECT at_timezone(TIMESTAMP '2020-05-01 12:34:56 +07:09', 'America/Los_Angeles')", '2020-04-30 22:25:56 America/Los_Angeles'],
  ["SELECT at_timezone(TIMESTAMP '2020-05-01 12:34:56.12 +07:09', 'America/Los_Angeles')", '2020-04-30 22:25:56.12 America/Los_Angeles'],
  ["SELECT date_trunc('year', TIMESTAMP '2020-05-10 12:34:56.123 Asia/Kathmandu')", '2020-01-01 00:00:00.000 Asia/Kathmandu'],
  ["SELECT date_trunc('quarter', TIMESTAMP '2020-05-10 12:34:56.1 Asia/Kathmandu')", '2020-04-01 00:00:00.0 Asia/Kathmandu'],
  ["SELECT date_add('millisecond', 1, TIMESTAMP '2020-05-10 12:34:56 Asia/Kathmandu')", '2020-05-10 12:34:56 Asia/Kathmandu'],
  ["SELECT date_add('millisecond', 1, TIMESTAMP '2020-05-10 12:34:56.100 Asia/Kathmandu')", '2020-05-10 12:34:56.101 Asia/Kathmandu'],
  [
    "SELECT date_diff('millisecond', TIMESTAMP '2020-05-10 12:34:55.1 Asia/Kathmandu', TIMESTAMP '2020-05-10 12:34:56.2 Asia/Kathmandu')",
    '1100',
  ],
  ["SELECT CAST(TIMESTAMP '2020-05-01 12:34:56.123 Asia/Kathmandu' AS DATE)", '2020-05-01'],
  ["SELECT CAST(TIMESTAMP '2020-03-08 01:23:45.12 America/Los_Angeles' AS TIME(2))", '01:23:45.12'],
  ["SELECT CAST('2020-05-01 12:34:56.111111111111 Asia/Kathmandu' AS TIMESTAMP(1) WITH TIME ZONE)", '2020-05-01 12:34:56.1 Asia/Kathmandu'],
  [
    "SELECT CAST('2020-05-01 12:34:56.111111111111 Asia/Kathmandu' AS TIMESTAMP(3) WITH TIME ZONE)",
    '2020-05-01 12:34:56.111 Asia/Kathmandu',
  ],
  ["SELECT timezone_hour(TIMESTAMP '2020-05-01 12:34:56 +07:09')", '7'],
  ["SELECT timezone_minute(TIMESTAMP '2020-05-01 12:34:56 +07:09')", '9'],
  ["SELECT timezone(TIMESTAMP '2024-01-01 12:00:00 Asia/Tokyo')", 'Asia/Tokyo'],
  ["SELECT timezone(TIMESTAMP '2024-01-01 12:00:00 UTC')", 'UTC'],
  ["SELECT timezone(TIMESTAMP '2024-01-01 12:00:00 -08:00')", '-08:00'],
  ["SELECT at_timezone(TIMESTAMP '2020-05-01 12:34:56 +07:09', INTERVAL '03:04' HOUR TO MINUTE)", '2020-05-01 08:29:56 +03:04'],
  ["SELECT TIMESTAMP '2020-05-01 12:34:56.1 +07:09' AT TIME ZONE INTERVAL '-03:04' HOUR TO MINUTE", '2020-05-01 02:21:56.1 -03:04'],
  ["SELECT EXTRACT(TIMEZONE_HOUR FROM TIMESTAMP '2020-05-01 12:34:56 -07:09')", '-7'],
  ["SELECT EXTRACT(TIMEZONE_MINUTE FROM TIMESTAMP '2020-05-01 12:34:56 -07:09')", '-9'],
  ["SELECT EXTRACT(HOUR FROM TIMESTAMP '2020-05-01 12:34:56 -07:09')", '12'],
] satisfies DocumentedExample[]);

// Daylight saving: Los Angeles springs forward at 2021-03-14 02:00 (to 03:00) and falls back at
// 2021-11-07 02:00 (to 01:00). Hours add to the instant, days to the wall clock (Joda's zoned
// chronology); an ambiguous wall clock resolves to the earlier offset.
documentedExamples('daylight saving', [
  ["SELECT date_add('hour', 1, TIMESTAMP '2021-03-14 01:30 America/Los_Angeles')", '2021-03-14 03:30:00 America/Los_Angeles'],
  ["SELECT date_add('day', 1, TIMESTAMP '2021-03-13 12:00 America/Los_Angeles')", '2021-03-14 12:00:00 America/Los_Angeles'],
  ["SELECT date_diff('hour', TIMESTAMP '2021-03-14 00:00 America/Los_Angeles', TIMESTAMP '2021-03-15 00:00 America/Los_Angeles')", '23'],
  ["SELECT date_diff('day', TIMESTAMP '2021-03-14 00:00 America/Los_Angeles', TIMESTAMP '2021-03-15 00:00 America/Los_Angeles')", '1'],
  ["SELECT to_unixtime(TIMESTAMP '2021-11-07 01:30 America/Los_Angeles')", '1.6362738E9'],
  ["SELECT TIMESTAMP '2021-11-07 08:30 UTC' AT TIME ZONE 'America/Los_Angeles'", '2021-11-07 01:30:00 America/Los_Angeles'],
  ["SELECT TIMESTAMP '2021-11-07 09:30 UTC' AT TIME ZONE 'America/Los_Angeles'", '2021-11-07 01:30:00 America/Los_Angeles'],
  [
    "SELECT date_trunc('hour', TIMESTAMP '2021-11-07 09:45 UTC' AT TIME ZONE 'America/Los_Angeles')",
    '2021-11-07 01:00:00 America/Los_Angeles',
  ],
  ["SELECT to_unixtime(date_trunc('hour', TIMESTAMP '2021-11-07 09:45 UTC' AT TIME ZONE 'America/Los_Angeles'))", '1.6362756E9'],
  ["SELECT hour(TIMESTAMP '2021-11-07 09:45 UTC' AT TIME ZONE 'America/Los_Angeles')", '1'],
  [
    "SELECT format_datetime(TIMESTAMP '2021-11-07 09:45 UTC' AT TIME ZONE 'America/Los_Angeles', 'yyyy-MM-dd HH:mm Z ZZZ')",
    '2021-11-07 01:45 -0800 America/Los_Angeles',
  ],
  ["SELECT to_iso8601(TIMESTAMP '2021-11-07 01:45:00.000 America/Los_Angeles')", '2021-11-07T01:45:00.000-07:00'],
  ["SELECT to_iso8601(TIMESTAMP '2021-11-07 01:45:00.000 UTC')", '2021-11-07T01:45:00.000Z'],
  // Before 1883 Los Angeles kept local mean time, -07:52:58 (java.time's offset, seconds included).
  ["SELECT to_iso8601(TIMESTAMP '1800-01-01 00:00:00.000 America/Los_Angeles')", '1800-01-01T00:00:00.000-07:52:58'],
  ["SELECT to_unixtime(TIMESTAMP '1800-01-01 00:00 America/Los_Angeles')", '-5.364634022E9'],
] satisfies DocumentedExample[]);

documentedExamples(
  'casts and functions reading the session zone (Asia/Kolkata)',
  [
    ["SELECT CAST(TIMESTAMP '2020-05-01 12:34:56.123' AS timestamp(3) with time zone)", '2020-05-01 12:34:56.123 Asia/Kolkata'],
    ["SELECT CAST(DATE '2020-05-01' AS timestamp with time zone)", '2020-05-01 00:00:00.000 Asia/Kolkata'],
    ["SELECT CAST('2020-05-01 12:34' AS timestamp(0) with time zone)", '2020-05-01 12:34:00 Asia/Kolkata'],
    ["SELECT CAST(TIMESTAMP '2020-05-01 12:34:56 Asia/Tokyo' AS timestamp)", '2020-05-01 12:34:56.000'],
    ['SELECT from_unixtime(0)', '1970-01-01 05:30:00.000 Asia/Kolkata'],
    ["SELECT from_unixtime(0, 'America/Los_Angeles')", '1969-12-31 16:00:00.000 America/Los_Angeles'],
    ['SELECT from_unixtime(0, 2, 30)', '1970-01-01 02:30:00.000 +02:30'],
    ["SELECT to_unixtime(TIMESTAMP '1970-01-01 05:30:00')", '0.0'],
    ["SELECT TIMESTAMP '1970-01-01 05:30:00' AT TIME ZONE 'UTC'", '1970-01-01 00:00:00 UTC'],
    ['SELECT typeof(current_timestamp)', 'timestamp(3) with time zone'],
    ['SELECT typeof(now())', 'timestamp(3) with time zone'],
    ["SELECT typeof(TIMESTAMP '2020-05-01 12:34:56.12 UTC')", 'timestamp(2) with time zone'],
    ["SELECT year(TIMESTAMP '2020-12-31 23:00 UTC' AT TIME ZONE 'Asia/Kolkata')", '2021'],
    ["SELECT TIMESTAMP '2020-01-31 10:00 Europe/Paris' + INTERVAL '1' MONTH", '2020-02-29 10:00:00 Europe/Paris'],
    // A day-second interval is milliseconds: Trino types the difference timestamp(max(3, p)) with time zone.
    ["SELECT TIMESTAMP '2020-01-31 10:00 Europe/Paris' - INTERVAL '90' MINUTE", '2020-01-31 08:30:00.000 Europe/Paris'],
    ["SELECT TIMESTAMP '2020-01-31 10:00 Europe/Paris' + INTERVAL '0.5' SECOND", '2020-01-31 10:00:00.500 Europe/Paris'],
    ["SELECT TIMESTAMP '2020-01-31 10:00 Europe/Paris' - TIMESTAMP '2020-01-31 10:00 UTC'", '-0 01:00:00.000'],
    ["SELECT last_day_of_month(TIMESTAMP '2020-01-31 23:30 UTC' AT TIME ZONE 'Asia/Tokyo')", '2020-02-29'],
  ],
  inZone('Asia/Kolkata'),
);

describe('timestamp with time zone: SQL semantics', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();

  before(async () => {
    await engine.run(
      'CREATE TABLE zoned (id integer, t timestamp(3) with time zone)',
      `INSERT INTO zoned VALUES
        (1, TIMESTAMP '2012-10-31 01:00:00.000 UTC'),
        (2, TIMESTAMP '2012-10-30 18:00:00.000 America/Los_Angeles'),
        (3, TIMESTAMP '2012-10-31 02:00:00.000 +01:00'),
        (4, TIMESTAMP '2012-10-31 01:00:00.001 UTC'),
        (5, NULL)`,
    );
  });

  it('equal instants are equal whatever their zones: =, <, IS DISTINCT FROM', async () => {
    expect(await engine.rows("SELECT TIMESTAMP '2012-10-31 01:00 UTC' = TIMESTAMP '2012-10-30 18:00 America/Los_Angeles'")).to.deep.equal([
      [true],
    ]);
    expect(
      await engine.rows("SELECT TIMESTAMP '2012-10-31 01:00 UTC' < TIMESTAMP '2012-10-30 18:00:00.001 America/Los_Angeles'"),
    ).to.deep.equal([[true]]);
    expect(await engine.rows("SELECT TIMESTAMP '2012-10-31 01:00 UTC' IS DISTINCT FROM TIMESTAMP '2012-10-31 02:00 +01:00'")).to.deep.equal(
      [[false]],
    );
    expect(
      await engine.rows(
        "SELECT id FROM zoned WHERE t IN (TIMESTAMP '2012-10-31 03:00:00.000 +02:00', TIMESTAMP '2000-01-01 00:00:00.000 UTC') ORDER BY id",
      ),
    ).to.deep.equal([[1], [2], [3]]);
  });

  it('GROUP BY and DISTINCT merge equal instants; ORDER BY orders by instant', async () => {
    expect(await engine.rows('SELECT count(*) FROM (SELECT DISTINCT t FROM zoned WHERE t IS NOT NULL)')).to.deep.equal([[2n]]);
    expect(await engine.rows('SELECT count(*), min(id), max(id) FROM zoned WHERE t IS NOT NULL GROUP BY t ORDER BY 1')).to.deep.equal([
      [1n, 4, 4],
      [3n, 1, 3],
    ]);
    expect(await engine.rows('SELECT id FROM zoned ORDER BY t DESC NULLS LAST, id')).to.deep.equal([[4], [1], [2], [3], [5]]);
  });

  it("arrays of zoned timestamps group by their elements' instants", async () => {
    expect(await engine.rows('SELECT count(*) FROM (SELECT DISTINCT ARRAY[t] FROM zoned WHERE t IS NOT NULL)')).to.deep.equal([[2n]]);
    expect(
      await engine.rows('SELECT cardinality(array_agg(id)) FROM zoned WHERE t IS NOT NULL GROUP BY ARRAY[ARRAY[t]] ORDER BY 1'),
    ).to.deep.equal([[1n], [3n]]);
  });

  it("maps of zoned timestamps group, deduplicate and compare by their values' instants", async () => {
    expect(
      await engine.rows("SELECT count(*) FROM (SELECT DISTINCT MAP(ARRAY['k'], ARRAY[t]) FROM zoned WHERE t IS NOT NULL)"),
    ).to.deep.equal([[2n]]);
    expect(
      await engine.rows(
        "SELECT cardinality(array_agg(id)) FROM zoned WHERE t IS NOT NULL GROUP BY MAP(ARRAY['k'], ARRAY[ARRAY[t]]) ORDER BY 1",
      ),
    ).to.deep.equal([[1n], [3n]]);
    // As map keys they are matched by instant (zoned-map-keys.test.ts has more).
    expect(
      await engine.rows('SELECT cardinality(map_agg(t, id)), array_sort(map_values(histogram(t))) FROM zoned WHERE t IS NOT NULL'),
    ).to.deep.equal([[2n, [1n, 3n]]]);
  });

  it('rows holding zoned timestamps compare, group and deduplicate by the instants', async () => {
    expect(await engine.rows('SELECT count(*) FROM (SELECT DISTINCT ROW(1, t) FROM zoned WHERE t IS NOT NULL)')).to.deep.equal([[2n]]);
    expect(
      await engine.rows('SELECT cardinality(array_agg(id)) FROM zoned WHERE t IS NOT NULL GROUP BY ROW(ARRAY[t]) ORDER BY 1'),
    ).to.deep.equal([[1n], [3n]]);
    expect(await engine.rows("SELECT ROW(TIMESTAMP '2020-01-01 00:00 UTC') = ROW(TIMESTAMP '2020-01-01 01:00 +01:00')")).to.deep.equal([
      [true],
    ]);
  });

  it('array functions that compare elements see equal instants as equal', async () => {
    const utc = "TIMESTAMP '2012-10-31 01:00 UTC'";
    const la = "TIMESTAMP '2012-10-30 18:00 America/Los_Angeles'";
    const sql = `SELECT cardinality(array_distinct(ARRAY[${utc}, ${la}])), cardinality(array_union(ARRAY[${utc}], ARRAY[${la}])),
      cardinality(array_intersect(ARRAY[${utc}], ARRAY[${la}])), cardinality(array_except(ARRAY[${utc}], ARRAY[${la}])),
      arrays_overlap(ARRAY[${utc}], ARRAY[${la}]), contains(ARRAY[${utc}], ${la})`;
    expect(await engine.rows(sql)).to.deep.equal([[1n, 1n, 1n, 0n, true, true]]);
  });

  it('joins on equal instants in different zones', async () => {
    const rows = await engine.rows('SELECT a.id, b.id FROM zoned a JOIN zoned b ON a.t = b.t WHERE a.id < b.id ORDER BY 1, 2');
    expect(rows).to.deep.equal([
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
  });

  it("keeps each value's zone through a table and through min/max", async () => {
    const rows = await engine.rows('SELECT CAST(t AS varchar) FROM zoned WHERE id <= 3 ORDER BY id');
    expect(rows).to.deep.equal([
      ['2012-10-31 01:00:00.000 UTC'],
      ['2012-10-30 18:00:00.000 America/Los_Angeles'],
      ['2012-10-31 02:00:00.000 +01:00'],
    ]);
    expect(await engine.rows('SELECT CAST(max(t) AS varchar) FROM zoned')).to.deep.equal([['2012-10-31 01:00:00.001 UTC']]);
  });

  it('SHOW FUNCTIONS lists the forms that read the session zone as Trino lists them, and no internal form', async () => {
    const rows = await engine.rows("SHOW FUNCTIONS LIKE 'from_iso8601_timestamp%'");
    expect(rows.map((r) => r.slice(0, 3))).to.deep.equal([
      ['from_iso8601_timestamp', 'timestamp(3) with time zone', 'varchar(x)'],
      ['from_iso8601_timestamp_nanos', 'timestamp(9) with time zone', 'varchar(x)'],
    ]);
    const nanos = await engine.rows("SHOW FUNCTIONS LIKE 'from_unixtime_nanos'");
    expect(nanos.map((r) => r.slice(0, 3))).to.deep.equal([
      ['from_unixtime_nanos', 'timestamp(9) with time zone', 'bigint'],
      ['from_unixtime_nanos', 'timestamp(9) with time zone', 'decimal(p,s)'],
    ]);
    expect(await engine.rows("SHOW FUNCTIONS LIKE '$%'")).to.deep.equal([]);
  });

  it('describes the column with its type', async () => {
    const rows = await engine.rows('DESCRIBE zoned');
    expect(rows.map((r) => r.slice(0, 2))).to.deep.equal([
      ['id', 'integer'],
      ['t', 'timestamp(3) with time zone'],
    ]);
  });
});

describe('timestamp with time zone: bad input', () => {
  const engine = new EngineHarness();
  failureCases(
    'INVALID_LITERAL',
    [
      [
        "SELECT TIMESTAMP '2021-03-14 02:30 America/Los_Angeles'",
        "'2021-03-14 02:30 America/Los_Angeles' is not a valid TIMESTAMP literal",
      ],
      ["SELECT TIMESTAMP '2021-03-14 01:30 Mars/Phobos'", "'2021-03-14 01:30 Mars/Phobos' is not a valid TIMESTAMP literal"],
      ["SELECT TIMESTAMP '2021-02-30 01:30 UTC'", "'2021-02-30 01:30 UTC' is not a valid TIMESTAMP literal"],
    ],
    engine,
  );
  failureCases(
    'INVALID_CAST_ARGUMENT',
    [
      ["SELECT CAST('ABC' AS TIMESTAMP WITH TIME ZONE)", 'Value cannot be cast to timestamp: ABC'],
      ["SELECT CAST('2022-01-01 25:00:00 UTC' AS TIMESTAMP WITH TIME ZONE)", 'Value cannot be cast to timestamp: 2022-01-01 25:00:00 UTC'],
      ["SELECT CAST('2022-01-01 00:00:00 ABC' AS TIMESTAMP WITH TIME ZONE)", 'Value cannot be cast to timestamp: 2022-01-01 00:00:00 ABC'],
    ],
    engine,
  );
  failureCases(
    'NOT_SUPPORTED',
    [
      ["SELECT at_timezone(TIMESTAMP '2021-03-14 01:30 UTC', 'Mars/Phobos')", 'Time zone not supported: Mars/Phobos'],
      ["SELECT TIMESTAMP '2021-03-14 01:30 UTC' AT TIME ZONE '+15:00'", 'Time zone not supported: +15:00'],
    ],
    engine,
  );
  failureCases(
    'INVALID_FUNCTION_ARGUMENT',
    [
      [
        "SELECT at_timezone(TIMESTAMP '2020-05-01 12:34:56 UTC', INTERVAL '10' SECOND)",
        'Invalid time zone offset interval: interval contains seconds',
      ],
    ],
    engine,
  );

  it('TRY_CAST of bad text is NULL', async () => {
    expect(await engine.rows("SELECT TRY_CAST('2021-03-14 02:30 nowhere' AS timestamp with time zone)")).to.deep.equal([[null]]);
  });
});

describe('SET TIME ZONE', () => {
  it('sets the session zone that current_timestamp and AT LOCAL read, an offset from an interval, LOCAL back to the client zone', async () => {
    const engine = new EngineHarness();
    await engine.run("SET TIME ZONE 'America/Los_Angeles'");
    expect(
      await engine.rows(
        "SELECT current_timezone(), timezone(current_timestamp), CAST(TIMESTAMP '2012-10-31 01:00 UTC' AT LOCAL AS varchar)",
      ),
    ).to.deep.equal([['America/Los_Angeles', 'America/Los_Angeles', '2012-10-30 18:00:00 America/Los_Angeles']]);
    await engine.run("SET TIME ZONE INTERVAL '-08:00' HOUR TO MINUTE");
    expect(await engine.rows('SELECT current_timezone()')).to.deep.equal([['-08:00']]);
    await engine.run('SET TIME ZONE LOCAL');
    expect(await engine.rows('SELECT current_timezone()')).to.deep.equal([['UTC']]);
  });

  failureCases('NOT_SUPPORTED', [["SET TIME ZONE 'Mars/Phobos'", 'Time zone not supported: Mars/Phobos']]);
  failureCases('TYPE_MISMATCH', [
    ['SET TIME ZONE 5', "Expected expression of varchar or interval day-time type, but '5' has integer type"],
  ]);
});
