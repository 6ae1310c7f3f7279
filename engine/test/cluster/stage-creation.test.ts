// A query's stages are created all at once, not one after the other: while one worker does not
// answer (stopped with SIGSTOP, not yet declared gone), the other already holds a task of every
// stage placed on it. Before, the stage above waited for every creation of the stage below, so each
// short query paid a round trip to a busy worker per stage. Once the stopped worker runs again, the
// query finishes with TPC-H's answer: sf0.1 has 150,000 orders, each its own key (SF x 1,500,000,
// unique keys). The scan has three splits, so both workers get a task of it (a table of one split
// gets one task). Each stage starts on the next worker, so the first tasks of its stages, which
// take the larger share of a small table's few splits, go round the workers.

import { expect } from 'chai';
import { getJson, postStatement, type StatementResponse } from '../support/statement-http.js';
import { eventually, tasksOf, USER, withCluster } from './cluster-fixture.js';

/** Three stages: the orders scan with a partial aggregation, the final aggregation (both on every worker), the count. */
const SQL = 'SELECT count(*) FROM (SELECT o_orderkey FROM tpch."sf0.1".orders GROUP BY o_orderkey)';

describe('stage creation', function () {
  this.timeout(120_000);
  // The stopped worker is not declared gone while the test looks at the other one.
  const cluster = withCluster(2, { coordinatorArgs: ['--heartbeat-timeout', '60s'] });

  it('creates the tasks of every stage without waiting for the stage below to be created', async () => {
    const stopped = cluster.worker('worker-2');
    const running = cluster.worker('worker-1');
    let first: StatementResponse;
    stopped.signal('SIGSTOP');
    try {
      first = (await postStatement(cluster.coordinator.uri, SQL, USER)).body;
      const fragments = await eventually(
        `tasks of two stages of ${first.id} on worker-1`,
        async () => {
          const ids = new Set((await tasksOf(running.uri, first.id)).map((t) => t.taskId.split('.')[1]));
          return ids.size >= 2 ? ids : undefined;
        },
        20_000,
      );
      expect(fragments.size).to.be.at.least(2);
    } finally {
      stopped.signal('SIGCONT');
    }
    let response = first;
    const rows: unknown[][] = [];
    while (response.nextUri) {
      response = (await getJson<StatementResponse>(response.nextUri, { headers: USER })).body;
      rows.push(...(response.data ?? []));
    }
    expect(response.error, response.error?.message).to.equal(undefined);
    expect(rows).to.deep.equal([[150000]]);
  });

  it("starts each stage on the next worker: the stages' first tasks, which take the larger share of few splits, are on different workers", async () => {
    const first = (await postStatement(cluster.coordinator.uri, SQL, USER)).body;
    let response = first;
    while (response.nextUri) response = (await getJson<StatementResponse>(response.nextUri, { headers: USER })).body;
    expect(response.error, response.error?.message).to.equal(undefined);
    const firstTaskStages = async (worker: string) =>
      (await tasksOf(cluster.worker(worker).uri, first.id))
        .map((t) => t.taskId.split('.'))
        .filter((id) => id[2] === '0')
        .map((id) => id[1]);
    const onOne = await firstTaskStages('worker-1');
    const onTwo = await firstTaskStages('worker-2');
    // Two stages run on both workers (the scan with its partial aggregation, the final aggregation).
    expect(onOne.length + onTwo.length).to.equal(2);
    expect(onOne, `first tasks on worker-1: stages ${onOne.join(', ')}`).to.have.length(1);
    expect(onTwo, `first tasks on worker-2: stages ${onTwo.join(', ')}`).to.have.length(1);
  });
});
