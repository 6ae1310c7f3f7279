// With partitioned_aggregation on (the default), a grouped aggregation whose partial step does not
// reduce its rows runs in one step on the worker threads, each thread aggregating a partition of
// the groups (its rows exchanged between the threads by key hash), instead of in the main thread.

import { expect } from 'chai';
import { PROBE_ROWS } from '../../src/exec/threads/adaptive-partial.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, IN_MAIN_THREAD, IN_WORKERS, createBigTable, openQuery, pageRows, rowsWith, sortedRows } from './parallel-helpers.js';

describe('parallel execution: an aggregation whose partial step does not pay, in one step partitioned across the threads', () => {
  let h: EngineHarness;
  const stats = () => sharedThreadPool().stats();

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
    // Each of two threads reads half of `big`: more than a probe, so a thread can tell early.
    expect(BIG_ROWS / 2).to.be.greaterThan(PROBE_ROWS);
  });

  it('gives every group once, with the values of the main thread, after giving the partial step up', async () => {
    const sql = 'SELECT id, count(*), sum(price), max(s), sum(n) FILTER (WHERE flag) FROM big GROUP BY id';
    const expected = await rowsWith(h, sql, IN_MAIN_THREAD);
    const before = stats();
    const rows = await rowsWith(h, sql, IN_WORKERS);
    const after = stats();
    expect(after.fallbacks).to.equal(before.fallbacks + 1);
    // Two threads gave the partial step up, two more ran the whole aggregation (nothing in the main thread).
    expect(after.tasksStarted - before.tasksStarted).to.equal(4);
    expect(rows.length).to.equal(BIG_ROWS);
    expect(sortedRows(rows)).to.deep.equal(sortedRows(expected));
  });

  it('remembers the verdict: the same query runs in one step on the threads at once', async () => {
    const sql = 'SELECT id, max(n), min(day) FROM big GROUP BY id';
    const first = await rowsWith(h, sql, IN_WORKERS);
    const before = stats();
    const again = await rowsWith(h, sql, IN_WORKERS);
    const after = stats();
    expect([after.tasksStarted - before.tasksStarted, after.fallbacks]).to.deep.equal([2, before.fallbacks]);
    expect(sortedRows(again)).to.deep.equal(sortedRows(first));
    expect(sortedRows(again)).to.deep.equal(sortedRows(await rowsWith(h, sql, IN_MAIN_THREAD)));
  });

  it('counts each split and row once, though two runs read them', async () => {
    const query = await openQuery(h, 'SELECT count(*) FROM (SELECT id, sum(dbl) FROM big GROUP BY id)', IN_WORKERS);
    expect(pageRows((await query.next())!)).to.deep.equal([[BigInt(BIG_ROWS)]]);
    expect(await query.next()).to.equal(undefined);
    const p = query.progress;
    expect([p.completedSplits, p.queuedSplits, p.runningSplits]).to.deep.equal([p.totalSplits, 0, 0]);
    expect(p.processedRows).to.equal(BIG_ROWS);
  });

  it('says in EXPLAIN ANALYZE what it chose', async () => {
    const text = (
      await rowsWith(h, 'EXPLAIN ANALYZE SELECT id, count(*) FROM big WHERE n IS NOT NULL GROUP BY id', IN_WORKERS)
    )[0][0] as string;
    expect(text).to.match(
      /Adaptive partial aggregation: [^\n]*else the whole aggregation in one step on the threads, each on a partition of the groups by key hash; chosen: keeps too many groups: the whole aggregation in one step on the threads, partitioned by key hash/,
    );
    expect(text).to.match(
      /Adaptive final step: partitioned across the threads when at least 2 run \(partitioned_aggregation\), else the main thread/,
    );
  });

  it('stops its threads when cancelled while they exchange rows', async () => {
    const sql = 'SELECT id, count(*) FROM big GROUP BY id';
    // Once the verdict is known, the threads start with the rows' exchange at once.
    await rowsWith(h, sql, IN_WORKERS);
    const query = await openQuery(h, sql, IN_WORKERS);
    const first = query.next();
    while (query.progress.completedSplits === 0) await new Promise((resolve) => setImmediate(resolve));
    query.abort.abort();
    try {
      await first;
      expect.fail('expected USER_CANCELED');
    } catch (e) {
      expect((e as { errorName?: string }).errorName).to.equal('USER_CANCELED');
    }
    await query.close();
    while (stats().runningTasks > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  });
});
