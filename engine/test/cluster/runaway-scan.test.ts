// One query must not take its workers down: an absurd tpch scale factor is refused with a clear
// error (it once made each worker draw the line counts of a 1.5-billion-order split in one piece,
// growing by hundreds of MB/s until the kernel killed it), and a scan that would run for hours
// keeps its worker's memory bounded and stops doing work once the query is cancelled.

import { expect } from 'chai';
import { processCpuMillis, residentBytes } from '../support/process-usage.js';
import { follow, getJson, postStatement, type StatementResponse } from '../support/statement-http.js';
import { eventually, withCluster } from './cluster-fixture.js';

interface WorkerStatus {
  workload: { runningTasks: number; runningSplits: number };
}

describe('a runaway scan on a worker with little memory', function () {
  this.timeout(120_000);
  const cluster = withCluster(1, {
    coordinatorArgs: ['--node-scheduler-include-coordinator', 'false'],
    workerArgs: ['--node-memory', '256MB'],
  });
  const headers = { 'X-Engine-User': 'test' };

  it('refuses a scale factor beyond what the tpch connector generates, naming the limit', async () => {
    const first = await postStatement(cluster.coordinator.uri, 'SELECT count(*) FROM tpch."sf100000000".lineitem', headers);
    // Before, the query ran (and the worker grew without bound): cancel it after a few seconds so the test fails safely.
    const cancelLater = setTimeout(() => void fetch(first.body.nextUri ?? first.body.infoUri, { method: 'DELETE', headers }), 10_000);
    try {
      const run = await follow(first, headers);
      expect(run.final.error?.errorName).to.equal('NOT_SUPPORTED');
      expect(run.final.error?.message).to.equal(
        "line 1:22: Scale factor 100000000 of schema 'sf100000000' is not supported: the tpch connector generates scale factors up to 100000, the largest TPC-H defines",
      );
    } finally {
      clearTimeout(cancelLater);
    }
  });

  it('keeps a worker bounded while it scans sf100000, and its work stops when the query is cancelled', async () => {
    const worker = cluster.worker('worker-1');
    const pid = worker.child.pid as number;
    const first = await postStatement(cluster.coordinator.uri, 'SELECT count(*) FROM tpch.sf100000.lineitem', headers);
    let current: StatementResponse = first.body;
    const poll = async (): Promise<void> => {
      if (current.nextUri !== undefined) current = (await getJson<StatementResponse>(current.nextUri, { headers })).body;
    };
    await eventually('the worker scanning', async () => {
      await poll();
      return (await getJson<WorkerStatus>(`${worker.uri}/v1/status`)).body.workload.runningSplits > 0 ? true : undefined;
    });
    let peak = 0;
    for (let i = 0; i < 12; i++) {
      await poll();
      peak = Math.max(peak, residentBytes(pid));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // A worker of 256MB node memory: its process (heap, worker threads, code) stays well under a GB.
    expect(peak).to.be.below(1024 * 1024 * 1024);

    await fetch(current.nextUri as string, { method: 'DELETE', headers });
    await eventually('the worker idle', async () => {
      const status = (await getJson<WorkerStatus>(`${worker.uri}/v1/status`)).body;
      return status.workload.runningTasks === 0 ? true : undefined;
    });
    // No thread keeps generating: the worker's CPU time barely moves over a second.
    const before = processCpuMillis(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(processCpuMillis(pid) - before).to.be.below(300);
  });
});
