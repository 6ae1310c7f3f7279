// A thread job that finishes a grouped aggregation (its partition of the groups) tells the main
// thread what its groups hold while it aggregates them: the groups grow after its last split is
// done and before its first rows go out, when no split or page report carries its memory.

import { expect } from 'chai';
import { allSplits } from '../../src/spi/connector.js';
import { ThreadJob } from '../../src/exec/threads/thread-job.js';
import type { StartJob, ThreadToMain } from '../../src/exec/threads/thread-messages.js';
import { call, constant, inputRef } from '../../src/sql/planner/row-expression.js';
import { BOOLEAN, INTEGER } from '../../src/types/types.js';
import { EngineHarness } from '../support/engine-harness.js';
import { countAndSumPipeline, createBigTable } from './parallel-helpers.js';

describe('parallel execution: memory of a final step run on a thread', () => {
  let h: EngineHarness;

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
  });

  it('reports its groups to the main thread between its last split and its first page', async () => {
    const table = h.catalogs.get('memory')!;
    const metadata = (await table.getTable(h.session, 'default', 'big'))!;
    const preparer = table.workerSplitSource!(metadata)!;
    const columns = ['id', 's', 'n'];
    const prepared = (await allSplits(table.getSplits(h.session, metadata))).map((split) => preparer.prepare(split, columns, h.session));
    await Promise.all(prepared.map((split) => split.ready()));
    const allRows = call('greater_than_or_equal', BOOLEAN, inputRef(0, INTEGER), constant(0, INTEGER));
    // One group per id: 200,000 groups, several megabytes in the final step's table.
    const { fragment } = countAndSumPipeline(columns, allRows, { channel: 0, type: INTEGER }, false);
    const start: StartJob = {
      type: 'start',
      taskId: 1,
      fragment,
      session: h.session,
      cancelFlag: new Int32Array(new SharedArrayBuffer(4)),
      credits: 1 << 20,
      memoryLimitBytes: 1 << 30,
      builds: [],
      // The only thread: it owns every partition.
      exchange: { partition: 0, peers: [null] },
    };
    const messages: ThreadToMain[] = [];
    const splits = [...prepared];
    const job: ThreadJob = new ThreadJob(start, (message) => {
      messages.push(message);
      if (message.type === 'needSplit') {
        const next = splits.shift();
        setImmediate(() => job.receive({ type: 'split', taskId: 1, split: next === undefined ? null : next.worker }));
      }
    });
    await job.run();

    const kinds = messages.map((m) => m.type);
    expect(kinds).to.include('done');
    const lastSplit = kinds.lastIndexOf('splitDone');
    const firstPage = kinds.indexOf('page');
    expect(lastSplit).to.be.greaterThan(-1);
    expect(firstPage).to.be.greaterThan(lastSplit);
    const between = messages.slice(lastSplit + 1, firstPage).filter((m) => m.type === 'memory');
    expect(between.length, 'memory reports while the final step aggregates').to.be.greaterThan(0);
    const reported = Math.max(...between.map((m) => (m.type === 'memory' ? m.memoryBytes : 0)));
    expect(reported).to.be.greaterThan(1 << 20);
  });
});
