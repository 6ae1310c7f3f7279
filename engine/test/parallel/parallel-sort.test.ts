// ORDER BY and ORDER BY ... LIMIT over a table of several splits, sorted on the worker threads (a
// run per thread) and merged in the main thread (EXPLAIN: MergeSorted over ParallelSort), give
// DuckDB's order on the same rows: multi-key sorts with mixed directions and NULL placement, keys
// of every type (strings by code point, beyond U+FFFF too; short and long decimals; dates;
// timestamps; doubles with NaN, -0 and infinities; booleans), ties (no row lost or repeated), TopN
// with and without OFFSET, an empty input and one smaller than a page; parallel_sort off gives the
// same order; a sort over the query's memory limit fails with EXCEEDED_LOCAL_MEMORY_LIMIT.

import { expect } from 'chai';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import { EngineAndDuckDb } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';
import { EngineError } from '../../src/errors/engine-error.js';
import { DIGITS, ID, IN_WORKERS, rowsWith, SIX_DIGITS, workersIdle, useThreadsOnMemory } from './parallel-helpers.js';

/** 200,000 rows, `id` unique; every other column with NULLs and many ties. */
const SORT_ROWS = `SELECT id,
    CASE WHEN id % 9 = 0 THEN NULL ELSE CAST(id * 7 % 50 - 20 AS integer) END AS i,
    CASE id % 8 WHEN 0 THEN NULL WHEN 1 THEN chr(65533 + CAST(id % 5 AS integer)) WHEN 2 THEN ''
      WHEN 3 THEN 'é' || CAST(id % 3 AS varchar) ELSE 'k' || CAST(id % 37 AS varchar) END AS s,
    CASE WHEN id % 10 = 0 THEN NULL ELSE CAST(id % 401 - 200 AS decimal(12,2)) / 8 END AS d,
    CASE WHEN id % 12 = 0 THEN NULL ELSE CAST(id % 23 AS decimal(30,2)) - 98765432109876543210.5 END AS ld,
    CASE WHEN id % 13 = 0 THEN NULL ELSE CAST(DATE '2020-01-01' + INTERVAL '1' DAY * (id % 97) AS date) END AS day,
    CASE WHEN id % 14 = 0 THEN NULL ELSE TIMESTAMP '2021-06-01 00:00:00' + INTERVAL '1' SECOND * (id * 31 % 1000) END AS ts,
    CASE id % 11 WHEN 0 THEN CAST('NaN' AS double) WHEN 1 THEN -0.0e0 WHEN 2 THEN 0e0 WHEN 3 THEN NULL
      WHEN 4 THEN CAST('Infinity' AS double) WHEN 5 THEN CAST('-Infinity' AS double) ELSE (id % 101) / 7.0e0 - 5 END AS dbl,
    CASE WHEN id % 6 = 0 THEN NULL ELSE id % 4 < 2 END AS b
  FROM (SELECT ${ID} AS id FROM ${SIX_DIGITS} WHERE f.x < 2) t`;

const ORDERS: Record<string, string> = {
  'an integer key with NULLs first, then the id': 'i ASC NULLS FIRST, id DESC',
  'varchar by code point, descending': 's DESC NULLS LAST, id',
  'varchar with ties only': 's ASC NULLS FIRST',
  'short decimal then long decimal': 'd DESC NULLS FIRST, ld ASC NULLS LAST',
  'long decimal with ties': 'ld DESC NULLS LAST',
  'date then timestamp': 'day ASC NULLS LAST, ts DESC NULLS FIRST',
  'double with NaN, -0 and infinities': 'dbl ASC NULLS FIRST, b DESC NULLS LAST',
  'double descending with ties': 'dbl DESC NULLS LAST',
  'boolean, string and integer in mixed directions': 'b ASC NULLS FIRST, s DESC NULLS FIRST, i ASC NULLS LAST',
};

describe('ORDER BY sorted on worker threads and merged equals DuckDB', function () {
  this.timeout(600_000);
  let both: EngineAndDuckDb;
  let engine: EngineHarness;
  /** Rows of sort_rows by id: each row's dense rank under each order, in DuckDB. */
  const ranks = new Map<string, Map<string, number>>();

  const explain = async (sql: string, properties: Record<string, string> = {}) =>
    (await rowsWith(engine, `EXPLAIN ${sql}`, properties)).map((row) => String(row[0])).join('\n');

  /** Each id's dense rank under `orderBy` in DuckDB, over the rows `where` keeps. */
  async function duckRanks(orderBy: string, where: string): Promise<Map<string, number>> {
    const key = `${orderBy} | ${where}`;
    let byId = ranks.get(key);
    if (byId === undefined) {
      const rows = await duckRows(both.duck, `SELECT id, dense_rank() OVER (ORDER BY ${orderBy}) FROM sort_rows ${where}`);
      byId = new Map(rows.map((r) => [String(r[0]), Number(r[1])]));
      ranks.set(key, byId);
    }
    return byId;
  }

  /**
   * Runs the query's ids in our order and checks them against DuckDB's ranks: the ranks come in
   * DuckDB's order (ties in any order), each id once, as many rows as DuckDB's order keeps.
   */
  async function expectDuckDbOrder(
    orderBy: string,
    {
      where = '',
      limit,
      offset,
      properties = {},
    }: { where?: string; limit?: number; offset?: number; properties?: Record<string, string> } = {},
  ): Promise<number> {
    const tail = `${offset === undefined ? '' : ` OFFSET ${offset}`}${limit === undefined ? '' : ` LIMIT ${limit}`}`;
    const ours = (await rowsWith(engine, `SELECT id FROM sort_rows ${where} ORDER BY ${orderBy}${tail}`, properties)).map((r) =>
      String(r[0]),
    );
    const byId = await duckRanks(orderBy, where);
    const start = offset ?? 0;
    const expected = [...byId.values()].sort((a, b) => a - b).slice(start, limit === undefined ? undefined : start + limit);
    expect(new Set(ours).size, 'each row once').to.equal(ours.length);
    expect(
      ours.map((id) => byId.get(id)),
      `ORDER BY ${orderBy}${tail}`,
    ).to.deep.equal(expected);
    return ours.length;
  }

  before(async () => {
    both = await EngineAndDuckDb.open();
    engine = both.engine;
    useThreadsOnMemory(engine);
    await both.runOnBoth(`CREATE TABLE digits AS ${DIGITS}`, `CREATE TABLE sort_rows AS ${SORT_ROWS}`);
  });

  after(() => both.close());

  it('sorts on the threads over several splits and says so in EXPLAIN ANALYZE', async () => {
    const sql = `SELECT id FROM sort_rows ORDER BY ${ORDERS['varchar by code point, descending']}`;
    expect(await explain(sql)).to.match(/MergeSorted\[orderBy = [^\n]*\n[^]*└─ ParallelSort\[threads = \d+, splits = listed\]/);
    const started = sharedThreadPool().stats().tasksStarted;
    const analyzed = (await engine.rows(`EXPLAIN ANALYZE ${sql}`)).map((row) => String(row[0])).join('\n');
    expect(sharedThreadPool().stats().tasksStarted).to.be.greaterThan(started);
    const [, splits] = /Adaptive threads: [^\n]*; chosen: \d+ threads \((\d+) splits\)/.exec(analyzed) ?? [];
    expect(Number(splits), analyzed).to.be.at.least(3);
    expect(analyzed).to.match(/MergeSorted[^\n]*\n[^\n]*\n\s+Output: 200000 rows/);
  });

  for (const [name, orderBy] of Object.entries(ORDERS)) {
    it(`${name}: every row in DuckDB's order`, async () => {
      expect(await expectDuckDbOrder(orderBy)).to.equal(200_000);
    });

    it(`${name}: TopN (LIMIT) and OFFSET`, async () => {
      expect(await explain(`SELECT id FROM sort_rows ORDER BY ${orderBy} LIMIT 700`)).to.contain('ParallelTopN[count = 700');
      expect(await expectDuckDbOrder(orderBy, { limit: 700 })).to.equal(700);
      await expectDuckDbOrder(orderBy, { limit: 300, offset: 4321 });
      await expectDuckDbOrder(orderBy, { offset: 199_990 });
    });
  }

  it('with parallel_sort off: the same order, sorted in the main thread', async () => {
    const off = { parallel_sort: 'false' };
    const sql = `SELECT id FROM sort_rows ORDER BY ${ORDERS['double with NaN, -0 and infinities']}`;
    const plan = await explain(sql, off);
    expect(plan).to.contain('Sort[orderBy');
    expect(plan).not.to.match(/MergeSorted|ParallelSort/);
    await expectDuckDbOrder(ORDERS['double with NaN, -0 and infinities'], { properties: off });
    await expectDuckDbOrder(ORDERS['short decimal then long decimal'], { properties: off, limit: 50 });
  });

  it('a filter and a projection on the threads, and inputs smaller than a page or empty', async () => {
    const orderBy = 'upper(s) DESC NULLS LAST, dbl ASC NULLS FIRST, id';
    expect(await expectDuckDbOrder(orderBy, { where: 'WHERE id % 3 = 1' })).to.equal(66_667);
    expect(await expectDuckDbOrder(orderBy, { where: 'WHERE id % 40000 = 17' })).to.equal(5);
    expect(await expectDuckDbOrder(orderBy, { where: 'WHERE id % 40000 = 17', limit: 3 })).to.equal(3);
    expect(await expectDuckDbOrder(orderBy, { where: 'WHERE id < 0' })).to.equal(0);
    expect(await expectDuckDbOrder(orderBy, { where: 'WHERE id < 0', limit: 10 })).to.equal(0);
  });

  it("a TopN in a distributed plan's source fragment, its splits assigned as they come", async () => {
    const sql =
      'SELECT l_orderkey, l_linenumber, l_extendedprice FROM tpch.tiny.lineitem ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber LIMIT 250';
    expect(await explain(sql)).to.match(/ParallelTopN\[count = 250, threads = \d+, splits = assigned\]/);
    const key = (r: unknown[]) => r.map(Number);
    // The oracle: every row, sorted here.
    const all = (await engine.rows('SELECT l_orderkey, l_linenumber, l_extendedprice FROM tpch.tiny.lineitem')).map(key);
    all.sort((a, b) => b[2] - a[2] || a[0] - b[0] || a[1] - b[1]);
    expect((await engine.rows(sql)).map(key)).to.deep.equal(all.slice(0, 250));
  });

  it('runs in the main thread when the table has fewer splits than parallel_min_splits', async () => {
    const properties = { parallel_min_splits: '1000' };
    const started = sharedThreadPool().stats().tasksStarted;
    const analyzed = (await rowsWith(engine, 'EXPLAIN ANALYZE SELECT id FROM sort_rows ORDER BY s, id', properties))
      .map((row) => String(row[0]))
      .join('\n');
    expect(analyzed).to.match(/MergeSorted[^]*Adaptive threads: .*; chosen: main thread \(\d+ splits\)/);
    expect(sharedThreadPool().stats().tasksStarted).to.equal(started);
    await expectDuckDbOrder('s, id', { properties });
  });

  it('fails with EXCEEDED_LOCAL_MEMORY_LIMIT when the threads hold more than the query may', async () => {
    const small = new EngineHarness({ memoryLimitBytes: 6 << 20 });
    for (const [name, value] of Object.entries(IN_WORKERS)) small.session.properties.set(name, value);
    // Written a quarter at a time: all of it is more than a query may hold.
    const quarter = (k: number) => `SELECT * FROM (${SORT_ROWS}) q WHERE id % 4 = ${k}`;
    await small.run(`CREATE TABLE digits AS ${DIGITS}`, `CREATE TABLE sort_rows AS ${quarter(0)}`);
    for (let k = 1; k < 4; k++) await small.run(`INSERT INTO sort_rows ${quarter(k)}`);
    const sql = 'SELECT * FROM sort_rows ORDER BY s, id';
    expect((await small.rows(`EXPLAIN ${sql}`))[0][0]).to.contain('ParallelSort[');
    const error = await small.rows(sql).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(EngineError);
    expect((error as EngineError).errorName).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect((error as EngineError).message).to.match(/^Query exceeded per-node memory limit of 6\.00MB/);
    await workersIdle();
    // What the threads held is given back: a TopN runs in the same engine afterwards.
    expect(await small.rows('SELECT id FROM sort_rows ORDER BY id DESC LIMIT 2')).to.deep.equal([[199_999], [199_998]]);
  });
});
