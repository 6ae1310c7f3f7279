// How soon a task's split progress shows in its version (which the coordinator long-polls on): soon
// while a scan of the task may still get splits (the coordinator sends more as splits start), and
// only at the slower pace of the query's figures once the task was told there are no more — so that
// the coordinator does not fetch and decode a task info ten times a second for nothing to schedule.

import { expect } from 'chai';
import { MemoryContext } from '../../src/exec/memory.js';
import { PROGRESS_COALESCE_MILLIS, SETTLED_PROGRESS_COALESCE_MILLIS } from '../../src/worker/sql-task.js';
import { localTaskOutputs, TaskManager } from '../../src/worker/task-manager.js';
import { EngineHarness } from '../support/engine-harness.js';
import { sourceTask } from '../support/source-task.js';

describe('task split progress in the version', () => {
  const harness = new EngineHarness();
  const memory = MemoryContext.nodePool(1 << 30);
  const tasks: TaskManager = new TaskManager({
    catalogs: harness.catalogs,
    nodeMemory: memory,
    queryMaxMemoryPerNode: 1 << 30,
    outputBuffer: {},
    exchange: { local: localTaskOutputs('node', () => tasks) },
    refusal: () => undefined,
  });

  after(() => tasks.close());

  it('shows soon while the task may get more splits, and at the settled pace once it was told there are no more', async () => {
    const { request, taskId, splits } = await sourceTask(
      harness,
      'SELECT n_name FROM tpch.tiny.nation',
      '20261126_000000_00001_prog',
      false,
    );
    const task = tasks.update(taskId, request);
    expect(task.state).to.equal('RUNNING');
    expect(task.progressCoalesceMillis).to.equal(PROGRESS_COALESCE_MILLIS);
    const last = {
      session: request.session,
      sources: [{ planNodeId: request.sources[0].planNodeId, splits, noMoreSplits: true }],
      remoteSources: [],
    };
    tasks.update(taskId, last);
    expect(task.noMoreSplits).to.deep.equal([String(request.sources[0].planNodeId)]);
    expect(task.progressCoalesceMillis).to.equal(SETTLED_PROGRESS_COALESCE_MILLIS);
    expect(SETTLED_PROGRESS_COALESCE_MILLIS).to.be.above(PROGRESS_COALESCE_MILLIS);
    task.cancel(true);
  });

  it("shows the task's memory when it first reaches 1 MB and at each doubling, though no split progressed", async () => {
    const { request, taskId } = await sourceTask(harness, 'SELECT n_name FROM tpch.tiny.nation', '20261126_000000_00002_prog', false);
    const task = tasks.update(taskId, request);
    const operator = task.memory.child('operator');
    const shown = async (bytes: number): Promise<boolean> => {
      const before = task.version;
      operator.reserve(bytes);
      // Nothing else changes the version of a task that has no splits: only its memory can.
      await task.waitForChange(before, 10 * SETTLED_PROGRESS_COALESCE_MILLIS);
      return task.version !== before;
    };
    expect(await shown(1024 * 1024)).to.equal(true);
    expect(await shown(1024 * 1024)).to.equal(true);
    task.cancel(true);
  });
});
