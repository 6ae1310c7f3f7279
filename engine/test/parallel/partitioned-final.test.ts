import { allSplits } from '../../src/spi/connector.js';
import { expect } from 'chai';
import { newQueryProgress } from '../../src/spi/query-progress.js';
import { EngineError } from '../../src/errors/engine-error.js';
import { resolveAggregateFunction } from '../../src/functions/aggregate/registry.js';
import { MemoryContext } from '../../src/exec/memory.js';
import type { Page } from '../../src/columnar/page.js';
import type { Scalar } from '../../src/types/scalar.js';
import type { HashAggregationSpec } from '../../src/exec/operators/hash-aggregation.js';
import { WORKER_FINAL_MIN_WORKERS, parallelSource } from '../../src/exec/threads/parallel-source.js';
import { ThreadPool } from '../../src/exec/threads/thread-pool.js';
import { call, constant, inputRef } from '../../src/sql/planner/row-expression.js';
import { BOOLEAN, INTEGER, VARCHAR, type SqlType } from '../../src/types/types.js';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, IN_MAIN_THREAD, countAndSumPipeline, createBigTable, pageRows, rowsWith, sortedRows } from './parallel-helpers.js';

// The workers finish a grouped aggregation themselves only from WORKER_FINAL_MIN_WORKERS workers
// on; a pool of that many threads exercises it on any machine.
describe('parallel execution: grouped aggregation finished by the workers', () => {
  let h: EngineHarness;
  let pool: ThreadPool;
  const workers = WORKER_FINAL_MIN_WORKERS;

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
    pool = new ThreadPool(workers);
  });

  after(async () => {
    await pool.shutdown();
  });

  let runs = 0;
  const ALL_ROWS = call('greater_than_or_equal', BOOLEAN, inputRef(0, INTEGER), constant(0, INTEGER));
  const BY_S = { channel: 1, type: VARCHAR };
  const BY_ID = { channel: 0, type: INTEGER };

  /** SELECT key, count(*), sum(n) FROM big WHERE filter GROUP BY key (key: s or id), as a fragment finished by the workers. */
  async function groupedCounts(filter = ALL_ROWS, key: { channel: number; type: SqlType } = BY_S) {
    const table = h.catalogs.get('memory')!;
    const metadata = (await table.getTable(h.session, 'default', 'big'))!;
    const preparer = table.workerSplitSource!(metadata)!;
    const columns = ['id', 's', 'n'];
    const splits = (await allSplits(table.getSplits(h.session, metadata))).map((split) => preparer.prepare(split, columns, h.session));
    const count = resolveAggregateFunction('count', []);
    const sum = resolveAggregateFunction('sum', [INTEGER]);
    const { fragment, partialTypes } = countAndSumPipeline(columns, filter, key, true);
    const final: HashAggregationSpec = {
      inputTypes: partialTypes,
      groupChannels: [0],
      aggregates: [
        { function: count, argumentChannels: [1], distinct: false },
        { function: sum, argumentChannels: [2], distinct: false },
      ],
      step: 'final',
    };
    const single: HashAggregationSpec = {
      inputTypes: [key.type, INTEGER],
      groupChannels: [0],
      aggregates: [
        { function: count, argumentChannels: [], distinct: false },
        { function: sum, argumentChannels: [1], distinct: false },
      ],
      step: 'single',
    };
    const abort = new AbortController();
    const progress = newQueryProgress();
    const env = {
      operator: { memory: new MemoryContext('test', 1 << 30), signal: abort.signal, timeZone: 'UTC' },
      session: h.session,
      progress,
    };
    const aggregation = { final, single, key: `partitioned-final test ${String(++runs)}` };
    return { stream: parallelSource(env, { fragment, splits, workers, aggregation }, pool), abort, progress };
  }

  async function collect(stream: AsyncIterable<Page>): Promise<{ rows: Scalar[][]; pages: number }> {
    const rows: Scalar[][] = [];
    let pages = 0;
    for await (const page of stream) {
      pages++;
      for (const row of pageRows(page)) rows.push(row);
    }
    return { rows, pages };
  }

  it('gives every group once, with the values of one aggregation in the main thread', async () => {
    const before = pool.stats().tasksStarted;
    const { stream, progress } = await groupedCounts();
    const { rows, pages } = await collect(stream);
    expect(pool.stats().tasksStarted - before).to.equal(workers);
    // Each worker sends its own partition of the groups (a final aggregation here would send one page).
    expect(pages).to.equal(workers);
    const expected = await rowsWith(h, 'SELECT s, count(*), sum(n) FROM big GROUP BY s', IN_MAIN_THREAD);
    expect(rows.length).to.equal(100);
    expect(sortedRows(rows)).to.deep.equal(sortedRows(expected));
    expect(progress.completedSplits).to.equal(progress.totalSplits);
  });

  it('takes the work back when partial aggregation does not pay, stopping the workers waiting for their peers', async () => {
    const before = pool.stats().fallbacks;
    const { stream, progress } = await groupedCounts(ALL_ROWS, BY_ID);
    const { rows } = await collect(stream);
    expect(pool.stats().fallbacks).to.equal(before + 1);
    expect(sortedRows(rows)).to.deep.equal(
      sortedRows(await rowsWith(h, 'SELECT id, count(*), sum(n) FROM big GROUP BY id', IN_MAIN_THREAD)),
    );
    expect([progress.completedSplits, progress.processedRows]).to.deep.equal([progress.totalSplits, BIG_ROWS]);
    while (pool.stats().runningTasks > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  });

  it('reports a worker error and stops the workers waiting for their peers', async () => {
    const failing = call(
      'greater_than',
      BOOLEAN,
      call('divide', INTEGER, constant(1, INTEGER), call('subtract', INTEGER, inputRef(0, INTEGER), constant(150000, INTEGER))),
      constant(0, INTEGER),
    );
    const { stream } = await groupedCounts(failing);
    try {
      await collect(stream);
      expect.fail('expected DIVISION_BY_ZERO');
    } catch (e) {
      expect(e).to.be.instanceOf(EngineError);
      expect((e as EngineError).errorName).to.equal('DIVISION_BY_ZERO');
    }
    while (pool.stats().runningTasks > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  });

  it('stops the workers when cancelled while they exchange groups', async () => {
    const { stream, abort, progress } = await groupedCounts();
    const iterator = stream[Symbol.asyncIterator]();
    const first = iterator.next();
    while (progress.runningSplits === 0 && progress.completedSplits === 0) await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    try {
      await first;
      expect.fail('expected USER_CANCELED');
    } catch (e) {
      expect((e as EngineError).errorName).to.equal('USER_CANCELED');
    }
    await iterator.return?.(undefined);
    while (pool.stats().runningTasks > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  });
});
