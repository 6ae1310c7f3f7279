// Lambdas in plans that go to workers: the scan's Filter and Project (and the aggregation's argument
// projection) run on worker processes, so the lambdas in them travel in the task request and are
// compiled there, capturing the row's columns. The oracle is the TPC-H generator's reference tables,
// computed in plain JavaScript.

import { expect } from 'chai';
import { referenceTbl } from '../tpch/helpers.js';
import { runStatement } from '../support/statement-http.js';
import { USER, withCluster } from './cluster-fixture.js';

interface Order {
  orderkey: number;
  custkey: number;
  status: string;
  shippriority: number;
}

function orders(): Order[] {
  return referenceTbl('orders')
    .trim()
    .split('\n')
    .map((line) => line.split('|'))
    .map((f) => ({ orderkey: Number(f[0]), custkey: Number(f[1]), status: f[2], shippriority: Number(f[7]) }));
}

describe('lambdas over a cluster (coordinator + 2 workers)', function () {
  this.timeout(180_000);
  const cluster = withCluster(2);

  it("filters and projects with lambdas that capture the row's columns", async () => {
    const sql = `SELECT o_orderkey,
        transform(ARRAY[o_custkey, o_shippriority, NULL], x -> x * 10 + o_orderkey % 7),
        filter(sequence(1, o_orderkey % 6 + 1), x -> x % 2 = 0),
        reduce(ARRAY[o_custkey, o_orderkey], 0, (s, x) -> s + x, s -> s * 2)
      FROM tpch.tiny.orders
      WHERE any_match(ARRAY[o_custkey, o_orderkey], x -> x % 10 = 3) AND o_orderstatus = 'F'
      ORDER BY o_orderkey`;
    const run = await runStatement(cluster.coordinator.uri, sql, USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.columns?.map((c) => c.type)).to.deep.equal(['bigint', 'array(bigint)', 'array(bigint)', 'bigint']);
    const expected = orders()
      .filter((o) => o.status === 'F' && (o.custkey % 10 === 3 || o.orderkey % 10 === 3))
      .sort((a, b) => a.orderkey - b.orderkey)
      .map((o) => [
        o.orderkey,
        [o.custkey * 10 + (o.orderkey % 7), o.shippriority * 10 + (o.orderkey % 7), null],
        Array.from({ length: (o.orderkey % 6) + 1 }, (_, i) => i + 1).filter((x) => x % 2 === 0),
        (o.custkey + o.orderkey) * 2,
      ]);
    expect(expected.length).to.be.greaterThan(100);
    expect(run.rows).to.deep.equal(expected);
  });

  it("aggregates a lambda's result per group", async () => {
    const sql = `SELECT o_orderstatus, sum(reduce(ARRAY[o_custkey, o_shippriority, o_orderkey], 0, (s, x) -> s + x, s -> s)),
        count_if(all_match(ARRAY[o_custkey, o_orderkey], x -> x > 100))
      FROM tpch.tiny.orders GROUP BY o_orderstatus ORDER BY 1`;
    const run = await runStatement(cluster.coordinator.uri, sql, USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    const groups = new Map<string, [number, number]>();
    for (const o of orders()) {
      const [sum, count] = groups.get(o.status) ?? [0, 0];
      groups.set(o.status, [sum + o.custkey + o.shippriority + o.orderkey, count + (o.custkey > 100 && o.orderkey > 100 ? 1 : 0)]);
    }
    const expected = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([status, [sum, count]]) => [status, sum, count]);
    expect(run.rows).to.deep.equal(expected);
  });

  it('fails the query with the error a lambda raises on a worker', async () => {
    const run = await runStatement(
      cluster.coordinator.uri,
      'SELECT transform(ARRAY[o_custkey], x -> x / (o_orderkey - 1)) FROM tpch.tiny.orders',
      USER,
    );
    expect(run.final.error?.errorName).to.equal('DIVISION_BY_ZERO');
  });
});
