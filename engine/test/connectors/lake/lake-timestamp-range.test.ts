// Parquet TIMESTAMP_MICROS / TIMESTAMP_MILLIS at years 1..200000 both ways, and CSV and JSON text:
// DuckDB writes the file and we read every digit of it (9999-12-31 23:59:59.999999 came back as
// 10000-01-01, a micro at 2300 was lost); we write a table and DuckDB reads the same digits (a
// millis column past year 4253 was written a milli short). The oracle is DuckDB on the same values.

import { expect } from 'chai';
import { LakeFixture, duckDbRows } from './lake-fixture.js';

const MICROS = [
  '0001-01-01 00:00:00.000001',
  '1000-02-28 23:59:59.999999',
  '1600-02-29 06:07:08.123456',
  '2024-02-29 12:00:00.500000',
  '2300-01-01 00:00:00.000001',
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
  '1970-01-01 00:00:00.000',
];

const TEXT6 = (c: string) => `strftime(${c}, '%Y-%m-%d %H:%M:%S.%f')`;
const TEXT3 = (c: string) => `strftime(${c}, '%Y-%m-%d %H:%M:%S.%g')`;
/** DuckDB's text in Trino's form: a year past 9999 gets a '+'. */
const trinoYear = (rows: unknown[][]) => rows.map((r) => r.map((v) => (typeof v === 'string' && /^\d{5,}-/.test(v) ? `+${v}` : v)));
const values = MICROS.map((t, i) => `(${i}, '${t}', '${MILLIS[i]}')`).join(', ');
const DUCK_SELECT = `SELECT i::BIGINT AS i, CAST(a AS TIMESTAMP) AS t, CAST(CAST(b AS TIMESTAMP) AS TIMESTAMP_MS) AS m FROM (VALUES ${values}) v(i, a, b)`;
const DUCK_TEXT = `SELECT i, ${TEXT6('t')}, ${TEXT3('CAST(m AS TIMESTAMP)')} FROM (${DUCK_SELECT}) ORDER BY i`;

describe('lake: timestamps at every year through Parquet, CSV and JSON (DuckDB oracle)', function () {
  this.timeout(120_000);
  let lake: LakeFixture;
  beforeEach(() => {
    lake = LakeFixture.create();
  });
  afterEach(() => lake.remove());

  it('reads every digit of a Parquet file DuckDB wrote', async () => {
    const path = lake.file('data/d/a.parquet', '');
    await duckDbRows(`COPY (${DUCK_SELECT}) TO '${path}' (FORMAT PARQUET)`);
    await lake.harness.query(`CREATE TABLE lake.default.d WITH (external_location = '${lake.uri('data/d')}')`);
    // Every timestamp column reads at the catalog's precision (lake-timestamp-precision.test.ts rounds to millis).
    await lake.harness.query("SET SESSION lake.timestamp_precision = 'MICROSECONDS'");
    expect(await lake.rows('SELECT typeof(t), typeof(m) FROM lake.default.d LIMIT 1')).to.deep.equal([['timestamp(6)', 'timestamp(6)']]);
    const expected = trinoYear(
      await duckDbRows(`SELECT i, ${TEXT6('t')}, ${TEXT6('CAST(m AS TIMESTAMP)')} FROM (${DUCK_SELECT}) ORDER BY i`),
    );
    expect(await lake.rows('SELECT i, CAST(t AS varchar), CAST(m AS varchar) FROM lake.default.d ORDER BY i')).to.deep.equal(expected);
    // Pushed-down bounds next to the micro (row-group statistics and row filters read picoseconds).
    expect(
      await lake.rows(
        "SELECT i FROM lake.default.d WHERE t >= TIMESTAMP '9999-12-31 23:59:59.999999' AND t < TIMESTAMP '10000-01-01 00:00:00'",
      ),
    ).to.deep.equal([['5']]);
    expect(await lake.rows("SELECT i FROM lake.default.d WHERE m = TIMESTAMP '9999-12-31 23:59:59.002'")).to.deep.equal([['4']]);
    // At millis, the millis column reads as it is (the micros column's year 200000 is past what timestamp(3) holds here).
    await lake.harness.query("SET SESSION lake.timestamp_precision = 'MILLISECONDS'");
    const millis = trinoYear(await duckDbRows(`SELECT i, ${TEXT3('CAST(m AS TIMESTAMP)')} FROM (${DUCK_SELECT}) ORDER BY i`));
    expect(await lake.rows('SELECT i, CAST(m AS varchar) FROM lake.default.d ORDER BY i')).to.deep.equal(millis);
    expect(await lake.rows("SELECT i FROM lake.default.d WHERE m = TIMESTAMP '9999-12-31 23:59:59.002'")).to.deep.equal([['4']]);
  });

  for (const format of ['PARQUET', 'CSV', 'JSON'] as const) {
    it(`writes ${format} that DuckDB reads with the same digits, and reads it back`, async () => {
      // A table's timestamps are of the catalog's precision: the micros in one table, the millis in another.
      const expected = trinoYear(await duckDbRows(DUCK_TEXT));
      const written = async (precision: string, table: string, column: string) => {
        await lake.harness.query(`SET SESSION lake.timestamp_precision = '${precision}'`);
        await lake.harness.query(
          `CREATE TABLE lake.default.${table} WITH (format = '${format}') AS SELECT CAST(i AS bigint) AS i, ${column} FROM (VALUES ${values}) v(i, a, b)`,
        );
        return lake.rows(`SELECT i, CAST(${column.split(' AS ').pop()} AS varchar) FROM lake.default.${table} ORDER BY i`);
      };
      const micros = await written('MICROSECONDS', 'w6', 'CAST(a AS timestamp(6)) AS t');
      const millis = await written('MILLISECONDS', 'w3', 'CAST(b AS timestamp(3)) AS m');
      expect(micros.map((r, i) => [...r, millis[i][1]])).to.deep.equal(expected);
      if (format !== 'PARQUET') return; // DuckDB reads Trino's text with a '+' year as no timestamp: the round trip above is the check
      const read = (table: string) => `read_parquet('${lake.path(`catalog/default/${table}`)}/q*')`;
      const duckMicros = await duckDbRows(`SELECT i, ${TEXT6('t')} FROM ${read('w6')} ORDER BY i`);
      const duckMillis = await duckDbRows(`SELECT i, ${TEXT3('CAST(m AS TIMESTAMP)')} FROM ${read('w3')} ORDER BY i`);
      expect(trinoYear(duckMicros.map((r, i) => [...r, duckMillis[i][1]]))).to.deep.equal(expected);
    });
  }
});
