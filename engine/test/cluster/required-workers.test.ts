// A coordinator that takes no tasks itself (node-scheduler.include-coordinator=false) and has no
// worker yet: a query that needs one waits for it (query.requiredWorkersMaxWait) and runs on it once
// it joins, or fails with NO_NODES_AVAILABLE when none comes; a query the coordinator answers alone
// (system tables) does not wait.

import { expect } from 'chai';
import { postStatement, follow, query, runStatement } from '../support/statement-http.js';
import { TestCluster } from './cluster-fixture.js';

const NATION_COUNT = 'SELECT count(*) FROM tpch.tiny.nation';

describe('a coordinator without a node to take tasks', function () {
  this.timeout(60_000);
  let cluster: TestCluster | undefined;

  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  const start = async (maxWait: string) => {
    cluster = await TestCluster.start(0, {
      coordinatorArgs: ['--node-scheduler-include-coordinator', 'false', '--query-required-workers-max-wait', maxWait],
    });
    return cluster;
  };

  it('fails a query that needs a worker with NO_NODES_AVAILABLE once the wait is over, and answers one from system tables at once', async () => {
    const { coordinator } = await start('1s');
    const run = await runStatement(coordinator.uri, NATION_COUNT);
    expect(run.final.error?.errorName).to.equal('NO_NODES_AVAILABLE');
    expect(run.final.error?.message).to.equal('Insufficient active worker nodes. Waited 1.00s for at least 1 worker, but none is active');
    expect(await query(coordinator.uri, 'SELECT node_id, coordinator FROM system.runtime.nodes')).to.deep.equal([['coordinator', true]]);
  });

  it('runs a waiting query on the first worker that joins', async () => {
    const c = await start('1m');
    const waiting = follow(await postStatement(c.coordinator.uri, NATION_COUNT));
    // Still waiting a moment later: nothing could run it.
    await new Promise((r) => setTimeout(r, 1500));
    const [detail] = (await (await fetch(`${c.coordinator.uri}/v1/query`)).json()) as { queryId: string; state: string }[];
    expect(detail.state).to.not.be.oneOf(['FINISHED', 'FAILED']);
    await c.startWorker('worker-1');
    const run = await waiting;
    expect(run.final.error).to.equal(undefined);
    expect(run.rows).to.deep.equal([[25]]);
    const info = (await (await fetch(`${c.coordinator.uri}/v1/query/${detail.queryId}`)).json()) as { outputStage: unknown };
    expect(JSON.stringify(info.outputStage), 'a stage ran on the worker').to.have.string(c.worker('worker-1').uri.replace('http://', ''));
  });
});
