// Joins probed in the scan's worker threads (EXPLAIN: `probe = parallel`) give DuckDB's answers on
// the same rows, for every join kind that goes there — inner, left, semi/anti (IN, NOT IN, EXISTS,
// NOT EXISTS) and joins without keys — with NULL and duplicate keys, keys differing only in their
// high 32 bits, an empty build side, a build side of many pages, several keys, string keys (whose
// build columns each thread gets a copy of) and two joins probed one after the other. The probe
// side spans several splits, so that several threads probe the same build side. Right and full
// joins stay in the main thread and are checked too. So are the 22 TPC-H queries with every scan
// sent to the threads.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { TPCH_TABLE_NAMES } from '../../scripts/tpch/tbl-export.js';
import { MAX_SPLIT_ROWS } from '../../src/connectors/memory/memory-connector.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import { expectDuckDbAnswer } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';
import { DIGITS, ID, IN_WORKERS, SIX_DIGITS, useThreadsOnMemory } from './parallel-helpers.js';

/** 200,000 probe rows (several splits): keys repeat, some are NULL, some differ from others only in the high word. */
const PROBE_SIDE = `SELECT id,
    CASE WHEN id % 11 = 0 THEN NULL WHEN id % 13 = 0 THEN 4294967296 * (id % 1500) ELSE id % 1500 - 200 END AS k,
    CASE WHEN id % 9 = 0 THEN NULL ELSE id % 40 - 5 END AS small,
    CASE WHEN id % 8 = 0 THEN NULL ELSE 'n' || CAST(id % 50 AS varchar) END AS name
  FROM (SELECT ${ID} AS id FROM ${SIX_DIGITS} WHERE f.x < 2) t`;

/** 40,000 build rows (many pages), about 23 per key. */
const BUILD_SIDE = `SELECT id,
    CASE WHEN id % 17 = 0 THEN NULL WHEN id % 19 = 0 THEN 4294967296 * (id * 7 % 1500) ELSE id * 7 % 1700 - 200 END AS k,
    CASE WHEN id % 10 = 0 THEN NULL ELSE id * 3 % 40 - 5 END AS small,
    CASE WHEN id % 6 = 0 THEN NULL ELSE 'n' || CAST(id * 3 % 50 AS varchar) END AS name
  FROM (SELECT ${ID} AS id FROM ${SIX_DIGITS} WHERE f.x = 0 AND a.x < 4) t`;

const EMPTY_BUILD = '(SELECT * FROM build_side WHERE small > 1000)';

/** Probe rows counted by the value of `mark` (TRUE, FALSE or NULL). */
function byMark(mark: string): string {
  return `SELECT m, count(*), sum(id) FROM (SELECT p.id, ${mark} AS m FROM probe_side p) t GROUP BY m`;
}

/** Queries whose joins are all probed in the threads; each groups or filters so that the answer is a few thousand rows at most. */
const PARALLEL: Record<string, string> = {
  'inner on bigint': 'SELECT p.k, count(*), sum(b.id), max(p.id) FROM probe_side p JOIN build_side b ON p.k = b.k GROUP BY p.k',
  'inner, every pair':
    'SELECT p.id, b.id, b.name, count(*) FROM probe_side p JOIN build_side b ON p.k = b.k WHERE p.id % 97 = 0 GROUP BY 1, 2, 3',
  'left on bigint': 'SELECT p.k, count(*), count(b.id), sum(b.id) FROM probe_side p LEFT JOIN build_side b ON p.k = b.k GROUP BY p.k',
  'left, every pair':
    "SELECT p.id, b.id, b.small, count(*) FROM probe_side p LEFT JOIN (SELECT * FROM build_side WHERE name < 'n3') b ON p.k = b.k WHERE p.id % 89 = 0 GROUP BY 1, 2, 3",
  'two integer keys':
    'SELECT p.k, p.small, count(*), sum(b.id) FROM probe_side p JOIN build_side b ON p.k = b.k AND p.small = b.small GROUP BY 1, 2',
  'two integer keys, left':
    'SELECT p.small, count(*), count(b.id), sum(b.id) FROM probe_side p LEFT JOIN build_side b ON p.k = b.k AND p.small = b.small GROUP BY 1',
  'bigint and varchar keys':
    'SELECT b.name, count(*), sum(p.id), min(b.id) FROM probe_side p JOIN build_side b ON p.k = b.k AND p.name = b.name GROUP BY 1',
  'varchar key, left':
    'SELECT p.name, count(*), count(b.id), max(b.name) FROM probe_side p LEFT JOIN build_side b ON p.name = b.name AND b.id < 300 GROUP BY 1',
  'join filter': 'SELECT p.small, count(*), sum(b.id) FROM probe_side p JOIN build_side b ON p.k = b.k AND p.small < b.small GROUP BY 1',
  'left join filter':
    'SELECT p.small, count(*), count(b.id), sum(b.id) FROM probe_side p LEFT JOIN build_side b ON p.k = b.k AND p.small < b.small GROUP BY 1',
  'empty build side': `SELECT count(*), sum(p.id), max(b.id) FROM probe_side p JOIN ${EMPTY_BUILD} b ON p.k = b.k`,
  'empty build side, left': `SELECT p.small, count(*), count(b.id) FROM probe_side p LEFT JOIN ${EMPTY_BUILD} b ON p.k = b.k GROUP BY 1`,
  'two joins in a row':
    'SELECT d.x, count(*), sum(b.id) FROM probe_side p JOIN build_side b ON p.k = b.k JOIN digits d ON p.small = d.x GROUP BY 1',
  'without keys': 'SELECT d.x, count(*), sum(p.id) FROM probe_side p JOIN digits d ON p.small > d.x + 25 GROUP BY 1',
  IN: byMark('p.k IN (SELECT k FROM build_side WHERE small > 30)'),
  'IN without NULL keys': byMark('p.k IN (SELECT k FROM build_side WHERE small > 30 AND k IS NOT NULL)'),
  'IN, two columns of the probe side': byMark('p.small + 1000 * p.k IN (SELECT small + 1000 * k FROM build_side)'),
  'NOT IN':
    'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE p.small NOT IN (SELECT small FROM build_side WHERE k IS NOT NULL AND small > 20)',
  'IN over an empty set': byMark(`p.k IN (SELECT k FROM ${EMPTY_BUILD})`),
  'EXISTS with a filter':
    'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k AND b.small > p.small)',
  'NOT EXISTS': 'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE NOT EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k)',
  'NOT EXISTS with a filter':
    'SELECT count(*), sum(p.id), max(p.id) FROM probe_side p WHERE NOT EXISTS (SELECT 1 FROM build_side b WHERE b.k = p.k AND b.name > p.name)',
};

/** Joins that need every probe row's matches in one place: they stay in the main thread. */
const MAIN_THREAD: Record<string, string> = {
  'right on bigint': 'SELECT b.k, count(*), count(p.id), sum(p.id) FROM probe_side p RIGHT JOIN build_side b ON p.k = b.k GROUP BY 1',
  'full on bigint': 'SELECT p.k, b.k, count(*), sum(p.id), sum(b.id) FROM probe_side p FULL JOIN build_side b ON p.k = b.k GROUP BY 1, 2',
};

describe('joins probed in worker threads equal DuckDB', function () {
  this.timeout(600_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  const explain = async (sql: string) => (await engine.rows(`EXPLAIN ${sql}`)).map((row) => String(row[0])).join('\n');

  before(async () => {
    engine = new EngineHarness();
    useThreadsOnMemory(engine);
    duck = await duckDbWithTpch('tiny', 2);
    await engine.run(`CREATE TABLE digits AS ${DIGITS}`);
    await duck.run(`CREATE TABLE digits AS ${DIGITS}`);
    for (const [table, sql] of [
      ['probe_side', PROBE_SIDE],
      ['build_side', BUILD_SIDE],
    ]) {
      await engine.run(`CREATE TABLE ${table} AS ${sql}`);
      await duck.run(`CREATE TABLE ${table} AS ${sql}`);
    }
    const [[rows]] = await engine.rows('SELECT count(*) FROM probe_side');
    expect(Number(rows)).to.be.greaterThan(2 * MAX_SPLIT_ROWS);
  });

  for (const [name, sql] of Object.entries(PARALLEL)) {
    it(name, async () => {
      const plan = await explain(sql);
      const ordered = `SELECT * FROM (${sql}) ORDER BY 1 NULLS FIRST, 2 NULLS FIRST, 3 NULLS FIRST`;
      expect(plan).to.match(/Join\[/);
      for (const join of plan.split('\n').filter((line) => /(Join|CrossJoin)\[/.test(line)))
        expect(join, plan).to.contain('probe = parallel');
      const started = sharedThreadPool().stats().tasksStarted;
      await expectDuckDbAnswer(engine, duck, ordered);
      expect(sharedThreadPool().stats().tasksStarted).to.be.greaterThan(started);
    });
  }

  for (const [name, sql] of Object.entries(MAIN_THREAD)) {
    it(`${name} (in the main thread)`, async () => {
      const plan = await explain(sql);
      expect(plan).to.match(/(Right|Full)Join\[/);
      expect(plan).not.to.contain('probe = parallel');
      await expectDuckDbAnswer(engine, duck, `SELECT * FROM (${sql}) ORDER BY 1 NULLS FIRST, 2 NULLS FIRST, 3 NULLS FIRST`);
    });
  }

  describe('the plan decides which joins are probed in the threads', () => {
    const joinLines = async (sql: string) => (await explain(sql)).split('\n').filter((line) => /Join\[/.test(line));

    it('not with parallel_join_probe off', async () => {
      engine.session.properties.set('parallel_join_probe', 'false');
      try {
        const joins = await joinLines(PARALLEL['inner on bigint']);
        expect(joins).to.have.length(1);
        expect(joins[0]).not.to.contain('probe = parallel');
      } finally {
        engine.session.properties.delete('parallel_join_probe');
      }
    });

    it('not with every scan in the main thread', async () => {
      const joins = await joinLines(PARALLEL['inner on bigint']);
      expect(joins[0]).to.contain('probe = parallel');
      engine.session.properties.set('parallel_min_splits', '0');
      try {
        expect((await joinLines(PARALLEL['inner on bigint']))[0]).not.to.contain('probe = parallel');
      } finally {
        engine.session.properties.set('parallel_min_splits', IN_WORKERS.parallel_min_splits);
      }
    });

    it('not over a build side of many strings (TPC-H sf1 q10: customer), but over one of few (q5: nation names) and without strings (q3)', async () => {
      engine.session.catalog = 'tpch';
      engine.session.schema = 'sf1';
      try {
        const parallelProbes = async (q: number) => (await joinLines(tpchQuery(q))).filter((line) => line.includes('probe = parallel'));
        expect(await parallelProbes(10)).to.have.length(0);
        expect(await parallelProbes(5)).to.have.length(5);
        // q3: on one node its lineitem-orders join is broadcast too, so lineitem's threads probe it.
        expect(await parallelProbes(3)).to.have.length(2);
      } finally {
        engine.session.catalog = 'memory';
        engine.session.schema = 'default';
      }
    });

    it('without an aggregation above, only when the joins keep few of the scan rows (TPC-H q21: lineitem with one nation’s suppliers)', async () => {
      const few = 'SELECT p.id, b.id, p.small FROM probe_side p JOIN (SELECT * FROM build_side WHERE id = 1) b ON p.k = b.k';
      const fewPlan = await explain(few);
      expect(
        fewPlan.split('\n').find((line) => line.includes('InnerJoin[')),
        fewPlan,
      ).to.contain('probe = parallel');
      expect(fewPlan).to.contain('ParallelScan[');
      expect(fewPlan).not.to.contain('Aggregate');
      const started = sharedThreadPool().stats().tasksStarted;
      await expectDuckDbAnswer(engine, duck, `SELECT * FROM (${few}) ORDER BY 1, 2, 3`);
      expect(sharedThreadPool().stats().tasksStarted).to.be.greaterThan(started);
      const most = await joinLines('SELECT p.id, b.id, p.small FROM probe_side p JOIN build_side b ON p.k = b.k');
      expect(most).to.have.length(1);
      expect(most[0]).not.to.contain('probe = parallel');
    });

    it('drops build columns nothing above the join uses (a filter column of the build side)', async () => {
      const plan = await explain("SELECT count(*), sum(b.id) FROM probe_side p JOIN build_side b ON p.k = b.k WHERE b.name <> 'n7'");
      const join = plan.split('\n').findIndex((line) => line.includes('InnerJoin['));
      expect(plan.split('\n')[join], plan).to.contain('probe = parallel');
      expect(plan.split('\n')[join + 1], plan).not.to.contain('name');
    });
  });

  describe('TPC-H on sf0.01 with every scan in the threads', () => {
    before(async () => {
      await engine.run('CREATE SCHEMA memory.tiny');
      for (const table of TPCH_TABLE_NAMES) await engine.run(`CREATE TABLE memory.tiny.${table} AS SELECT * FROM tpch.tiny.${table}`);
      engine.session.schema = 'tiny';
    });

    for (let q = 1; q <= 22; q++) {
      it(`q${String(q).padStart(2, '0')}`, () => expectDuckDbAnswer(engine, duck, tpchQuery(q)));
    }
  });
});
