// A SOURCE stage over a table of fewer splits than the cluster has workers creates a task only where
// a split goes: tiny's nation and region are one split each, so with two workers each of their stages
// has one task, and the replicated build side (region, joined to nation) goes to that one task
// instead of also to a task that reads nothing and hashes it for nothing. A table of several splits
// (sf1's orders) still gets a task on every worker. The answers are TPC-H's: 25 nations, 1,500,000 orders.
// Those build sides are tiny tables, which by default every task of the probe's stage reads itself
// (distributed/tiny-build-side.ts): the replicated stages are asked for with that switched off.

import { expect } from 'chai';
import { getJson, postStatement, type StatementResponse } from '../support/statement-http.js';
import { tasksOf, USER, withCluster } from './cluster-fixture.js';

const BUILD_STAGES = { ...USER, 'X-Engine-Session': 'tiny_build_side_in_probe_stage=false' };

const NATIONS_IN_REGIONS = 'SELECT count(*) FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.n_regionkey = r.r_regionkey';
const ORDERS_IN_NATIONS = 'SELECT count(*) FROM tpch.sf1.orders o JOIN tpch.tiny.nation n ON o.o_custkey % 25 = n.n_nationkey';

describe('source stage tasks', function () {
  this.timeout(120_000);
  const cluster = withCluster(2);

  /** The query's answer, and how many tasks each of its stages had over both workers, by fragment id. */
  async function run(
    sql: string,
    headers: Record<string, string> = BUILD_STAGES,
  ): Promise<{ rows: unknown[][]; tasksPerStage: Map<string, number> }> {
    let response = (await postStatement(cluster.coordinator.uri, sql, headers)).body;
    const queryId = response.id;
    const rows: unknown[][] = [];
    while (response.nextUri) {
      response = (await getJson<StatementResponse>(response.nextUri, { headers })).body;
      rows.push(...(response.data ?? []));
    }
    expect(response.error, response.error?.message).to.equal(undefined);
    const tasksPerStage = new Map<string, number>();
    for (const worker of ['worker-1', 'worker-2'])
      for (const task of await tasksOf(cluster.worker(worker).uri, queryId)) {
        const fragment = task.taskId.split('.')[1];
        tasksPerStage.set(fragment, (tasksPerStage.get(fragment) ?? 0) + 1);
      }
    return { rows, tasksPerStage };
  }

  it('gives a stage over a table of one split one task, which alone receives the replicated build side', async () => {
    const { rows, tasksPerStage } = await run(NATIONS_IN_REGIONS);
    expect(rows).to.deep.equal([[25]]);
    // The nation scan's stage (probing region) and region's stage.
    expect([...tasksPerStage.values()]).to.deep.equal([1, 1]);
  });

  it('still gives a stage over a table of several splits a task on every worker', async () => {
    const { rows, tasksPerStage } = await run(ORDERS_IN_NATIONS);
    expect(rows).to.deep.equal([[1500000]]);
    // orders' stage on both workers, nation's on one.
    expect([...tasksPerStage.values()].sort()).to.deep.equal([1, 2]);
  });

  it('reads a tiny build side in the probe stage by default: no stage of its own, one task per split of the probe', async () => {
    const nations = await run(NATIONS_IN_REGIONS, USER);
    expect(nations.rows).to.deep.equal([[25]]);
    expect([...nations.tasksPerStage.values()]).to.deep.equal([1]);
    const orders = await run(ORDERS_IN_NATIONS, USER);
    expect(orders.rows).to.deep.equal([[1500000]]);
    expect([...orders.tasksPerStage.values()]).to.deep.equal([2]);
  });
});
