// A single node runs a query's stages as tasks of its own: their memory counts as the query's, so
// the statement stats, the query detail and the log report what the tasks held (and the per-node
// limit bounds them with the root).

import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { expectQueryPeakCoversItsTasks, queryMemoryFigures } from '../support/query-memory-figures.js';
import { runStatement } from '../support/statement-http.js';

describe('a query’s memory on a single node', function () {
  this.timeout(60_000);
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start();
  });
  after(async () => {
    await server?.stop();
  });

  it('counts what its tasks hold (a grouped aggregation) in the query’s peak memory', async () => {
    const run = await runStatement(server.uri, 'SELECT l_orderkey, count(*) FROM tpch.tiny.lineitem GROUP BY l_orderkey');
    expect(run.rows).to.have.length(15000);
    expect(run.final.stats.peakMemoryBytes as number).to.be.greaterThan(100_000);
  });

  it('reports a peak (statement stats, query detail, log) at least as large as its largest task’s', async () => {
    const figures = await queryMemoryFigures(server, 'SELECT l_orderkey, count(*) FROM tpch."sf0.1".lineitem GROUP BY l_orderkey');
    expectQueryPeakCoversItsTasks(figures, 1024 * 1024);
  });
});
