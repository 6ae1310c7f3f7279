// Memory limits of a distributed query: a query's tasks on one worker share query.max-memory-per-node
// there (EXCEEDED_LOCAL_MEMORY_LIMIT, raised by the worker), and all its tasks on all nodes together
// are held to query.max-memory, or a lower session query_max_memory (EXCEEDED_GLOBAL_MEMORY_LIMIT,
// raised by the coordinator from the tasks' reports). Either way the cluster stays healthy. The
// query's memory figures add up what its tasks on every node reserved.

import { expect } from 'chai';
import { expectQueryPeakCoversItsTasks, queryMemoryFigures } from '../support/query-memory-figures.js';
import { query, runStatement } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';

describe('memory limits over a cluster', function () {
  this.timeout(180_000);
  const cluster = withCluster(2, { workerArgs: ['--query-max-memory-per-node', '48MB'] });

  it('fails a query whose tasks on a worker outgrow query.max-memory-per-node there', async () => {
    const run = await runStatement(
      cluster.coordinator.uri,
      'SELECT count(*) FROM (SELECT l_orderkey, l_partkey, count(*) FROM tpch.sf1.lineitem GROUP BY 1, 2)',
      { 'X-Engine-User': 'test' },
    );
    expect(run.final.error?.errorName, run.final.error?.message).to.equal('EXCEEDED_LOCAL_MEMORY_LIMIT');
    expect(run.final.error?.message).to.contain('48.00MB');
  });

  it('fails a query whose tasks together outgrow the session query_max_memory', async () => {
    const run = await runStatement(
      cluster.coordinator.uri,
      'SELECT count(*) FROM (SELECT l_orderkey, count(*) FROM tpch.sf1.lineitem GROUP BY 1)',
      { 'X-Engine-User': 'test', 'X-Engine-Session': 'query_max_memory=4MB' },
    );
    expect(run.final.error?.errorName, run.final.error?.message).to.equal('EXCEEDED_GLOBAL_MEMORY_LIMIT');
    expect(run.final.error?.message).to.match(/distributed memory limit of 4(\.00)?MB/);
  });

  it("reports a query's memory as what its tasks on every node held: its peak covers its largest task's", async () => {
    const figures = await queryMemoryFigures(
      cluster.coordinator,
      'SELECT l_orderkey, count(*) FROM tpch."sf0.1".lineitem GROUP BY l_orderkey',
    );
    // A stage on each worker at least, and the root on the coordinator.
    expect(figures.taskCount).to.be.at.least(3);
    expectQueryPeakCoversItsTasks(figures, 1024 * 1024);
  });

  it('still runs queries afterwards', async () => {
    expect(await query(cluster.coordinator.uri, 'SELECT count(*) FROM tpch.tiny.lineitem')).to.deep.equal([[60175]]);
  });
});
