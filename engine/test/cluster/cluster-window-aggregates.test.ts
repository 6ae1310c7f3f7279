// Aggregates with ORDER BY, DISTINCT and lambdas over windows in plans that go to workers: the
// window's function handle (its ordering, DISTINCT and lambdas) travels in the task request. The
// oracle is the TPC-H generator's reference orders, computed in plain JavaScript.

import { expect } from 'chai';
import { referenceTbl } from '../tpch/helpers.js';
import { runStatement } from '../support/statement-http.js';
import { USER, withCluster } from './cluster-fixture.js';

describe('aggregates with ORDER BY and DISTINCT over windows on a cluster (coordinator + 2 workers)', function () {
  this.timeout(180_000);
  const cluster = withCluster(2);

  it('computes each partition as one node does', async () => {
    const sql = `SELECT o_orderkey,
        array_agg(o_orderstatus ORDER BY o_orderkey DESC) OVER (PARTITION BY o_custkey ORDER BY o_orderkey ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
        count(DISTINCT o_orderstatus) OVER (PARTITION BY o_custkey),
        reduce_agg(o_shippriority + 1, 0, (s, x) -> s + x, (s, t) -> s + t) OVER (PARTITION BY o_custkey)
      FROM tpch.tiny.orders WHERE o_custkey < 200 ORDER BY o_orderkey`;
    const run = await runStatement(cluster.coordinator.uri, sql, USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    const orders = referenceTbl('orders')
      .trim()
      .split('\n')
      .map((line) => line.split('|'))
      .map((f) => ({ orderkey: Number(f[0]), custkey: Number(f[1]), status: f[2], shippriority: Number(f[7]) }))
      .filter((o) => o.custkey < 200)
      .sort((a, b) => a.orderkey - b.orderkey);
    const byCustomer = new Map<number, typeof orders>();
    for (const o of orders) byCustomer.set(o.custkey, [...(byCustomer.get(o.custkey) ?? []), o]);
    const expected = orders.map((o) => {
      const partition = byCustomer.get(o.custkey)!;
      const at = partition.indexOf(o);
      const frame = partition.slice(Math.max(0, at - 2), at + 1).reverse();
      return [
        o.orderkey,
        frame.map((f) => f.status),
        new Set(partition.map((p) => p.status)).size,
        partition.reduce((s, p) => s + p.shippriority + 1, 0),
      ];
    });
    expect(expected.length).to.be.greaterThan(500);
    expect(run.rows).to.deep.equal(expected);
  });
});
