// timestamp(p) with time zone for p 4..12 (Trino's long zoned timestamps: epoch millis, picoseconds
// of the milli, zone). The expected answers are Trino's own (TestTimestampWithTimeZone: literals,
// casts with rounding half up, lower digits zeroed, date_add/date_diff, with the session zone
// Pacific/Apia as there), then SQL semantics on equal instants in different zones (=, GROUP BY,
// DISTINCT, joins, ORDER BY), the functions that carry or drop the sub-millisecond digits, and
// microsecond instants against DuckDB's TIMESTAMPTZ (ICU) in zones with daylight saving.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { cliRows, typedCases, type TypedCase } from '../support/documented-examples.js';
import { EngineHarness } from '../support/engine-harness.js';
import { seededRandom as random } from '../support/seeded-random.js';

/** [expression, Trino's result as its CLI prints it, Trino's type] */

const KTM = 'Asia/Kathmandu';
const TZ = (p: number) => `timestamp(${p}) with time zone`;

const TRINO_CASES: readonly TypedCase[] = [
  // Literals take the precision of their fraction digits.
  [`TIMESTAMP '2020-05-01 12:34:56.1234 ${KTM}'`, `2020-05-01 12:34:56.1234 ${KTM}`, TZ(4)],
  [`TIMESTAMP '2020-05-01 12:34:56.123456789 ${KTM}'`, `2020-05-01 12:34:56.123456789 ${KTM}`, TZ(9)],
  [`TIMESTAMP '2020-05-01 12:34:56.123456789123 ${KTM}'`, `2020-05-01 12:34:56.123456789123 ${KTM}`, TZ(12)],
  // Casts between precisions round half up, also across a second, and zero the lower digits.
  [`CAST(TIMESTAMP '2020-05-10 12:34:56.555555555555 ${KTM}' AS TIMESTAMP(0) WITH TIME ZONE)`, `2020-05-10 12:34:57 ${KTM}`, TZ(0)],
  [`CAST(TIMESTAMP '1500-05-10 12:34:56.555555555555 ${KTM}' AS TIMESTAMP(1) WITH TIME ZONE)`, `1500-05-10 12:34:56.6 ${KTM}`, TZ(1)],
  [`CAST(TIMESTAMP '2020-05-10 12:34:56.555555555555 ${KTM}' AS TIMESTAMP(3) WITH TIME ZONE)`, `2020-05-10 12:34:56.556 ${KTM}`, TZ(3)],
  [`CAST(TIMESTAMP '2020-05-10 12:34:56.555555555555 ${KTM}' AS TIMESTAMP(4) WITH TIME ZONE)`, `2020-05-10 12:34:56.5556 ${KTM}`, TZ(4)],
  [`CAST(TIMESTAMP '1500-05-10 12:34:56.111111111111 ${KTM}' AS TIMESTAMP(6) WITH TIME ZONE)`, `1500-05-10 12:34:56.111111 ${KTM}`, TZ(6)],
  ["CAST(TIMESTAMP '1970-01-01 00:00:00.99999995 UTC' AS TIMESTAMP(7) WITH TIME ZONE)", '1970-01-01 00:00:01.0000000 UTC', TZ(7)],
  ["CAST(TIMESTAMP '1970-01-01 00:00:00.999999999999 UTC' AS TIMESTAMP(1) WITH TIME ZONE)", '1970-01-01 00:00:01.0 UTC', TZ(1)],
  [
    `CAST(CAST(TIMESTAMP '2020-05-10 12:34:56.555555555555 ${KTM}' AS TIMESTAMP(9) WITH TIME ZONE) AS TIMESTAMP(12) WITH TIME ZONE)`,
    `2020-05-10 12:34:56.555555556000 ${KTM}`,
    TZ(12),
  ],
  [
    `CAST(CAST(TIMESTAMP '2020-05-10 12:34:56.555555 ${KTM}' AS TIMESTAMP(3) WITH TIME ZONE) AS TIMESTAMP(6) WITH TIME ZONE)`,
    `2020-05-10 12:34:56.556000 ${KTM}`,
    TZ(6),
  ],
  // From text (years beyond 9999 and before 0 too), from date and timestamp in the session zone.
  [`CAST('2020-05-01 12:34:56.555555555555 ${KTM}' AS TIMESTAMP(7) WITH TIME ZONE)`, `2020-05-01 12:34:56.5555556 ${KTM}`, TZ(7)],
  [`CAST('+12001-05-01 12:34:56.111111111111 ${KTM}' AS TIMESTAMP(11) WITH TIME ZONE)`, `+12001-05-01 12:34:56.11111111111 ${KTM}`, TZ(11)],
  [`CAST('-12001-05-01 12:34:56.111111111111 ${KTM}' AS TIMESTAMP(8) WITH TIME ZONE)`, `-12001-05-01 12:34:56.11111111 ${KTM}`, TZ(8)],
  ["CAST(DATE '2020-05-01' AS TIMESTAMP(9) WITH TIME ZONE)", '2020-05-01 00:00:00.000000000 Pacific/Apia', TZ(9)],
  ["CAST(TIMESTAMP '2020-05-01 12:34:56.123456' AS TIMESTAMP(8) WITH TIME ZONE)", '2020-05-01 12:34:56.12345600 Pacific/Apia', TZ(8)],
  // To date, timestamp and text through the wall clock in the value's zone.
  [`CAST(TIMESTAMP '2020-05-01 12:34:56.123456789 ${KTM}' AS DATE)`, '2020-05-01', 'date'],
  [`CAST(TIMESTAMP '2020-05-01 12:34:56.99994 ${KTM}' AS TIMESTAMP(4))`, '2020-05-01 12:34:56.9999', 'timestamp(4)'],
  [`CAST(TIMESTAMP '2020-05-01 12:34:56.555555555555 ${KTM}' AS TIMESTAMP(3))`, '2020-05-01 12:34:56.556', 'timestamp(3)'],
  [`CAST(TIMESTAMP '2020-05-01 12:34:56.1111111 ${KTM}' AS TIMESTAMP(3))`, '2020-05-01 12:34:56.111', 'timestamp(3)'],
  [`CAST(TIMESTAMP '2020-05-01 12:34:56.123456789 ${KTM}' AS varchar)`, `2020-05-01 12:34:56.123456789 ${KTM}`, 'varchar'],
  [`last_day_of_month(TIMESTAMP '2020-05-01 12:34:56.1234567891 ${KTM}')`, '2020-05-31', 'date'],
  // date_add keeps the sub-millisecond digits; date_diff counts whole units.
  [`date_add('millisecond', 1, TIMESTAMP '1500-05-10 12:34:56.5555555555 ${KTM}')`, `1500-05-10 12:34:56.5565555555 ${KTM}`, TZ(10)],
  ["date_add('month', 55, TIMESTAMP '2001-02-10 13:31:00.1111111 Europe/Warsaw')", '2005-09-10 13:31:00.1111111 Europe/Warsaw', TZ(7)],
  ["date_add('week', 240, TIMESTAMP '2001-02-03 13:31:00.1111 Europe/Warsaw')", '2005-09-10 13:31:00.1111 Europe/Warsaw', TZ(4)],
  [
    `date_diff('millisecond', TIMESTAMP '2020-05-10 12:34:55.11111111 ${KTM}', TIMESTAMP '2020-05-10 12:34:56.99999999 ${KTM}')`,
    '1888',
    'bigint',
  ],
  [
    "date_diff('day', TIMESTAMP '2001-01-31 19:34:55.1111111 Europe/Warsaw', TIMESTAMP '2005-09-10 13:31:00.9999999 Europe/Warsaw')",
    '1682',
    'bigint',
  ],
  [
    "date_diff('week', TIMESTAMP '2001-01-31 19:34:55.1111111111 Europe/Warsaw', TIMESTAMP '2005-09-10 13:31:00.9999999999 Europe/Warsaw')",
    '240',
    'bigint',
  ],
];

describe("timestamp(p) with time zone, p 4..12: Trino's results (session zone Pacific/Apia)", function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  engine.session.timeZone = 'Pacific/Apia';
  typedCases(TRINO_CASES, engine);
});

describe('timestamp(p) with time zone, p 4..12: functions and SQL semantics', function () {
  this.timeout(60_000);
  const engine = new EngineHarness();
  const texts = (sql: string) => cliRows(engine, sql);
  const N = (text: string) => `TIMESTAMP '2020-05-11 ${text}'`;

  it('carries the picoseconds through at_timezone, interval arithmetic and date_add; date_trunc drops them', async () => {
    expect(
      await texts(`SELECT at_timezone(${N('11:15:05.123456789 UTC')}, 'Asia/Tokyo'), ${N('11:15:05.123456789 UTC')} + INTERVAL '1' DAY,
        ${N('11:15:05.123456789 UTC')} - INTERVAL '1' MONTH, date_add('hour', 2, ${N('11:15:05.123456789 +01:00')}),
        date_trunc('second', ${N('11:15:05.123456789 UTC')}), date_trunc('millisecond', ${N('11:15:05.123456789 UTC')}), ${N('11:15:05.123456789 UTC')} AT TIME ZONE '-03:30'`),
    ).to.deep.equal([
      [
        '2020-05-11 20:15:05.123456789 Asia/Tokyo',
        '2020-05-12 11:15:05.123456789 UTC',
        '2020-04-11 11:15:05.123456789 UTC',
        '2020-05-11 13:15:05.123456789 +01:00',
        '2020-05-11 11:15:05.000000000 UTC',
        '2020-05-11 11:15:05.123000000 UTC',
        '2020-05-11 07:45:05.123456789 -03:30',
      ],
    ]);
  });

  it('reads the full fraction in to_iso8601, to_unixtime, with_timezone, typeof and the difference of two values', async () => {
    expect(
      await texts(`SELECT to_iso8601(${N('11:15:05.123456789 +05:30')}), to_iso8601(${N('11:15:05.123456 UTC')}), to_unixtime(${N('11:15:05.5 UTC')} + (${N('00:00:00.000000250 UTC')} - ${N('00:00:00 UTC')})),
        to_unixtime(${N('11:15:05.123456 UTC')}) * 1e6, with_timezone(TIMESTAMP '2020-05-11 11:15:05.123456', 'America/New_York'), typeof(current_timestamp(7)),
        ${N('11:15:05.123456789 UTC')} - ${N('11:15:05.1224 UTC')}, ${N('11:15:05.1225 UTC')} - ${N('11:15:05.123999999 UTC')}`),
    ).to.deep.equal([
      [
        '2020-05-11T11:15:05.123456789+05:30',
        '2020-05-11T11:15:05.123456Z',
        '1.5891957055E9',
        '1.589195705123456E15',
        '2020-05-11 11:15:05.123456 America/New_York',
        'timestamp(7) with time zone',
        // .123456789 - .1224: 1.056789 ms rounds to 1; .1225 - .123999999: -1.499999 ms rounds to -1
        '0 00:00:00.001',
        '-0 00:00:00.001',
      ],
    ]);
  });

  it('compares, groups, deduplicates, joins and orders by instant whatever the zone', async () => {
    const values = `(VALUES (1, ${N('11:15:05.123456789 UTC')}), (2, ${N('20:15:05.123456789 Asia/Tokyo')}), (3, ${N('11:15:05.123456788 UTC')}), (4, ${N('06:15:05.123456790 -05:00')}))`;
    expect(
      await texts(
        `SELECT ${N('11:15:05.123456789 UTC')} = ${N('20:15:05.123456789 Asia/Tokyo')}, ${N('11:15:05.123456789 UTC')} = ${N('11:15:05.123 UTC')}, ${N('11:15:05.123 UTC')} = ${N('11:15:05.123000 UTC')}`,
      ),
    ).to.deep.equal([['true', 'false', 'true']]);
    expect(await texts(`SELECT count(*), min(id), max(id) FROM ${values} v(id, t) GROUP BY t ORDER BY min(t)`)).to.deep.equal([
      ['1', '3', '3'],
      ['2', '1', '2'],
      ['1', '4', '4'],
    ]);
    expect(await texts(`SELECT count(DISTINCT t), to_iso8601(min(t)), to_iso8601(max(t)) FROM ${values} v(id, t)`)).to.deep.equal([
      ['3', '2020-05-11T11:15:05.123456788Z', '2020-05-11T06:15:05.123456790-05:00'],
    ]);
    expect(await texts(`SELECT a.id, b.id FROM ${values} a(id, t) JOIN ${values} b(id, t) ON a.t = b.t AND a.id < b.id`)).to.deep.equal([
      ['1', '2'],
    ]);
    expect(await texts(`SELECT id FROM ${values} v(id, t) ORDER BY t DESC, id`)).to.deep.equal([['4'], ['1'], ['2'], ['3']]);
  });

  it('refuses precisions above 12 as Trino does', async () => {
    const error = await engine.failure('SELECT CAST(NULL AS timestamp(13) with time zone)');
    expect([error.errorName, error.rawMessage]).to.deep.equal([
      'INVALID_FUNCTION_ARGUMENT',
      'TIMESTAMP WITH TIME ZONE precision must be in range [0, 12]: 13',
    ]);
  });
});

// Random instants 1970..2040 with microsecond fractions, as DuckDB's TIMESTAMPTZ holds them.
const ROWS = 300;
const ZONES = ['America/Los_Angeles', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'UTC'];
const WALL_CLOCK = '%Y-%m-%d %H:%M:%S.%f';
/** [our expression of t (timestamp(6) with time zone), DuckDB's of ts] */
const EXPRESSIONS: ReadonlyArray<readonly [string, string]> = [
  ['CAST(CAST(t AS timestamp(6)) AS varchar)', `strftime(ts, '${WALL_CLOCK}')`],
  ["CAST(CAST(date_trunc('hour', t) AS timestamp(6)) AS varchar)", `strftime(date_trunc('hour', ts), '${WALL_CLOCK}')`],
  ["CAST(CAST(date_add('month', -5, t) AS timestamp(6)) AS varchar)", `strftime(ts - INTERVAL 5 MONTH, '${WALL_CLOCK}')`],
  ["CAST(CAST(t + INTERVAL '30' HOUR AS timestamp(6)) AS varchar)", `strftime(ts + INTERVAL 30 HOUR, '${WALL_CLOCK}')`],
  ['CAST(CAST(t AS date) AS varchar)', 'CAST(CAST(ts AS DATE) AS VARCHAR)'],
  ['CAST(timezone_minute(t) AS varchar)', 'CAST(extract(timezone_minute FROM ts) AS VARCHAR)'],
];

describe('timestamp(6) with time zone equals DuckDB TIMESTAMPTZ on random microsecond instants', function () {
  this.timeout(120_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    duck = await openDuckDb(1);
    const next = random(31);
    const from = Date.UTC(1970, 0, 1) * 1000;
    const to = Date.UTC(2040, 0, 1) * 1000;
    const micros = Array.from({ length: ROWS }, () => Math.floor(from + next() * (to - from)));
    // The engine reads each instant from its UTC text; DuckDB from its epoch microseconds.
    const text = (m: number) =>
      `${new Date(Math.floor(m / 1000)).toISOString().slice(0, 19).replace('T', ' ')}.${String(((m % 1e6) + 1e6) % 1e6).padStart(6, '0')} UTC`;
    await engine.run(
      'CREATE TABLE r (id integer, s varchar)',
      `INSERT INTO r VALUES ${micros.map((m, id) => `(${id}, '${text(m)}')`).join(', ')}`,
    );
    await duck.run('CREATE TABLE r (id INTEGER, m BIGINT)');
    await duck.run(`INSERT INTO r VALUES ${micros.map((m, id) => `(${id}, ${m})`).join(', ')}`);
  });

  after(() => duck.closeSync());

  for (const zone of ZONES) {
    it(`wall clock, date_trunc, calendar and interval arithmetic in ${zone}`, async () => {
      const ours = (
        await engine.query(
          `SELECT id, ${EXPRESSIONS.map(([e]) => e).join(', ')} FROM (SELECT id, CAST(s AS timestamp(6) with time zone) AT TIME ZONE '${zone}' AS t FROM r) ORDER BY id`,
        )
      ).rows;
      await duck.run(`SET TimeZone = '${zone}'`);
      const theirs = await duckRows(
        duck,
        `SELECT id, ${EXPRESSIONS.map(([, e]) => e).join(', ')} FROM (SELECT id, timezone('UTC', make_timestamp(m)) AS ts FROM r) ORDER BY id`,
      );
      for (let c = 1; c <= EXPRESSIONS.length; c++) {
        expect(
          ours.map((row) => `${String(row[0])}: ${String(row[c])}`),
          EXPRESSIONS[c - 1][0],
        ).to.deep.equal(theirs.map((row) => `${String(row[0])}: ${String(row[c])}`));
      }
    });
  }
});
