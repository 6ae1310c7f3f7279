// Group-by and DISTINCT tables on buffers reused from the pool (buffer-pool.ts): every query runs
// twice, the second on buffers the first gave back with its keys still in them, on the worker
// threads and on the main thread, and every run gives DuckDB's rows — NULL keys, hundreds of thousands of groups crossing the table's growth, empty input.

import { expect } from 'chai';
import { bufferPool } from '../../src/exec/buffer-pool.js';
import { EngineAndDuckDb } from '../support/engine-and-duckdb.js';

/** 500,000 rows; k has about 300,000 values and NULLs, k2 with k1 about 600,000 pairs. */
const SETUP = [
  'CREATE TABLE digits (d bigint)',
  'INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)',
  `CREATE TABLE t AS SELECT
     CASE WHEN x % 997 = 0 THEN NULL ELSE (x * 7919) % 300000 END AS k,
     x % 1000 AS k1,
     CASE WHEN x % 1009 = 0 THEN NULL ELSE x % 613 END AS k2,
     x % 17 AS v
   FROM (SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d + 100000 * g.d AS x
         FROM digits a, digits b, digits c, digits e, digits f, digits g WHERE g.d < 5) s`,
];

const QUERIES = [
  'SELECT k, count(*), sum(v) FROM t GROUP BY k',
  'SELECT count(*), sum(c), sum(k * c), count(k) FROM (SELECT k1, k2, k1 * 1000 + coalesce(k2, 999) AS k, count(*) AS c FROM t GROUP BY k1, k2) g',
  'SELECT count(*), count(k), sum(k) FROM (SELECT DISTINCT k FROM t) d',
  'SELECT k1, count(DISTINCT k) FROM t GROUP BY k1',
  'SELECT k, count(*) FROM t WHERE v < 0 GROUP BY k',
];

describe('hash tables on pooled buffers, against DuckDB', function () {
  this.timeout(600_000);
  let both: EngineAndDuckDb;

  before(async () => {
    both = await EngineAndDuckDb.open();
    await both.runOnBoth(...SETUP);
  });

  after(() => both.close());

  for (const sql of QUERIES) {
    it(`${sql}: DuckDB's rows, on fresh and on reused buffers, on the worker threads and on the main thread`, async () => {
      both.engine.session.properties.delete('task_concurrency');
      const first = await both.expectSame(sql);
      expect(await both.expectSame(sql)).to.deep.equal(first);
      // One thread: the tables live in this (the main) thread, whose pool the test can watch.
      both.engine.session.properties.set('task_concurrency', '1');
      expect(await both.expectSame(sql)).to.deep.equal(first);
      const reusesBefore = bufferPool().counts.reuses;
      expect(await both.expectSame(sql)).to.deep.equal(first);
      if (!sql.includes('v < 0')) expect(bufferPool().counts.reuses).to.be.greaterThan(reusesBefore);
    });
  }
});
