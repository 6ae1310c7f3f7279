import { expect } from 'chai';
import { MAX_GROUPS_PER_ROW, PROBE_ROWS } from '../../src/exec/threads/adaptive-partial.js';
import { knownPoorReduction, rememberPoorReduction } from '../../src/exec/threads/poor-reductions.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, IN_WORKERS, createBigTable, expectSameResults, openQuery, pageRows, rowsWith, sortedRows } from './parallel-helpers.js';

describe('parallel execution: partial aggregation that does not pay goes back to the main thread (partitioned_aggregation off)', () => {
  let h: EngineHarness;
  const fallbacks = () => sharedThreadPool().stats().fallbacks;

  before(async () => {
    h = new EngineHarness();
    h.session.properties.set('partitioned_aggregation', 'false');
    await createBigTable(h);
    // Each of two workers reads half of `big`: more than a probe, so a worker can tell early.
    expect(BIG_ROWS / 2).to.be.greaterThan(PROBE_ROWS);
  });

  it('runs an aggregation over nearly unique keys in the main thread, with the same results', async () => {
    const before = fallbacks();
    const rows = await expectSameResults(h, 'SELECT id, count(*), sum(price), max(s) FROM big GROUP BY id');
    expect(rows.length).to.equal(BIG_ROWS);
    expect(fallbacks()).to.equal(before + 1);
  });

  it('remembers that partial aggregation did not pay: the same query runs in the main thread at once', async () => {
    const sql = 'SELECT id, max(n) FROM big GROUP BY id';
    const first = await rowsWith(h, sql, IN_WORKERS);
    const before = sharedThreadPool().stats();
    const again = await rowsWith(h, sql, IN_WORKERS);
    const after = sharedThreadPool().stats();
    expect([after.tasksStarted, after.fallbacks]).to.deep.equal([before.tasksStarted, before.fallbacks]);
    expect(sortedRows(again)).to.deep.equal(sortedRows(first));
  });

  it('forgets such a verdict after a while, so that a changed table is probed again', () => {
    const key = 'memory.default.t:some fragment';
    const now = Date.now();
    rememberPoorReduction(key, now);
    expect(knownPoorReduction(key, now + 1000)).to.equal(true);
    expect(knownPoorReduction(key, now + 60 * 60 * 1000)).to.equal(false);
    expect(knownPoorReduction(key, now + 1000)).to.equal(false);
  });

  it('keeps an aggregation whose probe leaves few groups per row on the workers', async () => {
    const before = fallbacks();
    // 100 groups, and id % 1000: at most 1000 groups for 65536 probe rows, below the bound.
    expect(1000 / PROBE_ROWS).to.be.lessThan(MAX_GROUPS_PER_ROW);
    await expectSameResults(h, 'SELECT s, count(*), sum(price) FROM big GROUP BY s');
    await expectSameResults(h, 'SELECT id % 1000, count(*) FROM big GROUP BY 1');
    expect(fallbacks()).to.equal(before);
  });

  it('counts the splits and rows of the main thread, not those the workers gave back', async () => {
    const query = await openQuery(h, 'SELECT count(*) FROM (SELECT id, count(*) FROM big GROUP BY id)', IN_WORKERS);
    expect(pageRows((await query.next())!)).to.deep.equal([[BigInt(BIG_ROWS)]]);
    expect(await query.next()).to.equal(undefined);
    const p = query.progress;
    expect([p.completedSplits, p.queuedSplits, p.runningSplits]).to.deep.equal([p.totalSplits, 0, 0]);
    expect(p.processedRows).to.equal(BIG_ROWS);
  });

  it('gives back an aggregation whose whole input fit in the probe when its keys were nearly unique', async () => {
    await h.run('CREATE TABLE few AS SELECT * FROM big WHERE id < 50000');
    expect(50000).to.be.lessThan(PROBE_ROWS);
    const before = fallbacks();
    expect((await expectSameResults(h, 'SELECT id, count(*) FROM few GROUP BY id')).length).to.equal(50000);
    expect(fallbacks()).to.equal(before + 1);
    await expectSameResults(h, 'SELECT n, count(*) FROM few GROUP BY n');
    expect(fallbacks()).to.equal(before + 1);
  });
});
