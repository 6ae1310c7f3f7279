// A routine looping forever in the worker threads of a scan ends when its query is cancelled: the
// loop reads the query's shared cancel flag with its clock, so the threads are free for the next
// query (without that, they spin on and the next query that needs them never finishes).

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { sharedThreadPool } from '../../src/exec/threads/thread-pool.js';

/** Resolves once the shared worker pool runs a task. */
async function workersRunning(): Promise<void> {
  while (sharedThreadPool().stats().runningTasks === 0) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('SQL routines: cancelling a query whose routine never ends', function () {
  this.timeout(120_000);

  it('frees the worker threads the routine ran on', async () => {
    const engine = new EngineHarness();
    const abort = new AbortController();
    const spinning = engine.query(
      'WITH FUNCTION spin(x bigint) RETURNS bigint BEGIN LOOP SET x = x + 1; END LOOP; RETURN x; END SELECT count(*) FROM tpch.sf1.lineitem WHERE spin(l_orderkey) > 0',
      abort.signal,
    );
    const outcome = spinning.then(
      () => 'finished',
      (e: { errorName?: string }) => e.errorName,
    );
    await workersRunning();
    abort.abort();
    expect(await outcome).to.equal('USER_CANCELED');
    // The next query runs its scan on the same threads.
    const { rows } = await engine.query(
      'WITH FUNCTION next(x bigint) RETURNS bigint RETURN x + 1 SELECT count(*) FROM tpch.sf1.lineitem WHERE next(l_orderkey) > 0',
    );
    expect(rows).to.deep.equal([[6001215n]]);
  });
});
