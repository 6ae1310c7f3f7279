// The coordinator's split assignment over a table's splits as a connector makes them (an iterator
// that counts what was taken from it): a stage of one task gets bounded batches, topped up once half
// of a batch started, and the connector is asked for a batch at a time, not for the whole table; a
// stage of several tasks keeps each of them a few splits ahead. Every split goes out once, numbered
// in increasing order per task, and every task hears there are no more.

import { expect } from 'chai';
import {
  MAX_PENDING_SPLITS_PER_TASK,
  MAX_PENDING_SPLITS_SINGLE_TASK,
  SplitAssigner,
} from '../../src/coordinator/scheduler/split-assigner.js';
import type { Split } from '../../src/spi/connector.js';
import type { TableScanNode } from '../../src/sql/planner/plan.js';
import { MAX_SPLITS_PER_TASK_UPDATE, type ScanSplits } from '../../src/internode/task-update-request.js';

const SPLITS = 100_000;

const scan: TableScanNode = {
  kind: 'TableScan',
  id: 7,
  outputs: [],
  table: { catalog: 'tpch', schema: 'sf100000', name: 'lineitem', columns: [] },
  columns: [],
};

/** `count` splits made as they are taken; `taken` says how many were. */
function lazySplits(count: number): { splits: AsyncIterable<Split>; taken: () => number } {
  let taken = 0;
  async function* make(): AsyncGenerator<Split> {
    for (let i = 0; i < count; i++) {
      taken++;
      yield { catalog: 'tpch', schema: 'sf100000', table: 'lineitem', info: { start: i, end: i + 1 } };
    }
  }
  return { splits: make(), taken: () => taken };
}

const unitsOf = (update: ScanSplits[]) => update[0].splits.map((s) => (s.split.info as { start: number }).start);

describe('split assignment', () => {
  it('gives the only task of a stage bounded batches, taking them from the connector a batch at a time', async () => {
    const { splits, taken } = lazySplits(SPLITS);
    const assigner = new SplitAssigner([scan], new Map([[scan.id, splits]]), 1);
    expect(MAX_PENDING_SPLITS_SINGLE_TASK).to.be.at.most(MAX_SPLITS_PER_TASK_UPDATE);

    await assigner.prepareInitial();
    const first = assigner.initial(0);
    expect(first[0].splits).to.have.length(MAX_PENDING_SPLITS_SINGLE_TASK);
    expect(first[0].noMoreSplits).to.equal(false);
    // The batch, and the one after it to know that more remain.
    expect(taken()).to.equal(MAX_PENDING_SPLITS_SINGLE_TASK + 1);

    // More than half of the batch waits: not worth an update yet.
    expect(await assigner.next(0, MAX_PENDING_SPLITS_SINGLE_TASK, MAX_PENDING_SPLITS_SINGLE_TASK / 2 + 1, true, true)).to.equal(undefined);
    // Sent but not yet in the task's info: counted as waiting.
    expect(await assigner.next(0, 0, 0, true, true)).to.equal(undefined);
    const refill = (await assigner.next(0, MAX_PENDING_SPLITS_SINGLE_TASK, 100, true, true))!;
    expect(refill[0].splits.map((s) => s.sequenceId)).to.deep.equal(
      Array.from({ length: MAX_PENDING_SPLITS_SINGLE_TASK - 100 }, (_, i) => MAX_PENDING_SPLITS_SINGLE_TASK + i),
    );
    expect(unitsOf(refill)[0]).to.equal(MAX_PENDING_SPLITS_SINGLE_TASK);

    // Run to the end, the task starting every split it got: every split once, in order, then no more.
    const units = [...unitsOf(first), ...unitsOf(refill)];
    let received = units.length;
    let updates = 2;
    for (;;) {
      const update = await assigner.next(0, received, 0, true, true);
      if (update === undefined) break;
      expect(update[0].splits.length).to.be.at.most(MAX_PENDING_SPLITS_SINGLE_TASK);
      units.push(...unitsOf(update));
      received += update[0].splits.length;
      updates++;
      if (update[0].noMoreSplits) break;
    }
    expect(units).to.deep.equal(Array.from({ length: SPLITS }, (_, i) => i));
    expect(updates).to.be.at.least(SPLITS / MAX_PENDING_SPLITS_SINGLE_TASK);
    expect(assigner.exhausted()).to.equal(true);
    expect(await assigner.next(0, received, 0, true, true)).to.equal(undefined);
  });

  it(`keeps each task of a stage of several at most ${MAX_PENDING_SPLITS_PER_TASK} splits ahead, then tells every one there are no more`, async () => {
    const { splits, taken } = lazySplits(20);
    const assigner = new SplitAssigner([scan], new Map([[scan.id, splits]]), 2);
    await assigner.prepareInitial();
    const first = [assigner.initial(0), assigner.initial(1)];
    expect(first.map((u) => unitsOf(u))).to.deep.equal([
      [0, 1, 2, 3, 4, 5, 6, 7],
      [8, 9, 10, 11, 12, 13, 14, 15],
    ]);
    expect(taken()).to.equal(17);
    // Task 1 started 3 of its splits: 3 more; task 0 started none: nothing.
    expect(await assigner.next(0, 8, 8, true, true)).to.equal(undefined);
    const more = (await assigner.next(1, 8, 5, true, true))!;
    expect(unitsOf(more)).to.deep.equal([16, 17, 18]);
    expect(more[0].splits.map((s) => s.sequenceId)).to.deep.equal([8, 9, 10]);
    // The last split; then no-more-splits to the other task too.
    const last = (await assigner.next(1, 11, 7, true, true))!;
    expect(unitsOf(last)).to.deep.equal([19]);
    expect(last[0].noMoreSplits).to.equal(true);
    expect(assigner.finish(0)).to.deep.equal([{ planNodeId: scan.id, splits: [], noMoreSplits: true }]);
    expect(assigner.finish(1)).to.equal(undefined);
  });

  it('tells every task there are no more splits in its first request when the first requests hand out every split', async () => {
    const { splits } = lazySplits(3);
    const assigner = new SplitAssigner([scan], new Map([[scan.id, splits]]), 2);
    await assigner.prepareInitial();
    expect(assigner.keepTasksWithSplits()).to.equal(2);
    const first = [assigner.initial(0), assigner.initial(1)];
    expect(first.map((u) => unitsOf(u))).to.deep.equal([[0, 1], [2]]);
    expect(first.map((u) => u[0].noMoreSplits)).to.deep.equal([true, true]);
    // Nothing left to send either task, not even a no-more-splits.
    expect(await assigner.next(0, 2, 0, true, true)).to.equal(undefined);
    expect(assigner.finish(0)).to.equal(undefined);
    expect(assigner.finish(1)).to.equal(undefined);
  });
});
