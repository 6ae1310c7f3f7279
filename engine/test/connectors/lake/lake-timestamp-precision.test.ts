// The lake catalog's timestamp precision (Trino's hive.timestamp-precision and the session's
// <catalog>.timestamp_precision): every timestamp column, declared or read from a file, is of the
// catalog's precision; a file's finer values round half up (Trino's rounding). The oracle is DuckDB
// on the same file: its exact epoch nanoseconds rounded in integer arithmetic and printed.

import { expect } from 'chai';
import { join } from 'node:path';
import { HiveConnector } from '../../../src/connectors/hive/hive-connector.js';
import { lakeConfig } from '../../../src/connectors/hive/hive-config.js';
import { LakeFixture, duckDbRows } from './lake-fixture.js';

/** Micros (any year) and nanos (years 1677..2262) next to the halves of each unit. */
const MICROS = [
  '0001-01-01 00:00:00.000500',
  '1000-02-28 23:59:59.999500',
  '1600-02-29 06:07:08.123499',
  '1969-12-31 23:59:59.999500',
  '2024-02-29 12:00:00.123500',
  '2024-02-29 12:00:00.124499',
  '9999-12-31 23:59:59.999500',
  '140000-01-01 00:00:00.000499',
];
const NANOS = [
  '1700-01-01 00:00:00.000500000',
  '1800-06-15 12:00:00.123456789',
  '1969-12-31 23:59:59.999999500',
  '1970-01-01 00:00:00.000000499',
  '2024-02-29 23:59:59.999500000',
  '2024-02-29 12:00:00.123499999',
  '2262-04-10 00:00:00.999999999',
  '2000-01-01 00:00:00.000000001',
];
const VALUES = MICROS.map((u, i) => `(${i}, '${u}', '${NANOS[i]}')`).join(', ');
const DUCK_SELECT = `SELECT i::BIGINT AS i, CAST(a AS TIMESTAMP) AS u, CAST(CAST(a AS TIMESTAMP) AS TIMESTAMP_MS) AS m, CAST(b AS TIMESTAMP_NS) AS n FROM (VALUES ${VALUES}) v(i, a, b)`;
const PRECISIONS = [
  ['MILLISECONDS', 3],
  ['MICROSECONDS', 6],
  ['NANOSECONDS', 9],
] as const;

const floorDiv = (a: string, b: string) => `((${a}) - (((${a}) % (${b})) + (${b})) % (${b})) // (${b})`;

/** DuckDB text (Trino's form) of hugeint epoch nanoseconds `nanos` rounded half up to `digits`. */
function roundedText(nanos: string, digits: number): string {
  const unit = `${10 ** (9 - digits)}::HUGEINT`;
  const rounded = `(${floorDiv(`${nanos} + ${unit} // 2`, unit)}) * ${unit}`;
  const seconds = floorDiv(rounded, '1000000000::HUGEINT');
  const fraction = `(${rounded}) - (${seconds}) * 1000000000`;
  const text = `strftime(make_timestamp(CAST((${seconds}) * 1000000 AS BIGINT)), '%Y-%m-%d %H:%M:%S') || '.' || lpad(CAST((${fraction}) // ${unit} AS VARCHAR), ${digits}, '0')`;
  // A year past 9999 gets a '+', as Trino prints it.
  return `CASE WHEN (${seconds}) >= 253402300800 THEN '+' ELSE '' END || ${text}`;
}

const NANOS_OF = { u: 'epoch_us(u)::HUGEINT * 1000', m: 'epoch_ms(m)::HUGEINT * 1000000', n: 'epoch_ns(n)::HUGEINT' };

describe('lake: the catalog timestamp precision (hive.timestamp-precision, DuckDB oracle)', function () {
  this.timeout(120_000);
  let lake: LakeFixture;
  beforeEach(() => {
    lake = LakeFixture.create();
  });
  afterEach(() => lake.remove());

  async function duckTable(select: string): Promise<string> {
    const path = lake.file('data/d/a.parquet', '');
    await duckDbRows(`COPY (${select}) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 2)`);
    await lake.harness.query(`CREATE TABLE lake.default.d WITH (external_location = '${lake.uri('data/d')}')`);
    return path;
  }

  it('reads millis, micros and nanos files at each precision, rounded half up as Trino reads them', async () => {
    await duckTable(DUCK_SELECT);
    for (const [precision, digits] of PRECISIONS) {
      await lake.harness.query(`SET SESSION lake.timestamp_precision = '${precision}'`);
      const type = `timestamp(${digits})`;
      expect(await lake.rows('SELECT typeof(u), typeof(m), typeof(n) FROM lake.default.d LIMIT 1'), precision).to.deep.equal([
        [type, type, type],
      ]);
      const expected = await duckDbRows(
        `SELECT i, ${roundedText(NANOS_OF.u, digits)}, ${roundedText(NANOS_OF.m, digits)}, ${roundedText(NANOS_OF.n, digits)} FROM (${DUCK_SELECT}) ORDER BY i`,
      );
      const ours = await lake.rows('SELECT i, CAST(u AS varchar), CAST(m AS varchar), CAST(n AS varchar) FROM lake.default.d ORDER BY i');
      expect(ours, precision).to.deep.equal(expected);
      // A pushed-down equality finds each rounded value: row-group statistics and row filters round alike.
      for (const [i, u, , n] of expected) {
        const hits = await lake.rows(`SELECT i FROM lake.default.d WHERE u = TIMESTAMP '${String(u).replace('+', '')}' ORDER BY i`);
        expect(
          hits.map((r) => r[0]),
          `${precision} u ${u}`,
        ).to.include(i);
        const nanos = await lake.rows(`SELECT i FROM lake.default.d WHERE n = TIMESTAMP '${n}' ORDER BY i`);
        expect(
          nanos.map((r) => r[0]),
          `${precision} n ${n}`,
        ).to.include(i);
      }
    }
  });

  it('refuses, never cuts, a micros value past the years a timestamp(3) holds; reads it at micros', async () => {
    await duckTable(`SELECT 1::BIGINT AS i, TIMESTAMP '200000-01-01 00:00:00.000001' AS u`);
    const refused = await lake.failure('SELECT CAST(u AS varchar) FROM lake.default.d');
    expect(refused.name).to.equal('NOT_SUPPORTED');
    expect(refused.message).to.contain('timestamp(0..3) outside');
    await lake.harness.query("SET SESSION lake.timestamp_precision = 'MICROSECONDS'");
    expect(await lake.rows('SELECT CAST(u AS varchar) FROM lake.default.d')).to.deep.equal([['+200000-01-01 00:00:00.000001']]);
  });

  it("CREATE TABLE and CTAS take the catalog's precision only (Trino's message); INSERT rounds to it; a table reads at the session's", async () => {
    const refused = async (sql: string) => {
      const e = await lake.failure(sql);
      return [e.name, e.message];
    };
    expect(await refused('CREATE TABLE lake.default.t (ts timestamp(6))')).to.deep.equal([
      'NOT_SUPPORTED',
      'Incorrect timestamp precision for timestamp(6); the configured precision is MILLISECONDS; column name: ts',
    ]);
    expect(await refused("CREATE TABLE lake.default.t AS SELECT ARRAY[TIMESTAMP '2020-01-01 00:00:00.123456'] AS a")).to.deep.equal([
      'NOT_SUPPORTED',
      'Incorrect timestamp precision for timestamp(6); the configured precision is MILLISECONDS; column name: a',
    ]);
    await lake.harness.query('CREATE TABLE lake.default.t (i bigint, ts timestamp(3))');
    await lake.harness.query(
      "INSERT INTO lake.default.t VALUES (1, TIMESTAMP '2020-01-01 00:00:00.123500'), (2, TIMESTAMP '1969-12-31 23:59:59.999499'), (3, TIMESTAMP '1000-02-28 23:59:59.9995')",
    );
    const written = `read_parquet('${lake.path('catalog/default/t')}/q*')`;
    // The file holds the rounded millis (DuckDB reads them), as Trino's INSERT casts to the column's type.
    expect(await duckDbRows(`SELECT i, strftime(ts, '%Y-%m-%d %H:%M:%S.%f') FROM ${written} ORDER BY i`)).to.deep.equal([
      ['1', '2020-01-01 00:00:00.124000'],
      ['2', '1969-12-31 23:59:59.999000'],
      ['3', '1000-03-01 00:00:00.000000'],
    ]);
    await lake.harness.query("SET SESSION lake.timestamp_precision = 'MICROSECONDS'");
    await lake.harness.query('CREATE TABLE lake.default.u (i bigint, ts timestamp(6))');
    await lake.harness.query("INSERT INTO lake.default.u VALUES (1, TIMESTAMP '2020-01-01 00:00:00.1234995')");
    expect(await lake.rows('SELECT typeof(ts), CAST(ts AS varchar) FROM lake.default.t WHERE i = 1')).to.deep.equal([
      ['timestamp(6)', '2020-01-01 00:00:00.124000'],
    ]);
    // A column created at micros reads at the session's millis, rounded (Hive's metastore keeps no precision).
    await lake.harness.query('RESET SESSION lake.timestamp_precision');
    expect(await lake.rows('SELECT typeof(ts), CAST(ts AS varchar) FROM lake.default.u')).to.deep.equal([
      ['timestamp(3)', '2020-01-01 00:00:00.124'],
    ]);
  });

  it('writes timestamp(9) as Parquet nanoseconds at NANOSECONDS (DuckDB reads the same digits); refuses years an int64 of nanos cannot hold', async () => {
    await lake.harness.query("SET SESSION lake.timestamp_precision = 'NANOSECONDS'");
    await lake.harness.query(
      "CREATE TABLE lake.default.n AS SELECT * FROM (VALUES (1, TIMESTAMP '1700-01-01 00:00:00.000000001'), (2, TIMESTAMP '2262-04-10 23:47:16.854775807')) v(i, ts)",
    );
    expect(await lake.rows('SELECT typeof(ts), CAST(ts AS varchar) FROM lake.default.n ORDER BY i')).to.deep.equal([
      ['timestamp(9)', '1700-01-01 00:00:00.000000001'],
      ['timestamp(9)', '2262-04-10 23:47:16.854775807'],
    ]);
    const file = `read_parquet('${lake.path('catalog/default/n')}/q*')`;
    expect(await duckDbRows(`SELECT typeof(ts), epoch_ns(ts)::VARCHAR FROM ${file} ORDER BY i`)).to.deep.equal(
      await duckDbRows(
        "SELECT 'TIMESTAMP_NS', epoch_ns(CAST(t AS TIMESTAMP_NS))::VARCHAR FROM (VALUES (1, '1700-01-01 00:00:00.000000001'), (2, '2262-04-10 23:47:16.854775807')) v(i, t) ORDER BY i",
      ),
    );
    const beyond = await lake.failure("INSERT INTO lake.default.n VALUES (3, TIMESTAMP '2262-04-11 23:47:16.854775808')");
    expect([beyond.name, beyond.message]).to.deep.equal([
      'NOT_SUPPORTED',
      'Timestamp 2262-04-11 23:47:16.854775808 is outside the range a Parquet file holds in nanoseconds (years 1677..2262)',
    ]);
  });

  it('takes the catalog property, shows the session property, and refuses bad values naming them', async () => {
    const catalogDir = `file://${join(lake.root, 'catalog')}/`;
    const micros = new HiveConnector(
      'micro',
      lakeConfig('micro', { 'hive.metastore.catalog.dir': catalogDir, 'hive.timestamp-precision': 'MICROSECONDS' }),
    );
    lake.harness.catalogs.register('micro', micros);
    await duckTable(`SELECT TIMESTAMP '2024-01-02 03:04:05.123456' AS u`);
    expect(await lake.rows('SELECT CAST(u AS varchar) FROM micro.default.d')).to.deep.equal([['2024-01-02 03:04:05.123456']]);
    expect(await lake.rows('SELECT CAST(u AS varchar) FROM lake.default.d')).to.deep.equal([['2024-01-02 03:04:05.123']]);
    const shown = (await lake.rows('SHOW SESSION')).filter((r) => String(r[0]).endsWith('.timestamp_precision'));
    expect(shown.map((r) => r.slice(0, 4))).to.deep.equal([
      ['lake.timestamp_precision', 'MILLISECONDS', 'MILLISECONDS', 'varchar'],
      ['micro.timestamp_precision', 'MICROSECONDS', 'MICROSECONDS', 'varchar'],
    ]);
    expect(() => lakeConfig('bad', { 'hive.metastore.catalog.dir': catalogDir, 'hive.timestamp-precision': 'SECONDS' })).to.throw(
      "Catalog 'bad': hive.timestamp-precision must be one of MILLISECONDS, MICROSECONDS, NANOSECONDS, got 'SECONDS'",
    );
    const bad = await lake.failure("SET SESSION lake.timestamp_precision = 'PICOSECONDS'");
    expect(bad.name).to.equal('INVALID_SESSION_PROPERTY');
    expect(bad.message).to.contain('MILLISECONDS, MICROSECONDS, NANOSECONDS');
  });
});
