import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { query, runStatement } from '../support/statement-http.js';
import { sortedRows } from './parallel-helpers.js';

describe('parallel execution in a real server', () => {
  let server: ServerProcess;
  const inMainThread = { 'X-Trino-Session': 'parallel_min_splits=0' };
  const inWorkers = { 'X-Trino-Session': 'parallel_min_splits=1' };

  before(async () => {
    server = await ServerProcess.start();
    await query(server.uri, 'CREATE TABLE memory.default.digits AS SELECT * FROM (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) t(x)');
    await query(
      server.uri,
      `CREATE TABLE memory.default.facts AS
       SELECT a.x * 10000 + b.x * 1000 + c.x * 100 + d.x * 10 + e.x AS id, CAST(b.x AS varchar) AS k, CAST(c.x AS decimal(10,2)) / 8 AS v
       FROM memory.default.digits a, memory.default.digits b, memory.default.digits c, memory.default.digits d, memory.default.digits e`,
    );
  });

  after(async () => {
    if (server.running) await server.stop();
  });

  it('answers queries on worker threads as in the main thread, statistics included', async () => {
    const sql = 'SELECT k, count(*), sum(v), max(id) FROM memory.default.facts WHERE id % 3 <> 0 GROUP BY k';
    const local = await query(server.uri, sql, inMainThread);
    const parallel = await runStatement(server.uri, sql, inWorkers);
    expect(parallel.final.error).to.equal(undefined);
    expect(sortedRows(parallel.rows as never)).to.deep.equal(sortedRows(local as never));
    expect(parallel.final.stats.processedRows).to.equal(100_000);
    expect(parallel.final.stats.completedSplits).to.equal(parallel.final.stats.totalSplits);
  });

  it('reports a worker error with its Trino name', async () => {
    const run = await runStatement(server.uri, 'SELECT count(*) FROM memory.default.facts WHERE 1 / (id - 500) > 0', inWorkers);
    expect([run.final.error?.errorName, run.final.error?.message]).to.deep.equal(['DIVISION_BY_ZERO', 'Division by zero']);
  });

  it('shuts down promptly after using worker threads', async () => {
    await query(server.uri, 'SELECT count(*) FROM memory.default.facts WHERE id > 7', inWorkers);
    expect(await server.stop()).to.equal(0);
    expect(server.logs.some((l) => l.msg === 'server stopped')).to.equal(true);
  });
});
