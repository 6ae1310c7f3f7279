// A routine that never leaves its loop, called on a task's main thread (a projection over VALUES,
// not a parallel scan): it runs in a worker thread (exec/threads/off-thread-routines.ts), so a
// real server keeps answering while it loops, serves the query's DELETE, and the query ends
// USER_CANCELED at once rather than at query_max_execution_time (default: far beyond this test's
// timeout). Before, the loop held the event loop: /v1/info did not answer and the DELETE waited.

import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { follow, getJson, postStatement, query } from '../support/statement-http.js';

const SPIN = 'WITH FUNCTION spin(x bigint) RETURNS bigint BEGIN LOOP SET x = x + 1; END LOOP; RETURN x; END ';

/** Generous: this asserts that the server answers at all while the routine loops, not how fast. */
const ANSWER_TIMEOUT_MILLIS = 3000;

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

async function answers(url: string, init: RequestInit = {}): Promise<number> {
  return (await fetch(url, { ...init, signal: AbortSignal.timeout(ANSWER_TIMEOUT_MILLIS) })).status;
}

describe('SQL routines: cancelling a query whose routine loops on the main thread of its task', function () {
  this.timeout(120_000);

  for (const [what, sql] of [
    ['a projection', `${SPIN}SELECT spin(x) FROM (VALUES 1, 2) t(x)`],
    ['a filter', `${SPIN}SELECT x FROM (VALUES 1, 2) t(x) WHERE spin(x) > 0`],
    ['a constant call', `${SPIN}SELECT spin(1)`],
  ]) {
    it(`in ${what}: the node answers while it loops, serves the DELETE, and the query is FAILED USER_CANCELED`, async () => {
      const server = await ServerProcess.start();
      try {
        const base = server.uri;
        const first = await postStatement(base, sql);
        expect(first.status).to.equal(200);
        const id = (first.body as { id: string }).id;
        let state = 'QUEUED';
        while (state !== 'RUNNING') {
          state = (await getJson<{ state: string }>(`${base}/v1/query/${id}`, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MILLIS) })).body
            .state;
          expect(state).to.be.oneOf(['QUEUED', 'WAITING_FOR_RESOURCES', 'DISPATCHING', 'PLANNING', 'STARTING', 'RUNNING']);
          await sleep(50);
        }
        for (let i = 0; i < 5; i++) {
          expect(await answers(`${base}/v1/info`)).to.equal(200);
          await sleep(100);
        }
        expect(await answers(`${base}/v1/query/${id}`, { method: 'DELETE' })).to.equal(204);
        const run = await follow(first);
        expect(run.final.stats.state).to.equal('FAILED');
        expect(run.final.error?.errorName).to.equal('USER_CANCELED');
        expect(await query(base, 'SELECT 1')).to.deep.equal([[1]]);
      } finally {
        await server.stop();
      }
    });
  }
});
