// Zoned timestamps on random instants (1970..2040, millisecond fractions) in zones with daylight
// saving, half-hour and 45-minute offsets, against DuckDB's TIMESTAMPTZ (ICU) with its TimeZone
// setting as the zone: calendar fields, the zone offset, date_trunc and calendar arithmetic in the
// zone, read back as epoch seconds so that only the instants are compared.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';
import { seededRandom as random } from '../support/seeded-random.js';

const ROWS = 400;
const ZONES = [
  'America/Los_Angeles',
  'Europe/Paris',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'Pacific/Chatham',
  'UTC',
];
const FROM = Date.UTC(1970, 0, 1) / 1000;
const TO = Date.UTC(2040, 0, 1) / 1000;

/** [our expression of t, DuckDB's of ts] */
const EXPRESSIONS: ReadonlyArray<readonly [string, string]> = [
  ['year(t)', 'extract(year FROM ts)'],
  ['month(t)', 'extract(month FROM ts)'],
  ['day(t)', 'extract(day FROM ts)'],
  ['hour(t)', 'extract(hour FROM ts)'],
  ['minute(t)', 'extract(minute FROM ts)'],
  ['day_of_week(t)', 'isodow(ts)'],
  ['day_of_year(t)', 'dayofyear(ts)'],
  ['timezone_hour(t)', 'extract(timezone_hour FROM ts)'],
  ['timezone_minute(t)', 'extract(timezone_minute FROM ts)'],
  ["to_unixtime(date_trunc('hour', t))", "epoch(date_trunc('hour', ts))"],
  ["to_unixtime(date_trunc('day', t))", "epoch(date_trunc('day', ts))"],
  ["to_unixtime(date_trunc('week', t))", "epoch(date_trunc('week', ts))"],
  ["to_unixtime(date_trunc('month', t))", "epoch(date_trunc('month', ts))"],
  ["to_unixtime(date_trunc('year', t))", "epoch(date_trunc('year', ts))"],
  ["to_unixtime(date_add('day', 3, t))", 'epoch(ts + INTERVAL 3 DAY)'],
  ["to_unixtime(date_add('month', -5, t))", 'epoch(ts - INTERVAL 5 MONTH)'],
  ["to_unixtime(t + INTERVAL '1' YEAR)", 'epoch(ts + INTERVAL 1 YEAR)'],
  ["to_unixtime(date_add('hour', 30, t))", 'epoch(ts + INTERVAL 30 HOUR)'],
];

function instants(): number[] {
  const next = random(23);
  return Array.from({ length: ROWS }, () => Math.round((FROM + next() * (TO - FROM)) * 1000) / 1000);
}

function text(v: unknown): string {
  return v === null || v === undefined ? 'NULL' : String(Number(v));
}

describe('timestamp with time zone equals DuckDB TIMESTAMPTZ on random instants', function () {
  this.timeout(120_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    duck = await openDuckDb(1);
    const values = instants()
      .map((x, id) => `(${id}, ${x})`)
      .join(', ');
    await engine.run('CREATE TABLE r (id integer, x double)', `INSERT INTO r VALUES ${values}`);
    await duck.run('CREATE TABLE r (id INTEGER, x DOUBLE)');
    await duck.run(`INSERT INTO r VALUES ${values}`);
  });

  after(() => duck.closeSync());

  for (const zone of ZONES) {
    it(`fields, date_trunc and calendar arithmetic in ${zone}`, async () => {
      const ours = (
        await engine.query(
          `SELECT id, ${EXPRESSIONS.map(([e]) => e).join(', ')} FROM (SELECT id, from_unixtime(x, '${zone}') AS t FROM r) ORDER BY id`,
        )
      ).rows;
      await duck.run(`SET TimeZone = '${zone}'`);
      const theirs = await duckRows(
        duck,
        `SELECT id, ${EXPRESSIONS.map(([, e]) => e).join(', ')} FROM (SELECT id, to_timestamp(x) AS ts FROM r) ORDER BY id`,
      );
      for (let c = 1; c <= EXPRESSIONS.length; c++) {
        const mine = ours.map((row) => `${String(row[0])}: ${text(row[c])}`);
        const expected = theirs.map((row) => `${String(row[0])}: ${text(row[c])}`);
        expect(mine, EXPRESSIONS[c - 1][0]).to.deep.equal(expected);
      }
    });
  }
});
