// A worker with a small memory setting, under loads that took such a worker far past its setting
// (each thread held its own decoded 300 MiB copy of the TPC-H text pool, each worker thread a heap
// as large as the main one, idle threads kept theirs): its resident memory, read from /proc, stays
// within what its settings give (memory-budget: containerMemoryBytes, what the operator sizes a pod
// by) while the load runs, and once idle comes back below the idle level the README states.

import { expect } from 'chai';
import {
  ALLOCATOR_ENV,
  containerMemoryBytes,
  heapNeededFor,
  idleResidentBytes,
  type NodeMemorySettings,
} from '../../src/config/memory-budget.js';
import { residentBytes } from '../support/process-usage.js';
import { runStatement } from '../support/statement-http.js';
import { eventually, withCluster } from './cluster-fixture.js';

const MB = 1024 * 1024;
const SETTINGS: NodeMemorySettings = { nodeMemoryBytes: 256 * MB, workerThreads: 2, tpch: true };
/** Each client's statements: scans that draw every comment (on the worker threads), a join and a distinct count. */
const CLIENT_STATEMENTS = [
  "SELECT count(*) FROM tpch.sf1.lineitem WHERE l_comment LIKE '%ironic%'",
  'SELECT o_orderpriority, count(*) FROM tpch."sf0.1".orders JOIN tpch."sf0.1".lineitem ON o_orderkey = l_orderkey WHERE l_commitdate < l_receiptdate GROUP BY 1',
  'SELECT count(DISTINCT l_comment) FROM tpch."sf0.1".lineitem',
  "SELECT count(*) FROM tpch.sf1.orders WHERE o_comment NOT LIKE '%special%requests%'",
];
const CLIENTS = 3;

describe('a worker with a small memory setting', function () {
  this.timeout(600_000);
  const cluster = withCluster(1, {
    env: { ...ALLOCATOR_ENV, NODE_OPTIONS: `--max-old-space-size=${Math.ceil(heapNeededFor(SETTINGS.nodeMemoryBytes) / MB)}` },
    workerArgs: [
      '--node-memory',
      `${SETTINGS.nodeMemoryBytes / MB}MB`,
      '--task-max-worker-threads',
      String(SETTINGS.workerThreads),
      '--task-worker-thread-idle-timeout',
      '2s',
    ],
  });

  it('stays within the resident memory its settings give under load, and gives it back when idle', async () => {
    const pid = cluster.worker('worker-1').child.pid!;
    let peak = residentBytes(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 50);
    const failures: string[] = [];
    let answered = 0;
    try {
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          for (const sql of CLIENT_STATEMENTS) {
            const run = await runStatement(cluster.coordinator.uri, sql);
            if (run.final.error === undefined) answered++;
            else failures.push(`${run.final.error.errorName}: ${run.final.error.message}`);
          }
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    // Within its memory, a query may fail for want of it; nothing else may go wrong.
    expect(failures.filter((f) => !f.startsWith('EXCEEDED_LOCAL_MEMORY_LIMIT'))).to.deep.equal([]);
    expect(answered).to.be.greaterThan(CLIENTS * 2);
    expect(peak, `peak ${Math.round(peak / MB)}MB`).to.be.at.most(containerMemoryBytes(SETTINGS));
    const idle = idleResidentBytes(SETTINGS);
    await eventually(
      `resident memory below ${Math.round(idle / MB)}MB`,
      async () => (residentBytes(pid) <= idle ? true : undefined),
      120_000,
    );
  });
});
