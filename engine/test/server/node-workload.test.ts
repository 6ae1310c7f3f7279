// GET /v1/status's workload measures the node's real work, and the node state machine waits on the
// same figures: a query counts until its client has read the final response.

import { expect } from 'chai';
import type { NodeWorkload } from '../../src/internode/node-workload.js';
import { openQuery, putState, waitForNodeState } from '../support/node-state-http.js';
import { ServerProcess } from '../support/server-process.js';
import { follow, getJson } from '../support/statement-http.js';
import { MILLION_ROWS_SQL } from './sql-fixtures.js';

async function workload(base: string): Promise<NodeWorkload> {
  return (await getJson<{ workload: NodeWorkload }>(`${base}/v1/status`)).body.workload;
}

const IDLE: NodeWorkload = {
  runningQueries: 0,
  queuedQueries: 0,
  queriesAwaitingClient: 0,
  runningTasks: 0,
  queuedSplits: 0,
  runningSplits: 0,
  bufferedOutputBytes: 0,
};

describe('node workload', function () {
  this.timeout(60_000);

  it('counts running and queued queries and the output they buffer for their clients', async () => {
    const server = await ServerProcess.start(['--query-max-running', '1']);
    try {
      const base = server.uri;
      expect(await workload(base)).to.deep.equal(IDLE);
      const running = await openQuery(base, MILLION_ROWS_SQL);
      const queued = await openQuery(base, 'SELECT 2');
      const busy = await workload(base);
      expect(busy).to.include({ runningQueries: 1, queuedQueries: 1, queriesAwaitingClient: 0, runningTasks: 0 });
      expect(busy.bufferedOutputBytes).to.be.greaterThan(0);
      expect((await follow(running)).rows).to.have.length(1_000_000);
      expect((await follow(queued)).rows).to.deep.equal([[2]]);
      expect(await workload(base)).to.deep.equal(IDLE);
    } finally {
      await server.stop();
    }
  });

  it('counts a finished query until its client reads the final response, and ISOLATING waits for it', async () => {
    const server = await ServerProcess.start();
    try {
      const base = server.uri;
      // No rows: the query finishes on its own, and only its final response is left for the client.
      const open = await openQuery(base, 'SELECT 1 WHERE false');
      while ((await workload(base)).runningQueries > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await workload(base)).to.include({ runningQueries: 0, queuedQueries: 0, queriesAwaitingClient: 1 });
      expect(await putState(base, '"ISOLATING"')).to.deep.equal({ status: 200, body: 'ISOLATING' });
      const run = await follow(open);
      expect(run.final.stats.state).to.equal('FINISHED');
      expect(run.rows).to.deep.equal([]);
      await waitForNodeState(base, 'ISOLATED');
      expect(await workload(base)).to.deep.equal(IDLE);
    } finally {
      await server.stop();
    }
  });
});
