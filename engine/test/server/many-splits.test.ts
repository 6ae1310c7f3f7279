// A table of 100,000 splits (tpch.sf100000.lineitem, the tpch connector's most) on a single node:
// a LIMIT over it answers with rows of the table, and the query's one scan task gets its splits in
// bounded batches rather than all of them at once (which held the event loop for seconds), while
// the node keeps answering.

import { expect } from 'chai';
import { MAX_PENDING_SPLITS_SINGLE_TASK } from '../../src/coordinator/scheduler/split-assigner.js';
import { eventually } from '../cluster/cluster-fixture.js';
import { openQuery } from '../support/node-state-http.js';
import { ServerProcess } from '../support/server-process.js';
import { follow, query } from '../support/statement-http.js';

const TABLE = 'tpch.sf100000.lineitem';
const TABLE_SPLITS = 100_000;

interface TaskListEntry {
  taskId: string;
  stats: { totalSplits: number; queuedSplits: number };
}

describe('a table of 100,000 splits on one node', function () {
  this.timeout(120_000);
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start();
  });

  after(async () => {
    await server?.stop();
  });

  it('answers a LIMIT over it with rows of the table', async () => {
    const rows = await query(server.uri, `SELECT l_orderkey FROM ${TABLE} LIMIT 3`);
    expect(rows).to.have.length(3);
    // TPC-H order keys are sparse: of every 32 keys only the first 8 are used (the first is 1).
    for (const [key] of rows) {
      expect(Number(key)).to.be.greaterThan(0);
      expect(Number(key) % 32).to.be.below(8);
    }
  });

  it(`keeps the query's scan task at most ${MAX_PENDING_SPLITS_SINGLE_TASK} splits ahead, and answers meanwhile`, async () => {
    const open = await openQuery(server.uri, `SELECT count(*) FROM ${TABLE}`);
    const queryId = open.body.id;
    const task = await eventually(`a task of ${queryId} with splits`, async () => {
      const tasks = (await (await fetch(`${server.uri}/v1/task`)).json()) as TaskListEntry[];
      return tasks.find((t) => t.taskId.startsWith(`${queryId}.`) && t.stats.totalSplits > 0);
    });
    expect(task.stats.totalSplits).to.be.below(TABLE_SPLITS);
    expect(task.stats.queuedSplits).to.be.at.most(MAX_PENDING_SPLITS_SINGLE_TASK);
    expect((await fetch(`${server.uri}/v1/info`)).status).to.equal(200);

    expect((await fetch(`${server.uri}/v1/query/${queryId}`, { method: 'DELETE' })).status).to.equal(204);
    const run = await follow(open);
    expect(run.final.error?.errorName).to.equal('USER_CANCELED');
  });
});
