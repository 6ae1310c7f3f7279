// A query's memory on the coordinator: the sum of what it holds here and what its tasks elsewhere
// last reported, its peak the largest such sum (or one task's own peak), never a sum of peaks
// reached at different moments; tasks on this node are not counted twice.

import { expect } from 'chai';
import { QueryMemoryUsage } from '../../src/coordinator/query-memory.js';
import { MemoryContext } from '../../src/exec/memory.js';

describe('a query’s memory over its tasks', () => {
  const make = () => {
    const local = new MemoryContext('query', 1 << 30);
    const root = local.child('root task');
    return { local, root, usage: new QueryMemoryUsage(local, root) };
  };

  it('adds what tasks on other nodes hold now to what the query holds here', () => {
    const { root, usage } = make();
    root.reserve(1000);
    usage.taskReported('q.1.0', { reservedBytes: 5000, peakBytes: 5000 }, false);
    usage.taskReported('q.1.1', { reservedBytes: 7000, peakBytes: 7000 }, false);
    expect(usage.reservedBytes).to.equal(13_000);
    usage.taskReported('q.1.0', { reservedBytes: 2000, peakBytes: 5000 }, false);
    expect(usage.reservedBytes).to.equal(10_000);
    expect(usage.peakBytes).to.equal(13_000);
  });

  it('takes the peak over time, not the sum of peaks reached at different moments', () => {
    const { usage } = make();
    usage.taskReported('q.1.0', { reservedBytes: 8000, peakBytes: 8000 }, false);
    usage.taskReported('q.1.0', { reservedBytes: 0, peakBytes: 8000 }, false);
    usage.taskReported('q.2.0', { reservedBytes: 6000, peakBytes: 6000 }, false);
    usage.taskReported('q.2.0', { reservedBytes: 0, peakBytes: 6000 }, false);
    expect(usage.peakBytes).to.equal(8000);
    expect(usage.peakTaskBytes).to.equal(8000);
  });

  it('covers a task peak no report saw, and its own peak here', () => {
    const { local, usage } = make();
    usage.taskReported('q.1.0', { reservedBytes: 100, peakBytes: 9000 }, false);
    expect(usage.peakBytes).to.equal(9000);
    local.child('a task here').reserve(20_000);
    expect(usage.peakBytes).to.equal(20_100);
  });

  it('does not count a task on this node twice: it reserves under the query here already', () => {
    const { local, usage } = make();
    const task = local.child('q.1.0');
    task.reserve(4000);
    usage.taskReported('q.1.0', { reservedBytes: 4000, peakBytes: 4000 }, true);
    expect(usage.reservedBytes).to.equal(4000);
    expect(usage.peakBytes).to.equal(4000);
    expect(usage.peakTaskBytes).to.equal(4000);
  });

  it('holds nothing once the query ended, a task that never reported its end included', () => {
    const { usage } = make();
    usage.taskReported('q.1.0', { reservedBytes: 3000, peakBytes: 3000 }, false);
    usage.end();
    expect(usage.reservedBytes).to.equal(0);
    usage.taskReported('q.1.0', { reservedBytes: 3000, peakBytes: 3500 }, false);
    expect(usage.reservedBytes).to.equal(0);
    expect(usage.peakBytes).to.equal(3500);
  });

  it('counts the root stage’s task among the tasks', () => {
    const { root, usage } = make();
    root.reserve(12_000);
    root.free(12_000);
    usage.taskReported('q.1.0', { reservedBytes: 500, peakBytes: 500 }, false);
    expect(usage.peakTaskBytes).to.equal(12_000);
  });
});
