// Worker threads give their memory back when idle: a thread without a task for the pool's idle
// timeout is stopped (its heap goes with it), and the next query starts a new one and answers the same.

import { expect } from 'chai';
import { configureSharedThreadPool, sharedThreadPool, type ThreadPoolOptions } from '../../src/exec/threads/thread-pool.js';
import { EngineHarness } from '../support/engine-harness.js';
import { eventually } from '../cluster/cluster-fixture.js';
import { createBigTable, expectSameResults, sortedRows } from './parallel-helpers.js';

describe('idle worker threads', function () {
  this.timeout(60_000);
  let h: EngineHarness;
  let saved: ThreadPoolOptions;

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
    saved = sharedThreadPool().settings;
    configureSharedThreadPool({ ...saved, idleMillis: 200 });
  });

  after(() => {
    configureSharedThreadPool(saved);
  });

  it('are stopped after the idle timeout, and the next query starts new ones', async () => {
    const first = await expectSameResults(h, 'SELECT flag, max(id), count(*) FROM big GROUP BY flag');
    const stopped = sharedThreadPool().stats().threadsStopped;
    await eventually('the worker threads stopped', async () => (sharedThreadPool().stats().threads === 0 ? true : undefined), 20_000);
    expect(sharedThreadPool().stats().threadsStopped).to.be.greaterThan(stopped);
    // Each thread finishes its own partition of the groups: they come in either order.
    const again = await expectSameResults(h, 'SELECT flag, max(id), count(*) FROM big GROUP BY flag');
    expect(sortedRows(again)).to.deep.equal(sortedRows(first));
    expect(sharedThreadPool().stats().threads).to.be.greaterThan(0);
  });
});
