import { expect } from 'chai';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, IN_MAIN_THREAD, IN_WORKERS, createBigTable, expectSameResults, rowsWith } from './parallel-helpers.js';

describe('parallel execution: same results as in the main thread', () => {
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
  });

  describe('scans with filters and projections', () => {
    it('filters and projects every column type', async () => {
      const rows = await expectSameResults(h, 'SELECT id, s, price, big_price, n, flag, dbl, day, bytes FROM big WHERE abs(id) % 997 = 3');
      expect(rows.length).to.equal(Math.ceil((BIG_ROWS - 3) / 997));
    });

    it('computes expressions and keeps NULLs', async () => {
      await expectSameResults(
        h,
        "SELECT id * 2 + 1, upper(s) || '!', price * 3, n + 1, NOT flag, dbl / 2, day, length(bytes) FROM big WHERE n IS NULL AND id < 50000",
      );
    });

    it('filters on strings, decimals and dates', async () => {
      await expectSameResults(h, "SELECT id, s FROM big WHERE s LIKE '3-%' AND price > 1.00 AND day < DATE '2020-02-15'");
    });

    it('reads every other storage kind from shared memory in the workers', async () => {
      await h.run(`CREATE TABLE typed AS SELECT id,
        CAST(id % 100 AS tinyint) AS t, CAST(id % 1000 AS smallint) AS sm, CAST(id AS bigint) * 1000000 AS bg, CAST(id AS real) / 4 AS r,
        CAST(s AS char(5)) AS c, CAST(day AS timestamp(3)) + INTERVAL '1' HOUR AS ts, TIME '12:34:56.789' AS tm,
        INTERVAL '3' MONTH AS ym, INTERVAL '2' DAY AS ds FROM big`);
      expect(
        (await expectSameResults(h, 'SELECT id, t, sm, bg, r, c, ts, tm, ym, ds FROM typed WHERE abs(id) % 5000 = 1')).length,
      ).to.equal(BIG_ROWS / 5000);
      await expectSameResults(h, 'SELECT c, max(ts), min(t), sum(sm), sum(bg), max(r), max(tm), sum(ym), sum(ds) FROM typed GROUP BY c');
    });

    it('returns nothing when no row passes', async () => {
      expect(await expectSameResults(h, 'SELECT id FROM big WHERE abs(id) < 0')).to.deep.equal([]);
    });

    it('orders the rows the workers produce', async () => {
      const rows = await expectSameResults(h, 'SELECT id, s FROM big WHERE abs(id) % 1000 = 999 ORDER BY id DESC');
      expect(rows[0]).to.deep.equal([BIG_ROWS - 1, '9-9']);
    });

    it('joins a parallel scan with a small table', async () => {
      await expectSameResults(h, 'SELECT b.id, d.x FROM big b JOIN digits d ON b.n = d.x WHERE abs(b.id) % 5000 = 1');
    });
  });

  describe('partial and final aggregation', () => {
    it('counts rows and values, sums decimals and averages', async () => {
      const rows = await expectSameResults(
        h,
        'SELECT count(*), count(n), sum(price), sum(big_price), avg(price), avg(id), sum(dbl) FROM big',
      );
      expect(rows[0][0]).to.equal(BigInt(BIG_ROWS));
      expect(rows[0][1]).to.equal(BigInt((BIG_ROWS * 9) / 10));
    });

    it('groups by strings with min/max of strings, count_if and approx_distinct', async () => {
      const rows = await expectSameResults(
        h,
        'SELECT s, count(*), min(s), max(CAST(id AS varchar)), count_if(flag), approx_distinct(id), max(day), min(price) FROM big GROUP BY s ORDER BY s',
      );
      expect(rows.length).to.equal(100);
    });

    it('groups by several keys, with NULL keys, FILTER and HAVING', async () => {
      await expectSameResults(
        h,
        "SELECT n, flag, count(*), sum(id) FILTER (WHERE s > '5'), bool_and(flag), arbitrary(n IS NULL) FROM big WHERE id % 3 = 0 GROUP BY n, flag HAVING count(*) > 10",
      );
    });

    it('merges floating-point states (variance, geometric mean) to the same values up to rounding', async () => {
      const sql = 'SELECT n, var_pop(id), stddev_samp(id), geometric_mean(id + 1) FROM big GROUP BY n ORDER BY n';
      const local = await rowsWith(h, sql, IN_MAIN_THREAD);
      const parallel = await rowsWith(h, sql, IN_WORKERS);
      expect(parallel.length).to.equal(11);
      parallel.forEach((row, r) => {
        expect(row[0]).to.equal(local[r][0]);
        for (let c = 1; c < row.length; c++)
          expect(row[c] as number).to.be.closeTo(local[r][c] as number, Math.abs(local[r][c] as number) * 1e-12);
      });
    });

    it('aggregates an empty input as one row (global) or none (grouped)', async () => {
      expect(await expectSameResults(h, 'SELECT count(*), sum(price), max(s), approx_distinct(id) FROM big WHERE id < 0')).to.deep.equal([
        [0n, null, null, 0n],
      ]);
      expect(await expectSameResults(h, 'SELECT s, count(*) FROM big WHERE id < 0 GROUP BY s')).to.deep.equal([]);
    });

    it('runs SELECT DISTINCT as partial and final grouping', async () => {
      expect((await expectSameResults(h, 'SELECT DISTINCT n, flag FROM big')).length).to.equal(21);
    });

    it('runs DISTINCT aggregates over rows grouped (or marked distinct) first, reading in parallel', async () => {
      const rows = await expectSameResults(h, 'SELECT count(DISTINCT s), sum(DISTINCT n), count(*) FROM big WHERE abs(id) % 2 = 0');
      expect(rows).to.deep.equal([[100n, 45n, BigInt(BIG_ROWS / 2)]]);
    });

    it('aggregates in subqueries and over grouped subqueries', async () => {
      await expectSameResults(h, 'SELECT max(c), min(c) FROM (SELECT s, count(*) AS c FROM big GROUP BY s)');
      await expectSameResults(h, 'SELECT id FROM big WHERE abs(id) % 10000 = 7 AND price = (SELECT max(price) FROM big)');
    });
  });

  describe('generated tables (tpch)', () => {
    it('generates, filters and aggregates tpch pages in worker threads', async () => {
      await expectSameResults(
        h,
        'SELECT n_regionkey, count(*), min(n_name), max(n_comment) FROM tpch.tiny.nation GROUP BY n_regionkey ORDER BY 1',
      );
      await expectSameResults(
        h,
        "SELECT n_name, r_name FROM tpch.tiny.nation JOIN tpch.tiny.region ON n_regionkey = r_regionkey WHERE n_name LIKE '%A%'",
      );
    });
  });

  describe('when worker threads are used', () => {
    const tasksStarted = () => sharedThreadPool().stats().tasksStarted;

    it('keeps a table of one split in the main thread by default', async () => {
      await h.run('CREATE TABLE small AS SELECT * FROM big WHERE id < 1000');
      const sql = 'SELECT count(*), sum(price) FROM small WHERE flag';
      const before = tasksStarted();
      const rows = await h.rows(sql);
      expect(tasksStarted()).to.equal(before);
      expect(rows).to.deep.equal(await rowsWith(h, sql, IN_MAIN_THREAD));
      expect(rows[0][0]).to.equal(500n);
    });

    it('sends a table of several splits to the workers by default', async () => {
      const before = tasksStarted();
      const rows = await h.rows('SELECT count(*) FROM big WHERE flag');
      expect(rows).to.deep.equal([[BigInt(BIG_ROWS / 2)]]);
      expect(tasksStarted()).to.be.greaterThan(before);
    });

    it('reads a memory table in the main thread when workers would mostly move rows', async () => {
      const before = tasksStarted();
      expect((await rowsWith(h, 'SELECT id, s FROM big', IN_WORKERS)).length).to.equal(BIG_ROWS);
      expect((await rowsWith(h, "SELECT id, s FROM big WHERE id % 2 = 0 AND s <> 'x'", IN_WORKERS)).length).to.equal(BIG_ROWS / 2);
      expect((await rowsWith(h, 'SELECT id + 1, dbl * 2 FROM big WHERE flag', IN_WORKERS)).length).to.equal(BIG_ROWS / 2);
      expect(tasksStarted()).to.equal(before);
    });

    it('sends filters and projections that cost more than moving their rows to the workers', async () => {
      for (const sql of [
        "SELECT id FROM big WHERE s LIKE '%-3'",
        'SELECT upper(s) FROM big WHERE flag',
        'SELECT id FROM big WHERE big_price > 123456789012345678905.00',
      ]) {
        const before = tasksStarted();
        await rowsWith(h, sql, IN_WORKERS);
        expect(tasksStarted(), sql).to.be.greaterThan(before);
      }
    });

    it('uses no worker when parallel_min_splits is 0, and plans single aggregations then', async () => {
      const before = tasksStarted();
      const plan = (await rowsWith(h, 'EXPLAIN SELECT s, count(*) FROM big GROUP BY s', IN_MAIN_THREAD))[0][0] as string;
      expect(plan).to.match(/Aggregate\(SINGLE\)/);
      await rowsWith(h, 'SELECT s, count(*) FROM big GROUP BY s', IN_MAIN_THREAD);
      expect(tasksStarted()).to.equal(before);
    });

    it('runs two parallel queries at once', async () => {
      const [a, b] = await Promise.all([
        rowsWith(h, 'SELECT count(*), sum(id) FROM big WHERE flag', IN_WORKERS),
        rowsWith(h, 'SELECT s, count(*) FROM big WHERE NOT flag GROUP BY s ORDER BY s LIMIT 2', IN_WORKERS),
      ]);
      expect(a).to.deep.equal([[BigInt(BIG_ROWS / 2), 9999900000n]]);
      expect(b).to.deep.equal([
        ['0-0', 1000n],
        ['0-1', 1000n],
      ]);
    });

    it('reports EXPLAIN ANALYZE over worker threads', async () => {
      const text = (await rowsWith(h, 'EXPLAIN ANALYZE SELECT count(*) FROM big WHERE flag', IN_WORKERS))[0][0] as string;
      expect(text).to.match(/splits: 4, input: 200000 rows/);
      expect(text).to.match(/Aggregate\(FINAL\)/);
    });
  });
});
