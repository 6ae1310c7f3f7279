import { expect } from 'chai';
import { EngineError } from '../../src/errors/engine-error.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import { EngineHarness } from '../support/engine-harness.js';
import {
  BIG_ROWS,
  IN_MAIN_THREAD,
  IN_WORKERS,
  createBigTable,
  errorOf,
  expectSameResults,
  openQuery,
  pageRows,
  workersIdle,
  type OpenQuery,
} from './parallel-helpers.js';

/** Reads the rest of a query; returns the rows, or the error it failed with. */
async function drain(query: OpenQuery): Promise<{ rows: number; error?: EngineError }> {
  let rows = 0;
  try {
    for (let page = await query.next(); page !== undefined; page = await query.next()) rows += page.rowCount;
    return { rows };
  } catch (e) {
    expect(e).to.be.instanceOf(EngineError);
    return { rows, error: e as EngineError };
  }
}

describe('parallel execution: progress, early stop, cancellation and failures', () => {
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
  });

  afterEach(workersIdle);

  it('counts splits, rows and CPU time of the workers in the query progress', async () => {
    const query = await openQuery(h, 'SELECT count(*) FROM big WHERE flag', IN_WORKERS);
    expect(pageRows((await query.next())!)).to.deep.equal([[BigInt(BIG_ROWS / 2)]]);
    expect(await query.next()).to.equal(undefined);
    const p = query.progress;
    expect(p.totalSplits).to.be.greaterThan(1);
    expect([p.completedSplits, p.queuedSplits, p.runningSplits]).to.deep.equal([p.totalSplits, 0, 0]);
    expect(p.processedRows).to.equal(BIG_ROWS);
    expect(p.processedBytes).to.be.greaterThan(0);
    expect(p.cpuTimeMillis).to.be.greaterThan(0);
  });

  it('stops the workers when LIMIT has its rows', async () => {
    // Every row passes (through a function, which makes the filter worth a worker), so a split is
    // more pages than a worker may have in flight: the workers wait for credits in their first
    // split, and only stopping them lets their tasks end.
    const query = await openQuery(h, 'SELECT id FROM big WHERE abs(id) >= 0 LIMIT 5', IN_WORKERS);
    expect(await drain(query)).to.deep.equal({ rows: 5 });
    expect(query.progress.completedSplits).to.be.lessThan(query.progress.totalSplits);
    expect(query.progress.runningSplits).to.equal(0);
    await workersIdle();
  });

  it('stops the workers when the consumer goes away', async () => {
    const query = await openQuery(h, 'SELECT id, s FROM big WHERE abs(id) >= 0', IN_WORKERS);
    expect((await query.next())!.rowCount).to.be.greaterThan(0);
    await query.close();
    await workersIdle();
  });

  it('fails with USER_CANCELED when the query is cancelled between pages', async () => {
    const query = await openQuery(h, 'SELECT id FROM big WHERE abs(id) >= 0', IN_WORKERS);
    expect((await query.next())!.rowCount).to.be.greaterThan(0);
    query.abort.abort();
    const { error } = await drain(query);
    expect([error?.errorName, error?.message]).to.deep.equal(['USER_CANCELED', 'Query was canceled']);
    await query.close();
  });

  it('fails with USER_CANCELED when the query is cancelled while it waits for the workers', async () => {
    const query = await openQuery(h, "SELECT count(*) FROM big a WHERE a.s LIKE '%-%' AND a.id * 3 > 0", IN_WORKERS);
    const waiting = drain(query);
    // Cancel once the workers are at work, before they can report the end of their last split.
    while (query.progress.runningSplits === 0 && query.progress.completedSplits === 0)
      await new Promise((resolve) => setImmediate(resolve));
    query.abort.abort();
    const { error } = await waiting;
    expect(error?.errorName).to.equal('USER_CANCELED');
    await query.close();
  });

  it('reports an error raised in a worker as the same error the main thread raises', async () => {
    const sql = 'SELECT count(*) FROM big WHERE 100 / (id - 150000) > 0';
    const local = await errorOf(h, sql, IN_MAIN_THREAD);
    const parallel = await errorOf(h, sql, IN_WORKERS);
    expect(local.errorName).to.equal('DIVISION_BY_ZERO');
    expect([parallel.errorName, parallel.message, parallel.errorCode]).to.deep.equal([local.errorName, local.message, local.errorCode]);
  });

  it('reports an overflow inside a partial aggregation as the main thread does', async () => {
    const sql = 'SELECT sum(9223372036854775807 - id) FROM big';
    const local = await errorOf(h, sql, IN_MAIN_THREAD);
    const parallel = await errorOf(h, sql, IN_WORKERS);
    expect(local.errorName).to.equal('NUMERIC_VALUE_OUT_OF_RANGE');
    expect(parallel.errorName).to.equal(local.errorName);
    // The operands named are the ones that met first: which they are depends on the split order.
    const shape = /^bigint addition overflow: \d+ \+ \d+$/;
    expect(local.message).to.match(shape);
    expect(parallel.message).to.match(shape);
  });

  it('keeps working after worker errors', async () => {
    await errorOf(h, 'SELECT id / (id - 7) FROM big WHERE flag OR abs(id) = 7', IN_WORKERS);
    await expectSameResults(h, 'SELECT n, count(*) FROM big GROUP BY n');
  });

  it('fails the running query, not the process, when the worker threads die, and starts new ones', async () => {
    const query = await openQuery(h, 'SELECT id FROM big WHERE abs(id) >= 0', IN_WORKERS);
    expect((await query.next())!.rowCount).to.be.greaterThan(0);
    await sharedThreadPool().shutdown();
    const { error } = await drain(query);
    expect(error?.errorName).to.equal('GENERIC_INTERNAL_ERROR');
    expect(error?.message).to.match(/^Worker thread exited with code \d+$/);
    await query.close();
    expect(sharedThreadPool().stats().threads).to.equal(0);
    await expectSameResults(h, 'SELECT flag, max(id) FROM big GROUP BY flag');
    expect(sharedThreadPool().stats().threads).to.be.greaterThan(0);
  });
});
