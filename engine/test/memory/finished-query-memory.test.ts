// A finished query keeps only its statistics: run after run of a query that builds tens of MB of
// operator state, a server with a small V8 heap and the default query history stays alive and its
// heap does not grow (before, each finished query kept its operator tree and the 15th run or so
// died of "JavaScript heap out of memory").

import { expect } from 'chai';
import { ServerProcess } from '../support/server-process.js';
import { getJson, runStatement } from '../support/statement-http.js';

const MB = 1024 * 1024;
const RUNS = 16;
/** About 50 MB of distinct strings in the hash table of each run. */
const SQL = 'SELECT count(DISTINCT l_comment) FROM tpch."sf0.1".lineitem';

describe('memory of finished queries', function () {
  this.timeout(120_000);
  let server: ServerProcess;

  before(async () => {
    server = await ServerProcess.start([], { NODE_OPTIONS: '--max-old-space-size=256' });
  });
  after(async () => {
    await server.stop();
  });

  it(`runs a query retaining tens of MB ${RUNS} times in a 256 MB heap without the heap growing`, async () => {
    const heapUsed: number[] = [];
    let answer: unknown;
    for (let run = 0; run < RUNS; run++) {
      const result = await runStatement(server.uri, SQL);
      expect(result.final.error?.message, `run ${run}`).to.equal(undefined);
      answer ??= result.rows[0][0];
      expect(result.rows[0][0], `run ${run}`).to.equal(answer);
      const status = await getJson<{ heapUsed: number }>(`${server.uri}/v1/status`);
      heapUsed.push(status.body.heapUsed);
    }
    expect(server.running).to.equal(true);
    // Garbage is collected lazily, so compare the highest figure of the last runs with the first ones'.
    const early = Math.max(...heapUsed.slice(0, 5));
    const late = Math.max(...heapUsed.slice(-5));
    expect(late, `heapUsed per run (MB): ${heapUsed.map((b) => Math.round(b / MB)).join(' ')}`).to.be.below(early + 32 * MB);
    const history = await getJson<unknown[]>(`${server.uri}/v1/query`);
    expect(history.body.length).to.be.at.least(RUNS);
  });
});
