// Hash joins whose lookup table the node's worker threads fill (ParallelHashBuild) give DuckDB's
// rows on the same tables: inner, left, right and full joins, with a residual filter, NULL keys,
// duplicate keys, several keys, decimal and date keys, semi and anti joins (IN, NOT IN, EXISTS), an
// empty build side; a varchar key is hashed in the main thread, as is every table with
// parallel_hash_build off (its default; same rows); TPC-H q5, q7, q9, q18 and q21 on sf0.01 with every table
// filled on the threads; a join over the query's memory limit still fails with
// EXCEEDED_LOCAL_MEMORY_LIMIT.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { TPCH_TABLE_NAMES } from '../../scripts/tpch/tbl-export.js';
import { EngineError } from '../../src/errors/engine-error.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import { EngineAndDuckDb, expectDuckDbAnswer, sortedRowTexts } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';
import { DIGITS, ID, IN_WORKERS, rowsWith, SIX_DIGITS, useThreadsOnMemory, workersIdle } from './parallel-helpers.js';

/** Every build side of 1,000 rows or more filled on the threads (parallel_hash_build is off by default). */
const ON = { parallel_hash_build: 'true' };
const FILL_ON_THREADS = { ...ON, parallel_hash_build_min_rows: '1000' };

/** 100,000 build rows: keys with duplicates and NULLs. */
const BUILD_ROWS = `SELECT id,
    id % 40000 AS k,
    CASE WHEN id % 9 = 0 THEN NULL ELSE id % 30011 END AS nk,
    id % 13 AS k2,
    CAST(id % 5000 AS decimal(12,2)) / 4 AS dec,
    CAST(DATE '2020-01-01' + INTERVAL '1' DAY * (id % 700) AS date) AS day,
    'v' || CAST(id % 20000 AS varchar) AS s
  FROM (SELECT ${ID} AS id FROM ${SIX_DIGITS} WHERE f.x = 0) t`;

/** 150,000 probe rows: some keys match several build rows, some none. */
const PROBE_ROWS = `SELECT id,
    (id * 7) % 60000 AS k,
    CASE WHEN id % 5 = 0 THEN NULL ELSE (id * 3) % 45000 END AS nk,
    id % 17 AS k2,
    CAST((id * 3) % 8000 AS decimal(12,2)) / 4 AS dec,
    CAST(DATE '2020-01-01' + INTERVAL '1' DAY * (id % 1000) AS date) AS day,
    'v' || CAST(id % 30000 AS varchar) AS s
  FROM (SELECT ${ID} AS id FROM ${SIX_DIGITS} WHERE f.x = 0 OR (f.x = 1 AND a.x < 5)) t`;

const SUMS = 'count(*), count(p.id), count(b.id), sum(p.id), sum(b.id)';

const JOINS: Record<string, string> = {
  inner: `SELECT ${SUMS} FROM probes p JOIN builds b ON p.k = b.k`,
  left: `SELECT ${SUMS} FROM probes p LEFT JOIN builds b ON p.k = b.k`,
  right: `SELECT ${SUMS} FROM probes p RIGHT JOIN builds b ON p.k = b.k`,
  full: `SELECT ${SUMS} FROM probes p FULL JOIN builds b ON p.k = b.k`,
  'inner with a filter': `SELECT ${SUMS} FROM probes p JOIN builds b ON p.k = b.k AND p.id % 7 < b.id % 5`,
  'left with a filter': `SELECT ${SUMS} FROM probes p LEFT JOIN builds b ON p.k = b.k AND p.id < b.id`,
  'full with a filter': `SELECT ${SUMS} FROM probes p FULL JOIN builds b ON p.k = b.k AND p.id > b.id`,
  'NULL keys, inner': `SELECT ${SUMS} FROM probes p JOIN builds b ON p.nk = b.nk`,
  'NULL keys, full': `SELECT ${SUMS} FROM probes p FULL JOIN builds b ON p.nk = b.nk`,
  'two keys': `SELECT ${SUMS} FROM probes p JOIN builds b ON p.k2 = b.k2 AND p.nk = b.nk`,
  'two keys, left': `SELECT ${SUMS} FROM probes p LEFT JOIN builds b ON p.k = b.k AND p.k2 = b.k2`,
  'decimal key': `SELECT ${SUMS} FROM probes p JOIN builds b ON p.dec = b.dec WHERE p.id < 20000`,
  'date and integer keys': `SELECT ${SUMS} FROM probes p JOIN builds b ON p.day = b.day AND p.k2 = b.k2 WHERE p.id < 30000`,
  'rows out, not only sums': 'SELECT p.id, b.id, b.k2, b.nk FROM probes p JOIN builds b ON p.k = b.k WHERE p.id % 97 = 0',
  'IN (a semi join)': 'SELECT count(*), sum(id) FROM probes WHERE k IN (SELECT k FROM builds)',
  'NOT IN with NULLs': 'SELECT count(*), sum(id) FROM probes WHERE nk NOT IN (SELECT nk FROM builds WHERE id % 3 = 0)',
  'NOT IN without NULLs': 'SELECT count(*), sum(id) FROM probes WHERE nk NOT IN (SELECT nk FROM builds WHERE nk IS NOT NULL)',
  EXISTS: 'SELECT count(*), sum(p.id) FROM probes p WHERE EXISTS (SELECT 1 FROM builds b WHERE b.k = p.k AND b.id > p.id)',
  'empty build side': `SELECT ${SUMS} FROM probes p LEFT JOIN (SELECT * FROM builds WHERE id < 0) b ON p.k = b.k`,
  'varchar key (hashed in the main thread)': `SELECT ${SUMS} FROM probes p JOIN builds b ON p.s = b.s`,
};

describe('hash join tables filled on the worker threads equal DuckDB', function () {
  this.timeout(600_000);
  let both: EngineAndDuckDb;
  let engine: EngineHarness;

  const explain = async (sql: string, properties: Record<string, string> = {}) =>
    (await rowsWith(engine, `EXPLAIN ${sql}`, { ...FILL_ON_THREADS, ...properties })).map((row) => String(row[0])).join('\n');

  /** Tasks the threads started for the query. */
  async function threadTasks(sql: string, properties: Record<string, string>): Promise<{ tasks: number; rows: string[] }> {
    const before = sharedThreadPool().stats().tasksStarted;
    const rows = sortedRowTexts(await rowsWith(engine, sql, properties));
    return { tasks: sharedThreadPool().stats().tasksStarted - before, rows };
  }

  before(async () => {
    both = await EngineAndDuckDb.open();
    engine = both.engine;
    useThreadsOnMemory(engine);
    await both.runOnBoth(
      `CREATE TABLE digits AS ${DIGITS}`,
      `CREATE TABLE builds AS ${BUILD_ROWS}`,
      `CREATE TABLE probes AS ${PROBE_ROWS}`,
    );
  });

  after(() => both.close());

  it('prints ParallelHashBuild under the join, not with parallel_hash_build off (its default) nor for a varchar key', async () => {
    expect((await rowsWith(engine, `EXPLAIN ${JOINS.inner}`, {})).join('\n')).not.to.contain('ParallelHashBuild');
    const text = await explain(JOINS.inner);
    expect(text).to.match(
      /└─ ParallelHashBuild\[threads = 2\]\n\s+Runs: rows gathered in the main thread; lookup table filled on the threads, each its regions of the key hashes\n\s+Adaptive parallel build: the threads fill the lookup table when the build side has at least 1000 rows, else the main thread/,
    );
    expect(await explain(JOINS.inner, { parallel_hash_build: 'false' })).not.to.contain('ParallelHashBuild');
    expect(await explain(JOINS['varchar key (hashed in the main thread)'])).not.to.contain('ParallelHashBuild');
  });

  for (const [name, sql] of Object.entries(JOINS)) {
    it(`${name}: DuckDB's rows, as with parallel_hash_build off`, async () => {
      const filled = await threadTasks(sql, FILL_ON_THREADS);
      const expected = sortedRowTexts(await duckRows(both.duck, sql));
      expect(filled.rows, sql).to.deep.equal(expected);
      const off = await threadTasks(sql, { parallel_hash_build: 'false' });
      expect(off.rows, sql).to.deep.equal(expected);
      // The threads' steps of filling a table are tasks of their own.
      if (!name.includes('varchar') && !name.includes('empty')) expect(filled.tasks, sql).to.be.greaterThan(off.tasks);
    });
  }

  it('a join in the main thread records the adaptive decision in EXPLAIN ANALYZE', async () => {
    const sql = JOINS.full;
    const analyzed = (await rowsWith(engine, `EXPLAIN ANALYZE ${sql}`, FILL_ON_THREADS)).map((row) => String(row[0])).join('\n');
    expect(analyzed).to.match(/ParallelHashBuild\[threads = 2\][^]*Adaptive parallel build: [^\n]*; chosen: threads/);
    const small = (await rowsWith(engine, `EXPLAIN ANALYZE ${sql}`, ON)).map((row) => String(row[0])).join('\n');
    expect(small).to.match(/Adaptive parallel build: [^\n]*at least 65536 rows[^\n]*; chosen: threads/);
  });

  it('fails with EXCEEDED_LOCAL_MEMORY_LIMIT when the build side holds more than the query may', async () => {
    const small = new EngineHarness({ memoryLimitBytes: 5 << 19 });
    for (const [name, value] of Object.entries({ ...IN_WORKERS, ...FILL_ON_THREADS })) small.session.properties.set(name, value);
    // Written a quarter at a time: all of it is more than a query may hold.
    const quarter = (k: number) => `SELECT id, k, k2 FROM (${BUILD_ROWS}) q WHERE id % 4 = ${k}`;
    await small.run(`CREATE TABLE digits AS ${DIGITS}`, `CREATE TABLE builds AS ${quarter(0)}`);
    for (let k = 1; k < 4; k++) await small.run(`INSERT INTO builds ${quarter(k)}`);
    const sql = 'SELECT count(*) FROM builds p FULL JOIN builds b ON p.k = b.k AND p.k2 = b.k2';
    expect((await small.rows(`EXPLAIN ${sql}`))[0][0]).to.contain('ParallelHashBuild[');
    const error = await small.rows(sql).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(EngineError);
    expect((error as EngineError).errorName).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    await workersIdle();
    expect(await small.rows('SELECT count(*) FROM builds b JOIN digits d ON b.k2 = d.x')).to.deep.equal([[76_924n]]);
  });
});

describe('TPC-H on sf0.01 with every join table filled on the threads equals DuckDB', function () {
  this.timeout(300_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    duck = await duckDbWithTpch('tiny', 2);
    await engine.run('CREATE SCHEMA memory.tiny');
    for (const table of TPCH_TABLE_NAMES) await engine.run(`CREATE TABLE memory.tiny.${table} AS SELECT * FROM tpch.tiny.${table}`);
    for (const [name, value] of Object.entries({ ...IN_WORKERS, ...ON, parallel_hash_build_min_rows: '1' }))
      engine.session.properties.set(name, value);
  });

  for (const catalog of ['tpch', 'memory']) {
    for (const q of [5, 7, 9, 18, 21]) {
      it(`q${String(q).padStart(2, '0')} from ${catalog}.tiny`, async () => {
        engine.session.catalog = catalog;
        engine.session.schema = 'tiny';
        const sql = tpchQuery(q);
        expect((await engine.rows(`EXPLAIN ${sql}`))[0][0]).to.contain('ParallelHashBuild[');
        await expectDuckDbAnswer(engine, duck, sql);
      });
    }
  }
});
