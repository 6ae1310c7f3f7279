// The query timeline tool (scripts/bench/query-timeline.ts) over a real coordinator and 2 workers:
// TPC-H's 25 nations cross one exchange into the root stage, and every task the workers ran shows
// in the timeline with its node.

import { expect } from 'chai';
import { exchangeFigures, queryTimeline, type QueryInfoJson } from '../../scripts/bench/query-timeline.js';
import { tasksOf, USER, withCluster } from '../cluster/cluster-fixture.js';
import { getJson, runStatement } from '../support/statement-http.js';

describe('query timeline', function () {
  this.timeout(120_000);
  const cluster = withCluster(2);

  it("counts the rows that cross each exchange and lists every task's times", async () => {
    const run = await runStatement(cluster.coordinator.uri, 'SELECT n_name FROM tpch.tiny.nation', USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.rows).to.have.length(25);
    const queryId = run.final.id;
    const info = (await getJson<QueryInfoJson>(`${cluster.coordinator.uri}/v1/query/${queryId}`, { headers: USER })).body;

    const intoRoot = exchangeFigures(info).filter((e) => e.stage === '0');
    expect(intoRoot.reduce((sum, e) => sum + e.rows, 0)).to.equal(25);
    expect(intoRoot.reduce((sum, e) => sum + e.bytes, 0)).to.be.greaterThan(0);

    const lines = queryTimeline(info);
    expect(lines[0]).to.match(new RegExp(`^${queryId}: ended at \\d+ ms`));
    const workerTasks = [
      ...(await tasksOf(cluster.worker('worker-1').uri, queryId, USER)),
      ...(await tasksOf(cluster.worker('worker-2').uri, queryId, USER)),
    ];
    expect(workerTasks).to.not.have.length(0);
    for (const task of workerTasks) {
      const shortId = task.taskId.split('.').slice(1).join('.');
      expect(lines.some((l) => l.trimStart().startsWith(`task ${shortId} on worker-`) && /created \d+, ended \d+/.test(l))).to.equal(true);
    }
  });
});
