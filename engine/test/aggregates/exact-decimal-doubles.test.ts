// Decimal arithmetic and sums held as exact doubles (exact-decimals.ts, exact-decimal-kernel.ts) give
// DuckDB's answers, on worker threads (partial sums cross to the main thread as doubles) and in the
// main thread: q01's products, pages where a row leaves the double range (18-digit operands, products
// past 2^53) and go to the bigint kernel, sums that carry past 2^53 in some groups of a page and not
// in others, NULLs, groups left empty by FILTER, and a decimal(38) sum that overflows.

import { expect } from 'chai';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { divideRoundHalfUp } from '../../src/types/decimal.js';
import type { EngineError } from '../../src/errors/engine-error.js';
import { EngineAndDuckDb } from '../support/engine-and-duckdb.js';
import { DIGITS, ID, IN_WORKERS, SIX_DIGITS, rowsWith } from '../parallel/parallel-helpers.js';

/** A decimal(12,2) from integer parts (text on both sides: no decimal arithmetic makes the table). */
const cents = (whole: string, hundredths: string) =>
  `CAST(CAST(${whole} AS varchar) || '.' || CAST(${hundredths} AS varchar) AS decimal(12,2))`;

// DuckDB keeps a product of decimal(18) operands in decimal(18) and fails past it: the 18-digit
// operands are cast wider first, giving both the same types.

/**
 * 200,000 rows over several splits: `g` 7 groups and `k` 5,003 (k % 7 = g); `a` around ±3,000,000.00
 * and `b` in 0.10..0.99, both with NULLs; `big` decimal(18,0) with ±(10^18 - 1) and 2^53 + 1 among
 * the first 3,000 rows only (their pages leave the doubles, later pages stay); `m` 9 * 10^14 + id in
 * group 0 (its sums pass 2^53 within a few rows) and id elsewhere.
 */
const ROWS = `SELECT id, k, k % 7 AS g,
    CASE WHEN id % 13 = 0 THEN NULL ELSE ${cents('id * 7919 % 6000000 - 3000000', '10 + id % 90')} END AS a,
    CASE WHEN id % 11 = 0 THEN NULL ELSE ${cents('0', '10 + id % 90')} END AS b,
    CAST(CASE WHEN id < 3000 AND id % 50 = 0 THEN '999999999999999999' WHEN id < 3000 AND id % 50 = 1 THEN '-999999999999999999'
      WHEN id < 3000 AND id % 50 = 2 THEN '9007199254740993' ELSE CAST(id * 1009 AS varchar) END AS decimal(18,0)) AS big,
    CAST(CASE WHEN k % 7 = 0 THEN 900000000000000 + id ELSE id END AS decimal(18,0)) AS m
  FROM (SELECT id, id % 5003 AS k FROM (SELECT ${ID} AS id FROM ${SIX_DIGITS} WHERE f.x < 2) t) u`;

const Q01_SUMS = `CAST(sum(a) AS varchar), CAST(sum(a * (1 - b)) AS varchar), CAST(sum(a * (1 - b) * (1 + b)) AS varchar),
  CAST(sum(CAST(big AS decimal(20,0)) * b) AS varchar), CAST(sum(m) AS varchar), count(*)`;

const WHERE = { 'worker threads': IN_WORKERS, 'the main thread': { parallel_min_splits: '0' } };

describe('decimal arithmetic and sums in exact doubles against DuckDB', function () {
  this.timeout(600_000);
  let both: EngineAndDuckDb;

  before(async () => {
    both = await EngineAndDuckDb.open();
    both.engine.session.catalog = 'memory';
    both.engine.session.schema = 'default';
    await both.runOnBoth(`CREATE TABLE digits AS ${DIGITS}`, `CREATE TABLE dec_rows AS ${ROWS}`);
  });
  after(() => both?.close());

  const expectSame = async (sql: string, properties: Record<string, string>) => {
    const ours = await rowsWith(both.engine, sql, properties);
    const theirs = await duckRows(both.duck, sql);
    expect(ours.length).to.be.greaterThan(0);
    expect(ours.map(String)).to.deep.equal(theirs.map(String), sql);
  };

  const failureWith = async (sql: string, properties: Record<string, string>): Promise<EngineError> => {
    const saved = new Map(both.engine.session.properties);
    for (const [name, value] of Object.entries(properties)) both.engine.session.properties.set(name, value);
    try {
      return await both.engine.failure(sql);
    } finally {
      both.engine.session.properties.clear();
      for (const [name, value] of saved) both.engine.session.properties.set(name, value);
    }
  };

  for (const [where, properties] of Object.entries(WHERE)) {
    describe(`on ${where}`, () => {
      it("sums q01's products, 18-digit products and sums carrying past 2^53 per group", async () => {
        await expectSame(`SELECT g, ${Q01_SUMS} FROM dec_rows GROUP BY g ORDER BY g`, properties);
      });

      it('sums products of a selective filter (its small pages compacted before the sum, as q15)', async () => {
        await expectSame(
          `SELECT g, CAST(sum(a * (1 - b)) AS varchar), CAST(sum(a * k) AS varchar) FROM dec_rows WHERE id % 53 = 0 OR id BETWEEN 1000 AND 1010
             GROUP BY g ORDER BY g`,
          properties,
        );
      });

      it('sums over 5,003 groups, some past 2^53 and some not within a page of partial sums', async () => {
        await expectSame(`SELECT k, ${Q01_SUMS} FROM dec_rows GROUP BY k ORDER BY k`, properties);
      });

      it('computes the products and sums of each row, past 2^53 and near 10^18 too', async () => {
        await expectSame(
          `SELECT id, CAST(a * (1 - b) AS varchar), CAST(CAST(big AS decimal(20,0)) * b AS varchar),
             CAST(CAST(big AS decimal(20,0)) + a AS varchar), CAST(CAST(big AS decimal(19,0)) * CAST(big AS decimal(19,0)) AS varchar),
             CAST(CAST(m AS decimal(20,0)) * a - big AS varchar) FROM dec_rows WHERE id < 3000 OR id % 97 = 0 ORDER BY id`,
          properties,
        );
      });

      it('casts integers and decimals to decimals on the way (q11: a decimal times an integer)', async () => {
        await expectSame(
          `SELECT id, CAST(b * id AS varchar), CAST(a * k - id AS varchar), CAST(CAST(a AS decimal(10,2)) + 1 AS varchar),
             CAST(CAST(b AS decimal(20,4)) * a AS varchar) FROM dec_rows WHERE id % 89 = 0 ORDER BY id`,
          properties,
        );
        await expectSame(
          `SELECT g, CAST(sum(a * k) AS varchar), CAST(sum(b * id) AS varchar) FROM dec_rows GROUP BY g ORDER BY g`,
          properties,
        );
      });

      it('fails a cast to a precision that does not hold the value', async () => {
        const error = await failureWith('SELECT CAST(a AS decimal(8,2)) + 1 FROM dec_rows', properties);
        expect(error.errorName).to.equal('INVALID_CAST_ARGUMENT'); // as Trino fails such a cast
      });

      it('gives NULL for groups without a value (FILTER, all NULL)', async () => {
        await expectSame(
          `SELECT g, CAST(sum(a * b) FILTER (WHERE b > 5) AS varchar), CAST(sum(a - b) FILTER (WHERE a IS NULL) AS varchar),
             CAST(sum(a * (1 - b)) FILTER (WHERE id % 7 = 1) AS varchar) FROM dec_rows GROUP BY g ORDER BY g`,
          properties,
        );
      });

      it('averages as Trino does: the exact sum divided HALF_UP, per group', async () => {
        const sums = await duckRows(both.duck, 'SELECT k, CAST(sum(a) AS varchar), count(a) FROM dec_rows GROUP BY k ORDER BY k');
        const expected = sums.map(([k, sum, count]) => {
          const unscaled = BigInt(String(sum).replace('.', ''));
          const average = divideRoundHalfUp(unscaled, BigInt(String(count)));
          const digits = (average < 0n ? -average : average).toString().padStart(3, '0');
          return `${k},${average < 0n ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
        });
        const ours = await rowsWith(both.engine, 'SELECT k, CAST(avg(a) AS varchar) FROM dec_rows GROUP BY k ORDER BY k', properties);
        expect(ours.map(String)).to.deep.equal(expected);
      });

      it('filters sums in HAVING (q18), group 0 past 2^53 and some exactly at the bound', async () => {
        await expectSame(
          `SELECT k, CAST(sum(m) AS varchar), CAST(sum(a) AS varchar) FROM dec_rows GROUP BY k
             HAVING sum(m) > 2000000 AND sum(a) <= 150000000.00 ORDER BY k`,
          properties,
        );
        const bound = await duckRows(both.duck, 'SELECT CAST(sum(a) AS varchar) FROM dec_rows WHERE k = 17');
        await expectSame(
          `SELECT k, CAST(sum(a) AS varchar) FROM dec_rows GROUP BY k HAVING sum(a) >= ${bound[0][0]} ORDER BY k`,
          properties,
        );
        await expectSame(`SELECT k FROM dec_rows GROUP BY k HAVING sum(a) = ${bound[0][0]} OR k = 1 ORDER BY k`, properties);
        await expectSame(`SELECT k FROM dec_rows GROUP BY k HAVING sum(m) >= 9007199254740992 ORDER BY k`, properties);
      });

      it('filters rows on decimal comparisons and BETWEEN, of products, across scales and with NULLs', async () => {
        await expectSame(
          `SELECT id FROM dec_rows WHERE a * (1 - b) > 1000.5 AND b BETWEEN 0.25 AND 0.75 AND a <> 0 AND a >= b ORDER BY id`,
          properties,
        );
        await expectSame(
          `SELECT id FROM dec_rows WHERE CAST(a AS decimal(16,4)) < b * 3 OR CAST(big AS decimal(19,0)) = 9007199254740993 ORDER BY id`,
          properties,
        );
        await expectSame(`SELECT id FROM dec_rows WHERE big BETWEEN 9007199254740992 AND 999999999999999999 ORDER BY id`, properties);
        await expectSame(`SELECT count(*) FROM dec_rows WHERE a IS NULL OR NOT (a > 0)`, properties);
      });

      it('fails a decimal(38) sum that overflows with NUMERIC_VALUE_OUT_OF_RANGE', async () => {
        const error = await failureWith(
          `SELECT sum(big * CAST('99999999999999999999' AS decimal(20,0))) FROM dec_rows WHERE big > 0`,
          properties,
        );
        expect([error.errorName, error.rawMessage]).to.deep.equal(['NUMERIC_VALUE_OUT_OF_RANGE', 'Decimal overflow']);
      });
    });
  }
});
