// A worker runs the physical plan its task request carries, as the coordinator made it, and plans
// nothing itself: on a real server process, one SOURCE fragment sent twice — once with the plan the
// coordinator makes (its scan and filter on worker threads: a ParallelScan) and once with that
// ParallelScan's main-thread subtree as the plan — runs as parallelSource in the first task and as
// tableScan + filterAndProject in the second, both with the rows of the reference data.

import { expect } from 'chai';
import type { TaskInfo } from '../../src/internode/task-info.js';
import type { PhysicalNodeJson } from '../../src/sql/planner/physical/physical-plan-json.js';
import { InternalAuthenticator } from '../../src/server/internal-auth/internal-authenticator.js';
import { toTaggedJson } from '../../src/sql/planner/plan-json.js';
import { dbgenRows } from '../support/dbgen-rows.js';
import { EngineHarness } from '../support/engine-harness.js';
import { ServerProcess } from '../support/server-process.js';
import { sourceTask } from '../support/source-task.js';
import { taskRows } from '../support/task-results.js';

const SECRET = 'shipped physical plan secret 7c1e';
const SQL = "SELECT l_orderkey, l_linenumber FROM tpch.tiny.lineitem WHERE l_comment LIKE '%fur%'";
/** Splits the task reads: enough for its threads (parallel_min_splits is 2). */
const SPLITS = 4;

describe('a worker runs the physical plan it is sent', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  const harness = new EngineHarness();
  const peer = new InternalAuthenticator(SECRET, 'peer');

  before(async () => {
    server = await ServerProcess.start([], { ENGINE_SHARED_SECRET: SECRET });
  });

  after(async () => {
    await server?.stop();
  });

  /** The lineitem rows of the reference data whose comment has 'fur', as `orderkey|linenumber`. */
  const reference = () =>
    dbgenRows('lineitem')
      .filter((fields) => fields[15].includes('fur'))
      .map((fields) => `${fields[0]}|${fields[3]}`)
      .sort();

  /** Runs the fragment as a task with `physical` (default: the coordinator's plan); its rows and its operators' names. */
  async function run(queryNumber: number, physical?: (coordinators: PhysicalNodeJson) => PhysicalNodeJson) {
    const task = await sourceTask(harness, SQL, `20261201_000000_${String(queryNumber).padStart(5, '0')}_plans`);
    // The table's rows as SPLITS ranges of orders, so that the threads have splits to share.
    const [whole] = task.splits;
    const orders = (whole.split.info as { end: number }).end;
    const step = Math.ceil(orders / SPLITS);
    const splits = Array.from({ length: SPLITS }, (_, i) => ({
      sequenceId: i,
      split: { ...whole.split, info: { start: i * step, end: Math.min(orders, (i + 1) * step) } },
    }));
    const request = {
      ...task.request,
      physicalPlan: physical ? physical(task.request.physicalPlan!) : task.request.physicalPlan,
      sources: [{ ...task.request.sources[0], splits }],
    };
    const headers = { 'Content-Type': 'application/json', ...peer.authorizationHeader() };
    const created = await fetch(`${server.uri}/v1/task/${task.taskId}`, { method: 'POST', body: toTaggedJson(request), headers });
    expect(created.status, await created.text()).to.equal(200);
    const rows = (await taskRows(server.uri, task.taskId, peer.authorizationHeader())).map((r) => `${r[0]}|${r[1]}`).sort();
    const info = (await (await fetch(`${server.uri}/v1/task/${task.taskId}`, { headers })).json()) as TaskInfo;
    await fetch(`${server.uri}/v1/task/${task.taskId}`, { method: 'DELETE', headers });
    return {
      plan: request.physicalPlan!,
      rows,
      operators: info.stats.pipelines.flatMap((p) => p.operatorSummaries.map((o) => o.operatorType)),
    };
  }

  it('runs the ParallelScan it is sent on its threads, and the same fragment sent as a main-thread plan in the main thread', async () => {
    const expected = reference();
    expect(expected.length).to.be.greaterThan(100);

    const parallel = await run(1);
    expect(parallel.plan.kind).to.equal('ParallelScan');
    expect(parallel.operators).to.include('parallelSource').and.not.include('tableScan');
    expect(parallel.rows).to.deep.equal(expected);

    const mainThread = await run(2, (coordinators) => {
      if (coordinators.kind !== 'ParallelScan') throw new Error(`expected a ParallelScan, got ${coordinators.kind}`);
      return coordinators.inMainThread;
    });
    expect(mainThread.plan.kind).to.equal('Operator');
    expect(mainThread.operators).to.include.members(['tableScan', 'filterAndProject']).and.not.include('parallelSource');
    expect(mainThread.rows).to.deep.equal(expected);
  });
});
