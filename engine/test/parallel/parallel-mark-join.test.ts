// Semi and anti joins (EXISTS, NOT EXISTS, IN, NOT IN) whose small probe side is hashed in the main
// thread while their big build side streams past it on the worker threads (EXPLAIN: ParallelMarkJoin)
// give DuckDB's answers on the same rows, with parallel_mark_join on and off: NULL and duplicate
// keys on both sides, keys differing only in their high 32 bits, varchar and decimal keys, a join
// filter, an empty build side, an empty probe side, and a table of too few splits (the join then
// runs in the main thread).

import { expect } from 'chai';
import { MAX_SPLIT_ROWS } from '../../src/connectors/memory/memory-connector.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import { EngineAndDuckDb } from '../support/engine-and-duckdb.js';
import type { EngineHarness } from '../support/engine-harness.js';
import { DIGITS, ID, IN_WORKERS, SIX_DIGITS, useThreadsOnMemory } from './parallel-helpers.js';

/** 3,000 probe rows: keys repeat, some are NULL, some differ from others only in the high word. */
const PROBE_SIDE = `SELECT id,
    CASE WHEN id % 11 = 0 THEN NULL WHEN id % 13 = 0 THEN 4294967296 * (id % 700) ELSE id % 1500 - 200 END AS k,
    CASE WHEN id % 9 = 0 THEN NULL ELSE id % 40 - 5 END AS small,
    CASE WHEN id % 8 = 0 THEN NULL ELSE 'n' || CAST(id % 50 AS varchar) END AS name,
    CASE WHEN id % 7 = 0 THEN NULL ELSE CAST(id % 300 AS decimal(12,2)) / 4 END AS price
  FROM (SELECT ${ID} AS id FROM ${SIX_DIGITS} WHERE f.x = 0 AND a.x = 0 AND b.x < 3) t`;

/** 200,000 build rows (several splits), many per key. */
const BUILD_SIDE = `SELECT id,
    CASE WHEN id % 17 = 0 THEN NULL WHEN id % 19 = 0 THEN 4294967296 * (id * 7 % 700) ELSE id * 7 % 1900 - 200 END AS k,
    CASE WHEN id % 10 = 0 THEN NULL ELSE id * 3 % 40 - 5 END AS small,
    CASE WHEN id % 6 = 0 THEN NULL ELSE 'n' || CAST(id * 3 % 70 AS varchar) END AS name,
    CASE WHEN id % 5 = 0 THEN NULL ELSE CAST(id * 3 % 500 AS decimal(12,2)) / 4 END AS price
  FROM (SELECT ${ID} AS id FROM ${SIX_DIGITS} WHERE f.x < 2) t`;

const EMPTY_BUILD = '(SELECT * FROM build_side WHERE small > 1000)';

/** Probe rows counted by the value of `mark` (TRUE, FALSE or NULL). */
function byMark(mark: string, probe = 'probe_side'): string {
  return `SELECT m, count(*), sum(id) FROM (SELECT p.id, ${mark} AS m FROM ${probe} p) t GROUP BY m`;
}

const QUERIES: Record<string, string> = {
  EXISTS: 'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k)',
  'NOT EXISTS': 'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE NOT EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k)',
  'EXISTS with a filter':
    'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k AND b.small > p.small)',
  'NOT EXISTS with a filter on strings':
    'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE NOT EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k AND b.name > p.name)',
  'EXISTS on two keys':
    'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k AND b.small = p.small)',
  'EXISTS over a filtered build side':
    'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k AND b.id % 3 = 1)',
  'IN on bigint (NULLs on both sides)': byMark('p.k IN (SELECT k FROM build_side WHERE small > 20)'),
  'IN without NULL build keys': byMark('p.k IN (SELECT k FROM build_side WHERE small > 20 AND k IS NOT NULL)'),
  'IN on varchar': byMark('p.name IN (SELECT name FROM build_side WHERE id % 4 = 0)'),
  'IN on decimal': byMark('p.price IN (SELECT price FROM build_side)'),
  'NOT IN': 'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE p.small NOT IN (SELECT small FROM build_side WHERE small > 20)',
  'IN over an empty build side': byMark(`p.k IN (SELECT k FROM ${EMPTY_BUILD})`),
  'NOT EXISTS over an empty build side': `SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE NOT EXISTS (SELECT 1 FROM ${EMPTY_BUILD} b WHERE b.k = p.k)`,
  'EXISTS over an empty probe side':
    'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE p.id < 0 AND EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k)',
};

describe('semi and anti joins with their build side streamed on worker threads equal DuckDB', function () {
  this.timeout(600_000);
  let both: EngineAndDuckDb;
  let engine: EngineHarness;

  const explain = async (sql: string) => (await engine.rows(`EXPLAIN ${sql}`)).map((row) => String(row[0])).join('\n');
  const withMarkJoin = async <T>(on: boolean, run: () => Promise<T>): Promise<T> => {
    engine.session.properties.set('parallel_mark_join', String(on));
    try {
      return await run();
    } finally {
      engine.session.properties.delete('parallel_mark_join');
    }
  };
  const expectDuckDbAnswer = async (sql: string) => expect(await both.expectSame(sql)).not.to.be.empty;

  before(async () => {
    both = await EngineAndDuckDb.open();
    engine = both.engine;
    useThreadsOnMemory(engine);
    await both.runOnBoth(
      `CREATE TABLE digits AS ${DIGITS}`,
      `CREATE TABLE probe_side AS ${PROBE_SIDE}`,
      `CREATE TABLE build_side AS ${BUILD_SIDE}`,
    );
    const [[rows]] = await engine.rows('SELECT count(*) FROM build_side');
    expect(Number(rows)).to.be.greaterThan(2 * MAX_SPLIT_ROWS);
  });

  after(() => both.close());

  for (const [name, sql] of Object.entries(QUERIES)) {
    it(`${name}: on the threads`, async () => {
      const plan = await explain(sql);
      expect(plan, plan).to.contain('Runs: probe side hashed in the main thread; build side streamed past it on the threads');
      const started = sharedThreadPool().stats().tasksStarted;
      await expectDuckDbAnswer(sql);
      if (!name.includes('empty probe side')) expect(sharedThreadPool().stats().tasksStarted).to.be.greaterThan(started);
    });

    it(`${name}: with parallel_mark_join off`, async () => {
      await withMarkJoin(false, async () => {
        const plan = await explain(sql);
        expect(plan).to.match(/(Semi|Join)/);
        expect(plan).not.to.contain('build side streamed past it on the threads');
        await expectDuckDbAnswer(sql);
      });
    });
  }

  it('runs the join in the main thread when the table has fewer splits than parallel_min_splits', async () => {
    engine.session.properties.set('parallel_min_splits', '1000');
    try {
      const sql = QUERIES['EXISTS with a filter'];
      const started = sharedThreadPool().stats().tasksStarted;
      const analyzed = (await engine.rows(`EXPLAIN ANALYZE ${sql}`)).map((row) => String(row[0])).join('\n');
      expect(analyzed).to.match(/Adaptive threads: .*; chosen: main thread \(\d+ splits\)/);
      expect(sharedThreadPool().stats().tasksStarted).to.equal(started);
      await expectDuckDbAnswer(sql);
    } finally {
      engine.session.properties.set('parallel_min_splits', IN_WORKERS.parallel_min_splits);
    }
  });

  it('EXPLAIN ANALYZE names what the join chose', async () => {
    const analyzed = (await engine.rows(`EXPLAIN ANALYZE ${QUERIES.EXISTS}`)).map((row) => String(row[0])).join('\n');
    expect(analyzed).to.match(/Adaptive probe first: .*; chosen: 3000 probe rows hashed, the build side streamed past them/);
    expect(analyzed).to.match(/Adaptive threads: .*; chosen: \d+ threads \(\d+ splits\)/);
  });
});
