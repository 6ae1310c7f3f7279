// Window functions with PARTITION BY over a table of several splits, run on the worker threads
// (EXPLAIN: LocalExchange[GATHER] over ParallelWindow over a HASH exchange on the partition keys),
// give DuckDB's rows on the same table: ranking (row_number, rank, dense_rank, ntile, percent_rank,
// cume_dist), value functions (lag/lead with defaults, first/last/nth_value), aggregates over ROWS
// and RANGE frames (interval offsets too), several windows of different partitions in one query,
// NULL partition keys, strings and decimals as keys and values, an empty input; parallel_window off
// gives the same rows from the main thread; a window over the memory limit fails as such.

import { expect } from 'chai';
import { EngineError } from '../../src/errors/engine-error.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import { EngineAndDuckDb, sortedRowTexts } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import type { Scalar } from '../../src/types/scalar.js';
import { formatValueAsText } from '../../src/types/values.js';
import { DIGITS, ID, IN_WORKERS, rowsWith, SIX_DIGITS, useThreadsOnMemory, workersIdle } from './parallel-helpers.js';

/** 200,000 rows, `id` unique; partition keys with NULLs (`g`, `s`), decimals, dates, doubles exact in any order. */
const WINDOW_ROWS = `SELECT id,
    CASE WHEN id % 17 = 0 THEN NULL ELSE CAST(id % 1000 AS integer) END AS g,
    CASE id % 7 WHEN 0 THEN NULL WHEN 1 THEN '' ELSE 'k' || CAST(id % 211 AS varchar) END AS s,
    CASE WHEN id % 10 = 0 THEN NULL ELSE CAST((id % 401 - 200) * 0.125 AS decimal(12,3)) END AS d,
    CAST(DATE '2020-01-01' + INTERVAL '1' DAY * (id % 97) AS date) AS day,
    CAST(id % 64 AS double) / 8 AS dbl,
    CAST(id % 13 AS integer) AS k
  FROM (SELECT ${ID} AS id FROM ${SIX_DIGITS} WHERE f.x < 2) t`;

/** Queries of windows over window_rows, each to give DuckDB's rows (as a set). */
const QUERIES: Record<string, string> = {
  'ranking functions': `SELECT id, row_number() OVER (PARTITION BY g ORDER BY id),
      rank() OVER (PARTITION BY g ORDER BY k), dense_rank() OVER (PARTITION BY g ORDER BY k DESC),
      ntile(4) OVER (PARTITION BY g ORDER BY id), percent_rank() OVER (PARTITION BY g ORDER BY k),
      cume_dist() OVER (PARTITION BY g ORDER BY k) FROM window_rows`,
  'lag and lead with offsets and defaults': `SELECT id, lag(d) OVER (PARTITION BY s ORDER BY id),
      lag(id, 3, -1) OVER (PARTITION BY s ORDER BY id), lead(s, 2, 'none') OVER (PARTITION BY s ORDER BY id),
      lead(d, 1) OVER (PARTITION BY s ORDER BY id) FROM window_rows`,
  'first, last and nth value over frames': `SELECT id, first_value(d) OVER (PARTITION BY g ORDER BY id),
      last_value(id) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
      nth_value(s, 3) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
      nth_value(id, 2) OVER (PARTITION BY g ORDER BY id) FROM window_rows`,
  'aggregates over ROWS frames': `SELECT id, sum(d) OVER (PARTITION BY s ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING),
      count(d) OVER (PARTITION BY s ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
      min(s) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING),
      max(dbl) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN CURRENT ROW AND 5 FOLLOWING) FROM window_rows`,
  'aggregates over RANGE frames, interval offsets too': `SELECT id, sum(dbl) OVER (PARTITION BY g ORDER BY k RANGE BETWEEN 2 PRECEDING AND CURRENT ROW),
      count(*) OVER (PARTITION BY g ORDER BY day RANGE BETWEEN INTERVAL '3' DAY PRECEDING AND INTERVAL '1' DAY FOLLOWING),
      sum(d) OVER (PARTITION BY g ORDER BY k), avg(dbl) OVER (PARTITION BY s) FROM window_rows`,
  'several windows of different partitions': `SELECT id, row_number() OVER (PARTITION BY g ORDER BY id),
      row_number() OVER (PARTITION BY s ORDER BY id DESC), sum(id) OVER (PARTITION BY k),
      count(*) OVER (PARTITION BY g, k) FROM window_rows`,
  'strings and decimals as partition keys': `SELECT id, rank() OVER (PARTITION BY s, d ORDER BY day, id),
      sum(dbl) OVER (PARTITION BY d), count(*) OVER (PARTITION BY s, day) FROM window_rows`,
  'a filter and a projection under the window': `SELECT id, upper(s) AS u, row_number() OVER (PARTITION BY upper(s) ORDER BY id),
      sum(g + k) OVER (PARTITION BY k % 5 ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
      FROM window_rows WHERE id % 3 = 1`,
};

describe('Window functions partitioned across worker threads equal DuckDB', function () {
  this.timeout(600_000);
  let both: EngineAndDuckDb;
  let engine: EngineHarness;

  const explain = async (sql: string, properties: Record<string, string> = {}) =>
    (await rowsWith(engine, `EXPLAIN ${sql}`, properties)).map((row) => String(row[0])).join('\n');

  async function expectDuckDbRows(sql: string, properties: Record<string, string> = {}): Promise<number> {
    const ours = sortedRowTexts(await rowsAsDuckDbTexts(sql, properties));
    const expected = sortedRowTexts(await duckRows(both.duck, sql));
    expect(ours.length, sql).to.equal(expected.length);
    const differs = ours.findIndex((row, i) => row !== expected[i]);
    expect(differs, `${sql}\nours:   ${ours[differs]}\nDuckDB: ${expected[differs]}`).to.equal(-1);
    return ours.length;
  }

  /** The query's rows, decimals as text (a decimal's value is its unscaled integer), as DuckDB's print. */
  async function rowsAsDuckDbTexts(sql: string, properties: Record<string, string>): Promise<Scalar[][]> {
    const saved = new Map(engine.session.properties);
    for (const [k, v] of Object.entries(properties)) engine.session.properties.set(k, v);
    try {
      const { rows, columns } = await engine.query(sql);
      return rows.map((row) => row.map((v, i) => (columns[i].type.kind === 'decimal' ? formatValueAsText(v, columns[i].type) : v)));
    } finally {
      engine.session.properties.clear();
      for (const [k, v] of saved) engine.session.properties.set(k, v);
    }
  }

  before(async () => {
    both = await EngineAndDuckDb.open();
    engine = both.engine;
    useThreadsOnMemory(engine);
    await both.runOnBoth(`CREATE TABLE digits AS ${DIGITS}`, `CREATE TABLE window_rows AS ${WINDOW_ROWS}`);
  });

  after(() => both.close());

  it('windows on the threads over several splits and says so in EXPLAIN ANALYZE', async () => {
    const sql = 'SELECT id, row_number() OVER (PARTITION BY g ORDER BY id) FROM window_rows';
    expect(await explain(sql)).to.match(
      /LocalExchange\[GATHER\][^\n]*\n[^]*└─ ParallelWindow\[threads = \d+, splits = listed, partitionBy = \[g_\d+\][^]*LocalExchange\[HASH, keys = \[g_\d+\]\]/,
    );
    const started = sharedThreadPool().stats().tasksStarted;
    const analyzed = (await engine.rows(`EXPLAIN ANALYZE ${sql}`)).map((row) => String(row[0])).join('\n');
    expect(sharedThreadPool().stats().tasksStarted).to.be.greaterThan(started);
    const [, splits] = /Adaptive threads: [^\n]*; chosen: \d+ threads \((\d+) splits\)/.exec(analyzed) ?? [];
    expect(Number(splits), analyzed).to.be.at.least(3);
    expect(analyzed).to.match(/LocalExchange\[GATHER\][^\n]*\n[^\n]*\n\s+Output: 200000 rows/);
  });

  for (const [name, sql] of Object.entries(QUERIES)) {
    it(`${name}: DuckDB's rows`, async () => {
      expect(await explain(sql)).to.contain('ParallelWindow[');
      expect(await expectDuckDbRows(sql)).to.be.greaterThan(0);
    });
  }

  it('a second partitioning of the same rows runs in the main thread over the gathered rows', async () => {
    const plan = await explain(QUERIES['several windows of different partitions']);
    expect(plan.match(/ParallelWindow\[/g)?.length).to.equal(1);
    expect(plan).to.match(/└─ Window\[partitionBy/);
  });

  it('a window without PARTITION BY stays in the main thread', async () => {
    const sql = 'SELECT id, row_number() OVER (ORDER BY id), sum(d) OVER () FROM window_rows WHERE id % 50 = 3';
    expect(await explain(sql)).not.to.contain('ParallelWindow');
    expect(await expectDuckDbRows(sql)).to.equal(4000);
  });

  it('an empty input, and one smaller than a page', async () => {
    const base = 'SELECT id, s, rank() OVER (PARTITION BY s ORDER BY d), lag(id) OVER (PARTITION BY s ORDER BY id) FROM window_rows';
    expect(await explain(`${base} WHERE id < 0`)).to.contain('ParallelWindow[');
    expect(await expectDuckDbRows(`${base} WHERE id < 0`)).to.equal(0);
    expect(await expectDuckDbRows(`${base} WHERE id % 40000 = 17`)).to.equal(5);
  });

  it('a LIMIT above the window stops the threads, which are then free for the next query', async () => {
    const sql = 'SELECT id, row_number() OVER (PARTITION BY g ORDER BY id) FROM window_rows LIMIT 5';
    expect(await explain(sql)).to.contain('ParallelWindow[');
    expect(await engine.rows(sql)).to.have.length(5);
    await workersIdle();
    expect(await expectDuckDbRows('SELECT id, row_number() OVER (PARTITION BY k ORDER BY id) FROM window_rows WHERE id < 1000')).to.equal(
      1000,
    );
  });

  it('with parallel_window off: the same rows, windowed in the main thread', async () => {
    const off = { parallel_window: 'false' };
    const sql = QUERIES['ranking functions'];
    expect(await explain(sql, off)).not.to.contain('ParallelWindow');
    await expectDuckDbRows(sql, off);
  });

  it('runs in the main thread when the table has fewer splits than parallel_min_splits', async () => {
    const properties = { parallel_min_splits: '1000' };
    const sql = 'SELECT id, dense_rank() OVER (PARTITION BY s ORDER BY d DESC) FROM window_rows';
    const started = sharedThreadPool().stats().tasksStarted;
    const analyzed = (await rowsWith(engine, `EXPLAIN ANALYZE ${sql}`, properties)).map((row) => String(row[0])).join('\n');
    expect(analyzed).to.match(/Adaptive threads: .*; chosen: main thread \(\d+ splits\)/);
    expect(sharedThreadPool().stats().tasksStarted).to.equal(started);
    await expectDuckDbRows(sql, properties);
  });

  it('fails with EXCEEDED_LOCAL_MEMORY_LIMIT when the threads hold more than the query may', async () => {
    const small = new EngineHarness({ memoryLimitBytes: 6 << 20 });
    for (const [name, value] of Object.entries(IN_WORKERS)) small.session.properties.set(name, value);
    // Written a quarter at a time: all of it is more than a query may hold.
    const quarter = (q: number) => `SELECT * FROM (${WINDOW_ROWS}) w WHERE id % 4 = ${q}`;
    await small.run(`CREATE TABLE digits AS ${DIGITS}`, `CREATE TABLE window_rows AS ${quarter(0)}`);
    for (let q = 1; q < 4; q++) await small.run(`INSERT INTO window_rows ${quarter(q)}`);
    const sql = 'SELECT *, row_number() OVER (PARTITION BY s ORDER BY id) FROM window_rows';
    expect((await small.rows(`EXPLAIN ${sql}`))[0][0]).to.contain('ParallelWindow[');
    const error = await small.rows(sql).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(EngineError);
    expect((error as EngineError).errorName).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    await workersIdle();
    expect(Number((await small.rows('SELECT count(*) FROM window_rows'))[0][0])).to.equal(200_000);
  });
});
