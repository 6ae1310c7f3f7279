// Decimal arithmetic and sums at the edges of the fast paths: sums held in a double while exact and
// moved to a bigint past 2^53, long decimals (precision > 18, stored as bigints) summed through the
// same double fast path, and operators whose result precision cannot overflow computed without a
// check. Read from Parquet files DuckDB writes (several row groups, NULLs, dictionary and plain
// pages) and checked against DuckDB on the same file.

import { expect } from 'chai';
import { LakeFixture, duckDbRows } from '../connectors/lake/lake-fixture.js';

const SAFE = 2n ** 53n - 1n;

/** Values around ±2^53 and 20-digit ones, a NULL, and small ones, for row i (DuckDB SQL). */
const EDGE_VALUE = `CASE i % 8
  WHEN 0 THEN ${SAFE} WHEN 1 THEN -${SAFE} WHEN 2 THEN ${SAFE + 2n} WHEN 3 THEN NULL
  WHEN 4 THEN i WHEN 5 THEN -(i * 1000003) WHEN 6 THEN 99999999999999999999 ELSE -99999999999999999998 END`;

describe('exact decimal sums and arithmetic over Parquet, against DuckDB', function () {
  this.timeout(60_000);
  let lake: LakeFixture;

  before(async () => {
    lake = LakeFixture.create();
    const path = lake.file('data/edges/a.parquet', '');
    await duckDbRows(
      `COPY (SELECT i % 5 g, (${EDGE_VALUE})::DECIMAL(20,0) x, ((i * 7919) % 10000000 / 100)::DECIMAL(12,2) a,
        (CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 100) / 100 END)::DECIMAL(12,2) b, (i % 9)::DECIMAL(15,2) d
        FROM range(20000) r(i)) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 4096)`,
    );
    await lake.harness.query(`CREATE TABLE lake.default.edges WITH (external_location = '${lake.uri('data/edges')}')`);
  });
  after(() => lake.remove());

  const compare = async (select: string) => {
    const sql = (from: string) => `SELECT g, ${select} FROM ${from} GROUP BY g ORDER BY g`;
    expect(await lake.rows(sql('lake.default.edges'))).to.deep.equal(
      await duckDbRows(sql(`read_parquet('${lake.path('data/edges/a.parquet')}')`)),
    );
  };

  it('sums a decimal(20,0) across ±2^53 and 20-digit values exactly, NULLs skipped', async () => {
    await compare('CAST(sum(x) AS varchar), count(x)');
  });

  it('sums long products (decimal(24,4)) and short differences exactly', async () => {
    await compare('CAST(sum(a * b) AS varchar), CAST(sum(a - b) AS varchar), CAST(sum((1 - b) * a * (1 + d)) AS varchar)');
  });

  it('sums the values of one sign past 2^53 within a group', async () => {
    await compare(`CAST(sum(CASE WHEN x > 0 THEN x END) AS varchar), CAST(sum(CASE WHEN x < 0 THEN x END) AS varchar)`);
  });

  it('computes unchecked products and sums row by row as DuckDB does', async () => {
    const sql = (from: string) =>
      `SELECT CAST(a * b AS varchar), CAST(a - b AS varchar), CAST(1 - b AS varchar), CAST(a + d AS varchar) FROM ${from} ORDER BY a, b NULLS FIRST, d LIMIT 50`;
    expect(await lake.rows(sql('lake.default.edges'))).to.deep.equal(
      await duckDbRows(sql(`read_parquet('${lake.path('data/edges/a.parquet')}')`)),
    );
  });

  it('moves a value past 2^53 into the exact sum even when the running sum would bring it back in range', async () => {
    // -(2^53 - 1) + (2^53 + 1) is 2; in doubles 2^53 + 1 rounds to 2^53 and the sum would be 1.
    const path = lake.file('data/pair/a.parquet', '');
    await duckDbRows(
      `COPY (SELECT * FROM (VALUES (1, -${SAFE}::DECIMAL(20,0)), (2, ${SAFE + 2n}::DECIMAL(20,0))) t(k, x) ORDER BY k) TO '${path}' (FORMAT PARQUET)`,
    );
    await lake.harness.query(`CREATE TABLE lake.default.pair WITH (external_location = '${lake.uri('data/pair')}')`);
    expect(await lake.rows('SELECT CAST(sum(x) AS varchar), CAST(sum(x * 1) AS varchar) FROM lake.default.pair')).to.deep.equal([
      ['2', '2'],
    ]);
  });

  it('sums long decimals beyond int64 whose low 64 bits are small (read through an int64 slot) exactly', async () => {
    // 2^64 + 5, -2^64 + 3, 2^63 and 2^65 + 7 wrap in an int64 to 5, 3, -2^63 and 7.
    const values = [2n ** 64n + 5n, -(2n ** 64n) + 3n, 2n ** 63n, 2n ** 65n + 7n, 11n];
    const path = lake.file('data/wide/a.parquet', '');
    const rows = values.map((v, i) => `(${i % 2}, ${v}::DECIMAL(20,0))`).join(', ');
    await duckDbRows(`COPY (SELECT * FROM (VALUES ${rows}) t(g, x)) TO '${path}' (FORMAT PARQUET)`);
    await lake.harness.query(`CREATE TABLE lake.default.wide WITH (external_location = '${lake.uri('data/wide')}')`);
    const sql = (from: string) => `SELECT g, CAST(sum(x) AS varchar) FROM ${from} GROUP BY g ORDER BY g`;
    expect(await lake.rows(sql('lake.default.wide'))).to.deep.equal(await duckDbRows(sql(`read_parquet('${path}')`)));
    // avg of a decimal is a decimal of its type in Trino (HALF_UP), a double in DuckDB: checked by hand.
    expect(await lake.rows('SELECT g, CAST(avg(x) AS varchar) FROM lake.default.wide GROUP BY g ORDER BY g')).to.deep.equal([
      [0, '9223372036854775813'], // 27670116110564327440 / 3
      [1, '9223372036854775813'], // 18446744073709551626 / 2
    ]);
  });

  it('still fails a product capped at 38 digits that overflows, and a sum past 38 digits', async () => {
    expect(await lake.failure('SELECT sum(x * x * x) FROM lake.default.edges')).to.deep.equal({
      name: 'NUMERIC_VALUE_OUT_OF_RANGE',
      message: 'Decimal overflow',
    });
    const huge = `CAST('${'9'.repeat(38)}' AS decimal(38,0))`;
    expect(
      await lake.failure(
        `SELECT sum(CAST(x AS decimal(38,0)) + ${huge} - ${huge} + (CASE WHEN x > 0 THEN ${huge} ELSE 0 END)) FROM lake.default.edges`,
      ),
    ).to.deep.equal({
      name: 'NUMERIC_VALUE_OUT_OF_RANGE',
      message: 'Decimal overflow',
    });
  });
});
