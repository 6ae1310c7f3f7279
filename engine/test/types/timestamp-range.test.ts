// Plain timestamps far from 1970 keep every digit: a double of micros since the epoch is exact only
// within 2^53 micros (years 1685..2255), and 9999-12-31 23:59:59.999999 (the warehouses' "end of
// time") came back as 10000-01-01 00:00:00.000000, 2300-01-01 00:00:00.000001 lost its micro, and
// timestamp(3) values past year 4253 read back a milli short in casts and functions. The oracle is
// DuckDB (int64 micros, exact over Trino's range) on the same values; Trino prints years past 9999
// with a '+' (its formatter's 'uuuu'), DuckDB without.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckRows, openDuckDb } from '../../scripts/tpch/duckdb-tpch.js';
import { EngineHarness } from '../support/engine-harness.js';

/** Micro- and millisecond values at years 1..200000 (DuckDB reads years past 9999 in its literals). */
const MICROS = [
  '0001-01-01 00:00:00.000001',
  '0001-03-01 12:34:56.789012',
  '1000-02-28 23:59:59.999999',
  '1582-10-15 00:00:00.000500',
  '1600-02-29 06:07:08.123456',
  '1969-12-31 23:59:59.999999',
  '2024-02-29 12:00:00.500000',
  '2300-01-01 00:00:00.000001',
  '4000-12-31 23:59:59.999999',
  '9999-12-31 23:59:59.999999',
  '12345-06-07 08:09:10.111213',
  '200000-01-01 00:00:00.000001',
];
const MILLIS = [
  '0001-01-01 00:00:00.001',
  '1000-06-15 11:22:33.444',
  '2300-01-01 00:00:00.001',
  '4254-07-01 00:00:00.002',
  '9999-12-31 23:59:59.002',
  '9999-12-31 23:59:59.999',
  '140000-03-04 05:06:07.089',
];

/** DuckDB's text in Trino's form: a year past 9999 gets a '+', one before 0 four digits. */
const trinoYear = (text: string) =>
  /^\d{5,}-/.test(text) ? `+${text}` : text.replace(/^-(\d{1,3})-/, (_, y: string) => `-${y.padStart(4, '0')}-`);
/** DuckDB's floor division of integers (its % and // truncate toward zero). */
const floorDiv = (x: string, d: number) => `((${x})::HUGEINT - (((${x})::HUGEINT % ${d}) + ${d}) % ${d}) // ${d}`;
/** A DuckDB timestamp floored to whole millis, as Trino's date_diff reads its values. */
const floorMillis = (c: string) => `make_timestamp(CAST(${floorDiv(`epoch_us(${c})`, 1000)} AS BIGINT) * 1000)`;
const TEXT6 = (c: string) => `strftime(${c}, '%Y-%m-%d %H:%M:%S.%f')`;
const TEXT3 = (c: string) => `strftime(${c}, '%Y-%m-%d %H:%M:%S.%g')`;

describe('plain timestamps at every year (DuckDB TIMESTAMP oracle)', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();
  let duck: DuckDBConnection;

  before(async () => {
    duck = await openDuckDb(1);
    const values = (list: string[]) => list.map((t, i) => `(${i}, '${t}')`).join(', ');
    await duck.run(`CREATE TABLE t6 AS SELECT i, CAST(s AS TIMESTAMP) AS t FROM (VALUES ${values(MICROS)}) v(i, s)`);
    await duck.run(`CREATE TABLE t3 AS SELECT i, CAST(s AS TIMESTAMP) AS t FROM (VALUES ${values(MILLIS)}) v(i, s)`);
    await engine.query('CREATE TABLE memory.default.t6 (i bigint, t timestamp(6))');
    await engine.query('CREATE TABLE memory.default.t3 (i bigint, t timestamp(3))');
    await engine.query(`INSERT INTO memory.default.t6 VALUES ${MICROS.map((t, i) => `(${i}, TIMESTAMP '${t}')`).join(', ')}`);
    await engine.query(`INSERT INTO memory.default.t3 VALUES ${MILLIS.map((t, i) => `(${i}, TIMESTAMP '${t}')`).join(', ')}`);
  });
  after(() => duck.closeSync());

  const text = (rows: unknown[][]) => rows.map((r) => r.map((v) => trinoYear(String(v))).join('|'));
  async function same(engineSql: string, duckSql: string): Promise<void> {
    expect(text(await engine.rows(engineSql))).to.deep.equal(text(await duckRows(duck, duckSql)));
  }
  /** The same expression over both tables (`e` of column t), engine text against DuckDB's. */
  async function sameOver(engineExpr: string, duckExpr: string): Promise<void> {
    for (const table of ['t6', 't3']) {
      await same(`SELECT i, ${engineExpr} FROM memory.default.${table} ORDER BY i`, `SELECT i, ${duckExpr} FROM ${table} ORDER BY i`);
    }
  }

  it('keeps every digit of literals, and of casts from and to varchar', async () => {
    await same('SELECT i, CAST(t AS varchar) FROM memory.default.t6 ORDER BY i', `SELECT i, ${TEXT6('t')} FROM t6 ORDER BY i`);
    await same('SELECT i, CAST(t AS varchar) FROM memory.default.t3 ORDER BY i', `SELECT i, ${TEXT3('t')} FROM t3 ORDER BY i`);
    await same(
      'SELECT i, CAST(CAST(CAST(t AS varchar) AS timestamp(6)) AS varchar) FROM memory.default.t6 ORDER BY i',
      `SELECT i, ${TEXT6('t')} FROM t6 ORDER BY i`,
    );
    // timestamp(3) to (6) and (6) to (9) widen exactly; to date takes the day.
    await same(
      'SELECT i, CAST(CAST(t AS timestamp(6)) AS varchar), CAST(CAST(t AS date) AS varchar) FROM memory.default.t3 ORDER BY i',
      `SELECT i, ${TEXT6('t')}, CAST(CAST(t AS DATE) AS VARCHAR) FROM t3 ORDER BY i`,
    );
    await same(
      'SELECT i, CAST(CAST(t AS timestamp(9)) AS varchar) FROM memory.default.t6 ORDER BY i',
      `SELECT i, ${TEXT6('t')} || '000' FROM t6 ORDER BY i`,
    );
    await same(
      'SELECT i, CAST(CAST(CAST(t AS date) AS timestamp(6)) AS varchar) FROM memory.default.t6 ORDER BY i',
      `SELECT i, ${TEXT6('CAST(CAST(t AS DATE) AS TIMESTAMP)')} FROM t6 ORDER BY i`,
    );
  });

  it('rounds timestamp(6) to (3) half up on the micros since the epoch (Trino)', async () => {
    const millis = `CAST(${floorDiv('epoch_us(t) + 500', 1000)} AS BIGINT)`;
    await same(
      'SELECT i, CAST(CAST(t AS timestamp(3)) AS varchar) FROM memory.default.t6 WHERE year(t) < 100000 ORDER BY i',
      `SELECT i, ${TEXT3(`make_timestamp(${millis} * 1000)`)} FROM t6 WHERE year(t) < 100000 ORDER BY i`,
    );
  });

  it('refuses a timestamp(3) beyond the years its double holds exactly (a wrong milli otherwise)', async () => {
    const refusal =
      'timestamp(0..3) outside -144169-06-28 .. +148108-07-06 (2^62 microseconds from 1970) is not supported: use timestamp(6)';
    for (const sql of [
      "SELECT TIMESTAMP '150000-03-04 05:06:07.089'",
      "SELECT CAST(TIMESTAMP '200000-01-01 00:00:00.000001' AS timestamp(3))",
      "SELECT CAST('-150000-01-01' AS timestamp(0))",
    ]) {
      expect((await engine.failure(sql)).message, sql).to.equal(refusal);
    }
    expect(
      await engine.rows(
        "SELECT CAST(TIMESTAMP '148107-12-31 23:59:59.999' AS varchar), CAST(TIMESTAMP '-144168-01-01 00:00:00.001' AS varchar)",
      ),
    ).to.deep.equal([['+148107-12-31 23:59:59.999', '-144168-01-01 00:00:00.001']]);
  });

  it('goes through timestamp with time zone and back (session zone UTC)', async () => {
    await same(
      'SELECT i, CAST(CAST(t AS timestamp(6) with time zone) AS varchar), CAST(CAST(CAST(t AS timestamp(6) with time zone) AS timestamp(6)) AS varchar) FROM memory.default.t6 ORDER BY i',
      `SELECT i, ${TEXT6('t')} || ' UTC', ${TEXT6('t')} FROM t6 ORDER BY i`,
    );
    await same(
      'SELECT i, CAST(CAST(t AS timestamp(3) with time zone) AS varchar), CAST(CAST(CAST(t AS timestamp(3) with time zone) AS timestamp(3)) AS varchar) FROM memory.default.t3 ORDER BY i',
      `SELECT i, ${TEXT3('t')} || ' UTC', ${TEXT3('t')} FROM t3 ORDER BY i`,
    );
  });

  it('extracts fields as DuckDB does', async () => {
    await sameOver(
      'year(t), quarter(t), month(t), day(t), day_of_week(t), day_of_year(t), week(t), year_of_week(t), hour(t), minute(t), second(t), millisecond(t), EXTRACT(YEAR FROM t)',
      'year(t), quarter(t), month(t), day(t), isodow(t), dayofyear(t), week(t), isoyear(t), hour(t), minute(t), second(t), millisecond(t) % 1000, year(t)',
    );
    await sameOver('CAST(last_day_of_month(t) AS varchar)', 'CAST(last_day(t) AS VARCHAR)');
  });

  it('truncates to every unit', async () => {
    for (const unit of ['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']) {
      await same(
        `SELECT i, CAST(date_trunc('${unit}', t) AS varchar) FROM memory.default.t6 ORDER BY i`,
        `SELECT i, ${TEXT6(`date_trunc('${unit}', t)`)} FROM t6 ORDER BY i`,
      );
      await same(
        `SELECT i, CAST(date_trunc('${unit}', t) AS varchar) FROM memory.default.t3 ORDER BY i`,
        `SELECT i, ${TEXT3(`date_trunc('${unit}', t)`)} FROM t3 ORDER BY i`,
      );
    }
  });

  it('adds intervals and units', async () => {
    const cases: [string, string][] = [
      ["t + INTERVAL '1' DAY", 't + INTERVAL 1 DAY'],
      ["t - INTERVAL '0.001' SECOND", 't - INTERVAL 1 MILLISECOND'],
      ["t + INTERVAL '13' MONTH", 't + INTERVAL 13 MONTH'],
      ["t - INTERVAL '400' YEAR", 't - INTERVAL 400 YEAR'],
      ["date_add('millisecond', 1, t)", 't + INTERVAL 1 MILLISECOND'],
      ["date_add('hour', -25, t)", 't - INTERVAL 25 HOUR'],
      ["date_add('month', 1, t)", 't + INTERVAL 1 MONTH'],
      ["date_add('year', -999, t)", 't - INTERVAL 999 YEAR'],
    ];
    for (const [ours, theirs] of cases) {
      await same(`SELECT i, CAST(${ours} AS varchar) FROM memory.default.t6 ORDER BY i`, `SELECT i, ${TEXT6(theirs)} FROM t6 ORDER BY i`);
      await same(`SELECT i, CAST(${ours} AS varchar) FROM memory.default.t3 ORDER BY i`, `SELECT i, ${TEXT3(theirs)} FROM t3 ORDER BY i`);
    }
  });

  it('counts whole units between values far apart (date_diff, timestamp - timestamp)', async () => {
    for (const unit of ['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']) {
      // DuckDB's date_sub counts whole units as Joda does; both sides read whole millis (Trino floors them).
      await same(
        `SELECT a.i, b.i, date_diff('${unit}', a.t, b.t) FROM memory.default.t6 a CROSS JOIN memory.default.t6 b ORDER BY 1, 2`,
        `SELECT a.i, b.i, date_sub('${unit}', ${floorMillis('a.t')}, ${floorMillis('b.t')}) FROM t6 a CROSS JOIN t6 b ORDER BY 1, 2`,
      );
    }
    // An interval day to second in millis: the micros difference rounded half up (Trino).
    await same(
      'SELECT a.i, b.i, CAST(to_milliseconds(a.t - b.t) AS varchar) FROM memory.default.t6 a CROSS JOIN memory.default.t6 b WHERE a.i < 10 AND b.i < 10 ORDER BY 1, 2',
      `SELECT a.i, b.i, CAST(${floorDiv('epoch_us(a.t)::HUGEINT - epoch_us(b.t) + 500', 1000)} AS BIGINT) FROM t6 a CROSS JOIN t6 b WHERE a.i < 10 AND b.i < 10 ORDER BY 1, 2`,
    );
  });

  it('formats as format_datetime, date_format and to_iso8601', async () => {
    await sameOver(
      "format_datetime(t, 'yyyy-MM-dd HH:mm:ss.SSS')",
      TEXT3(`make_timestamp(CAST(${floorDiv('epoch_us(t) + 500', 1000)} AS BIGINT) * 1000)`),
    );
    await sameOver(
      "date_format(t, '%Y-%m-%d %H:%i:%s.%f')",
      `${TEXT3(`make_timestamp(CAST(${floorDiv('epoch_us(t) + 500', 1000)} AS BIGINT) * 1000)`)} || '000'`,
    );
    await same(
      'SELECT i, to_iso8601(t) FROM memory.default.t6 ORDER BY i',
      `SELECT i, replace(${TEXT6('t')}, ' ', 'T') FROM t6 ORDER BY i`,
    );
  });

  it('computes on timestamp with time zone values as on their wall clock (session zone UTC)', async () => {
    for (const [table, precision, TEXT] of [
      ['t3', 3, TEXT3],
      ['t6', 6, TEXT6],
    ] as const) {
      const z = `CAST(t AS timestamp(${precision}) with time zone)`;
      await same(
        `SELECT i, year(${z}), day_of_year(${z}), second(${z}), millisecond(${z}), date_diff('millisecond', TIMESTAMP '9999-12-31 00:00:00 UTC', ${z}), date_diff('month', TIMESTAMP '0001-01-31 00:00:00 UTC', ${z}) FROM memory.default.${table} ORDER BY i`,
        `SELECT i, year(t), dayofyear(t), second(t), millisecond(t) % 1000, date_sub('millisecond', TIMESTAMP '9999-12-31 00:00:00', ${floorMillis('t')}), date_sub('month', TIMESTAMP '0001-01-31 00:00:00', t) FROM ${table} ORDER BY i`,
      );
      await same(
        `SELECT i, CAST(date_trunc('millisecond', ${z}) AS varchar), CAST(date_trunc('month', ${z}) AS varchar), CAST(${z} + INTERVAL '1' MONTH AS varchar), CAST(date_add('day', 1, ${z}) AS varchar), CAST(date_add('second', -1, ${z}) AS varchar) FROM memory.default.${table} ORDER BY i`,
        `SELECT i, ${TEXT("date_trunc('millisecond', t)")} || ' UTC', ${TEXT("date_trunc('month', t)")} || ' UTC', ${TEXT('t + INTERVAL 1 MONTH')} || ' UTC', ${TEXT('t + INTERVAL 1 DAY')} || ' UTC', ${TEXT('t - INTERVAL 1 SECOND')} || ' UTC' FROM ${table} ORDER BY i`,
      );
    }
    await same(
      `SELECT i, format_datetime(CAST(t AS timestamp(3) with time zone), 'yyyy-MM-dd HH:mm:ss.SSS') FROM memory.default.t3 ORDER BY i`,
      `SELECT i, ${TEXT3('t')} FROM t3 ORDER BY i`,
    );
  });

  it('compares, orders, groups and joins on the exact value', async () => {
    // Neighbours one micro apart at 9999 and 2300: two values each, never merged.
    const near =
      "(VALUES TIMESTAMP '9999-12-31 23:59:59.999999', TIMESTAMP '9999-12-31 23:59:59.999998', TIMESTAMP '9999-12-31 23:59:59.999999', TIMESTAMP '2300-01-01 00:00:00.000001', TIMESTAMP '2300-01-01 00:00:00.000000') v(t)";
    const duckNear =
      "(VALUES (TIMESTAMP '9999-12-31 23:59:59.999999'), (TIMESTAMP '9999-12-31 23:59:59.999998'), (TIMESTAMP '9999-12-31 23:59:59.999999'), (TIMESTAMP '2300-01-01 00:00:00.000001'), (TIMESTAMP '2300-01-01 00:00:00.000000')) v(t)";
    await same(
      `SELECT CAST(t AS varchar), count(*) FROM ${near} GROUP BY t ORDER BY t DESC`,
      `SELECT ${TEXT6('t')}, count(*) FROM ${duckNear} GROUP BY t ORDER BY t DESC`,
    );
    await same(
      `SELECT count(*) FROM (SELECT * FROM ${near}) a JOIN (SELECT * FROM ${near}) b ON a.t = b.t`,
      `SELECT count(*) FROM (SELECT * FROM ${duckNear}) a JOIN (SELECT * FROM ${duckNear}) b ON a.t = b.t`,
    );
    await same(
      "SELECT i FROM memory.default.t6 WHERE t > TIMESTAMP '9999-12-31 23:59:59.999998' OR t < TIMESTAMP '0001-01-01 00:00:00.000002' ORDER BY t",
      "SELECT i FROM t6 WHERE t > TIMESTAMP '9999-12-31 23:59:59.999998' OR t < TIMESTAMP '0001-01-01 00:00:00.000002' ORDER BY t",
    );
    await same(
      'SELECT a.i, b.i FROM memory.default.t6 a JOIN memory.default.t3 b ON CAST(a.t AS date) = CAST(b.t AS date) ORDER BY 1, 2',
      'SELECT a.i, b.i FROM t6 a JOIN t3 b ON CAST(a.t AS DATE) = CAST(b.t AS DATE) ORDER BY 1, 2',
    );
    await same('SELECT i FROM memory.default.t3 ORDER BY t DESC', 'SELECT i FROM t3 ORDER BY t DESC');
  });
});
