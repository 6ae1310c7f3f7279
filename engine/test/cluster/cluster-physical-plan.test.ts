// The coordinator plans each fragment's physical plan for the nodes its tasks go to: a coordinator
// with one worker thread and a worker that announces three plan the worker's scan on three threads
// (task_concurrency 3), EXPLAIN (TYPE DISTRIBUTED) on the coordinator prints that plan — the one the
// task request carries — and the query over the cluster answers the reference data's rows.

import { expect } from 'chai';
import { dbgenRows } from '../support/dbgen-rows.js';
import { query } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';

const SQL = "SELECT count(*), sum(l_linenumber) FROM tpch.tiny.lineitem WHERE l_comment LIKE '%fur%'";
const SESSION = { 'X-Trino-Session': 'task_concurrency=3' };

describe('physical plans over a cluster', function () {
  this.timeout(180_000);
  const cluster = withCluster(1, {
    coordinatorArgs: ['--task-max-worker-threads', '1'],
    workerArgs: ['--task-max-worker-threads', '3'],
  });

  it("plans the worker's fragment for the threads the worker announced, prints that plan, and answers the reference rows", async () => {
    const [[text]] = (await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${SQL}`, SESSION)) as string[][];
    const source = text.slice(text.indexOf('[SOURCE]'));
    expect(source, text).to.match(/ParallelScan\[threads = 3, splits = assigned\]/);
    // The root fragment runs on the coordinator: its own single thread is not what the worker's scan is planned for.
    expect(text).not.to.match(/ParallelScan\[threads = 1/);

    const fur = dbgenRows('lineitem').filter((fields) => fields[15].includes('fur'));
    const [[count, sum]] = await query(cluster.coordinator.uri, SQL, SESSION);
    expect([Number(count), Number(sum)]).to.deep.equal([fur.length, fur.reduce((total, fields) => total + Number(fields[3]), 0)]);
  });
});
