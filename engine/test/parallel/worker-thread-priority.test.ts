// Worker threads run below the event loop's CPU priority (task.workerThreadNice): read back from
// Linux's own view of the process's threads (/proc/self/task/*/stat), not from the pool.

import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { defaultThreadPoolOptions, ThreadPool } from '../../src/exec/threads/thread-pool.js';
import { eventually } from '../cluster/cluster-fixture.js';

/** Each thread's nice value, by thread id. */
function threadNiceValues(): Map<number, number> {
  const values = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command name in parentheses start at field 3 (state); nice is field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    values.set(Number(tid), Number(fields[19 - 3]));
  }
  return values;
}

describe('worker thread priority', function () {
  this.timeout(30_000);

  it('starts each worker thread the configured nice steps below the event loop', async () => {
    const mainNice = threadNiceValues().get(process.pid)!;
    const before = new Set(threadNiceValues().keys());
    const pool = new ThreadPool({ ...defaultThreadPoolOptions(2), nice: 7 });
    try {
      pool.acquire(2);
      const lowered = await eventually(
        'two new threads at the lower priority',
        async () => {
          const found = [...threadNiceValues()].filter(([tid, nice]) => !before.has(tid) && nice === Math.min(19, mainNice + 7));
          return found.length >= 2 ? found : undefined;
        },
        20_000,
      );
      expect(lowered).to.have.length(2);
      expect(threadNiceValues().get(process.pid)).to.equal(mainNice);
    } finally {
      await pool.shutdown();
    }
  });
});
