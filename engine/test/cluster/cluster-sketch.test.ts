// Sketches across a cluster: approx_set runs as partial sketches on the workers merged by the final
// step, merge() of sketches built on the workers, and sketch values through the exchange and the
// client protocol (base64 of their bytes). Oracles: the TPC-H reference rows' exact distinct counts
// (estimates within 6 standard errors), and the bytes a single in-process node builds from the same
// rows (a HyperLogLog union is exact, so partial-then-final must give the very same sketch); for
// qdigests the exact quantiles of the reference rows and airlift's serialized header.

import { expect } from 'chai';
import { referenceRows } from '../tpch/helpers.js';
import { query } from '../support/statement-http.js';
import { EngineHarness } from '../support/engine-harness.js';
import { PARTITIONED, USER, withCluster } from './cluster-fixture.js';

const STANDARD_ERROR = 1.04 / Math.sqrt(4096);

describe('sketches over a cluster (coordinator + 2 workers)', function () {
  this.timeout(180_000);
  const cluster = withCluster(2);
  const local = new EngineHarness();

  it("approx_set per group in partial and final steps gives the single node's sketches, sent as base64", async () => {
    const sql =
      'SELECT l_returnflag, approx_set(l_partkey), cardinality(approx_set(l_orderkey)) FROM tpch.tiny.lineitem GROUP BY l_returnflag ORDER BY 1';
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, PARTITIONED);
    expect(plan).to.match(/PARTIAL/);
    const remote = await query(cluster.coordinator.uri, sql, PARTITIONED);
    const single = (await local.query(sql)).rows;
    expect(remote.map((r) => [r[0], r[1], r[2]])).to.deep.equal(
      single.map((r) => [r[0], Buffer.from(r[1] as Uint8Array).toString('base64'), Number(r[2])]),
    );
    const orders = new Map<string, Set<number>>();
    for (const row of referenceRows('lineitem')) {
      const flag = String(row[8]);
      if (!orders.has(flag)) orders.set(flag, new Set());
      orders.get(flag)?.add(Number(row[0]));
    }
    for (const [flag, , estimate] of remote) {
      const exact = orders.get(flag as string)?.size ?? 0;
      expect(Math.abs(Number(estimate) - exact)).to.be.at.most(6 * STANDARD_ERROR * exact);
    }
  });

  it("merges sketches built on the workers, as the whole set's sketch", async () => {
    const sql = `SELECT cardinality(merge(h)), (SELECT cardinality(approx_set(o_custkey)) FROM tpch.tiny.orders)
      FROM (SELECT o_orderpriority, approx_set(o_custkey) h FROM tpch.tiny.orders GROUP BY o_orderpriority)`;
    const [[merged, whole]] = await query(cluster.coordinator.uri, sql, USER);
    expect(merged).to.equal(whole);
    const exact = new Set(referenceRows('orders').map((r) => Number(r[1]))).size;
    expect(Math.abs(Number(merged) - exact)).to.be.at.most(6 * STANDARD_ERROR * exact);
  });

  it('builds set digests in partial and final steps as the single node does, and merges them', async () => {
    const sql = `SELECT o_orderstatus, make_set_digest(o_custkey), cardinality(make_set_digest(o_orderkey)) FROM tpch.tiny.orders GROUP BY o_orderstatus ORDER BY 1`;
    const remote = await query(cluster.coordinator.uri, sql, PARTITIONED);
    const single = (await local.query(sql)).rows;
    expect(remote).to.deep.equal(single.map((r) => [r[0], Buffer.from(r[1] as Uint8Array).toString('base64'), Number(r[2])]));
    const exact = new Map<string, number>();
    for (const row of referenceRows('orders')) exact.set(row[2], (exact.get(row[2]) ?? 0) + 1);
    expect(remote.map((r) => [r[0], r[2]])).to.deep.equal([...exact.entries()].sort().filter(([, n]) => n < 8192));
    const [[merged, customers]] = await query(
      cluster.coordinator.uri,
      `SELECT cardinality(merge_set_digest(d)), count(DISTINCT c) FROM
        (SELECT make_set_digest(o_custkey) d FROM tpch.tiny.orders GROUP BY o_orderpriority), (SELECT DISTINCT o_custkey c FROM tpch.tiny.orders)`,
      USER,
    );
    expect(merged).to.equal(customers);
  });

  it('builds tdigests on the workers whose merged quantiles rank within 1% of the exact ones', async () => {
    const sql = `SELECT values_at_quantiles(merge(d), ARRAY[0.1, 0.5, 0.9]), typeof(merge(d))
      FROM (SELECT l_suppkey, tdigest_agg(l_extendedprice) d FROM tpch.tiny.lineitem GROUP BY l_suppkey)`;
    const [[values, type]] = (await query(cluster.coordinator.uri, sql, PARTITIONED)) as [number[], string][];
    expect(type).to.equal('tdigest');
    const prices = referenceRows('lineitem').map((r) => Number(r[5]));
    [0.1, 0.5, 0.9].forEach((q, i) => {
      const below = prices.filter((p) => p < values[i]).length / prices.length;
      const atOrBelow = prices.filter((p) => p <= values[i]).length / prices.length;
      expect(q).to.be.within(below - 0.01, atOrBelow + 0.01);
    });
    const [[encoded]] = await query(cluster.coordinator.uri, 'SELECT tdigest_agg(n_nationkey) FROM tpch.tiny.nation', USER);
    const bytes = Buffer.from(encoded as string, 'base64');
    expect([bytes[0], bytes.readDoubleLE(1), bytes.readDoubleLE(9), bytes.readDoubleLE(25)]).to.deep.equal([0, 0, 24, 25]);
  });

  it("builds qdigests in partial and final steps whose quantiles rank within their accuracy, sent as base64 of airlift's layout", async () => {
    const sql = `SELECT l_returnflag, values_at_quantiles(qdigest_agg(l_partkey), ARRAY[0.1, 0.5, 0.9]), typeof(qdigest_agg(l_partkey))
      FROM tpch.tiny.lineitem GROUP BY l_returnflag ORDER BY 1`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, PARTITIONED);
    expect(plan).to.match(/PARTIAL/);
    const remote = (await query(cluster.coordinator.uri, sql, PARTITIONED)) as [string, number[], string][];
    const lines = referenceRows('lineitem');
    for (const [flag, values, type] of remote) {
      expect(type).to.equal('qdigest(bigint)');
      const parts = lines.filter((r) => String(r[8]) === flag).map((r) => Number(r[1]));
      [0.1, 0.5, 0.9].forEach((q, i) => {
        const below = parts.filter((p) => p < values[i]).length / parts.length;
        const atOrBelow = parts.filter((p) => p <= values[i]).length / parts.length;
        expect(q, `${flag} q ${q}`).to.be.within(below - 0.01, atOrBelow + 0.01);
      });
    }
    const [[encoded]] = await query(cluster.coordinator.uri, 'SELECT qdigest_agg(n_nationkey) FROM tpch.tiny.nation', USER);
    const bytes = Buffer.from(encoded as string, 'base64');
    // format, accuracy, min, max, node count (25 leaves need 24 inner nodes)
    expect([bytes[0], bytes.readDoubleLE(1), bytes.readBigInt64LE(25), bytes.readBigInt64LE(33), bytes.readInt32LE(41)]).to.deep.equal([
      0,
      0.01,
      0n,
      24n,
      49,
    ]);
  });
});
