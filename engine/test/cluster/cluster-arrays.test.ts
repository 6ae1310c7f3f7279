// Arrays across the Arrow exchange between worker processes (List vectors): every element type and a
// nested array come back exactly, a GROUP BY on an array key repartitioned by the keys' hashes merges
// equal arrays from every worker, and a partitioned join on array keys meets equal arrays in one
// partition. The oracle is the TPC-H generator's reference tables, computed in plain JavaScript.

import { expect } from 'chai';
import { referenceRows } from '../tpch/helpers.js';
import { query, runStatement } from '../support/statement-http.js';
import { PARTITIONED, USER, withCluster } from './cluster-fixture.js';

describe('arrays over a cluster (coordinator + 2 workers)', function () {
  this.timeout(180_000);
  const cluster = withCluster(2);

  it('sends arrays of every element type, NULLs and nested arrays through the exchange exactly', async () => {
    const sql = `SELECT n_nationkey,
        ARRAY[n_nationkey, n_regionkey, NULL],
        ARRAY[n_name, NULL, ''],
        ARRAY[ARRAY[n_nationkey], ARRAY[], NULL],
        ARRAY[CAST(n_nationkey AS double) / 4, nan()],
        ARRAY[CAST(n_nationkey AS decimal(20,2)) * 1000000000000],
        ARRAY[DATE '2020-01-01' + n_nationkey * INTERVAL '1' DAY],
        ARRAY[n_nationkey % 2 = 0],
        ARRAY[BIGINT '-4000000000000' - n_nationkey],
        CASE WHEN n_nationkey % 3 = 0 THEN NULL ELSE ARRAY[CAST(n_name AS varbinary)] END
      FROM tpch.tiny.nation ORDER BY n_nationkey`;
    const run = await runStatement(cluster.coordinator.uri, sql, USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.columns?.map((c) => c.type)).to.deep.equal([
      'bigint',
      'array(bigint)',
      'array(varchar(25))',
      'array(array(bigint))',
      'array(double)',
      'array(decimal(38,2))',
      'array(date)',
      'array(boolean)',
      'array(bigint)',
      'array(varbinary)',
    ]);
    const expected = referenceRows('nation').map(([key, name, region]) => {
      const k = Number(key);
      const day = String(k + 1).padStart(2, '0');
      return [
        k,
        [k, Number(region), null],
        [name, null, ''],
        [[k], [], null],
        [k / 4, 'NaN'],
        [`${k === 0 ? '0' : `${k}000000000000`}.00`],
        [`2020-01-${day}`],
        [k % 2 === 0],
        [-4000000000000 - k],
        k % 3 === 0 ? null : [Buffer.from(name, 'latin1').toString('base64')],
      ];
    });
    expect(run.rows).to.deep.equal(expected);
  });

  it("groups on an array key across workers (partitioned by the arrays' hashes)", async () => {
    const sql = `SELECT k, count(*) FROM (SELECT ARRAY[o_custkey % 5, o_shippriority, CASE WHEN o_orderkey % 2 = 0 THEN NULL ELSE 1 END] AS k FROM tpch.tiny.orders)
      GROUP BY k ORDER BY k[1], k[3]`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, USER);
    expect(plan).to.match(/FIXED_HASH/);
    const counts = new Map<string, number>();
    for (const row of referenceRows('orders')) {
      const key = `${Number(row[1]) % 5}|${Number(row[0]) % 2 === 0 ? 'null' : '1'}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const expected = [...counts.entries()]
      .map(([key, n]) => {
        const [mod, last] = key.split('|');
        return [[Number(mod), 0, last === 'null' ? null : 1], n] as [unknown[], number];
      })
      .sort((a, b) => (a[0][0] as number) - (b[0][0] as number) || (a[0][2] === null ? 1 : 0) - (b[0][2] === null ? 1 : 0));
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal(expected);
  });

  it('joins on array keys in a partitioned join', async () => {
    const sql = `SELECT count(*) FROM (SELECT ARRAY[o_custkey % 100] AS k FROM tpch.tiny.orders) o
      JOIN (SELECT ARRAY[c_custkey] AS k FROM tpch.tiny.customer) c ON o.k = c.k`;
    const customers = new Set(referenceRows('customer').map((r) => Number(r[0])));
    const expected = referenceRows('orders').filter((r) => customers.has(Number(r[1]) % 100)).length;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, PARTITIONED);
    expect(plan).to.match(/FIXED_HASH/);
    expect(await query(cluster.coordinator.uri, sql, PARTITIONED)).to.deep.equal([[expected]]);
  });

  it('array_agg with ORDER BY and FILTER in partial and final steps on the workers, then UNNEST back', async () => {
    const sql = `SELECT o_orderpriority, array_agg(o_orderkey ORDER BY o_totalprice DESC, o_orderkey) FILTER (WHERE o_orderkey % 10 = 1)
      FROM tpch.tiny.orders GROUP BY o_orderpriority ORDER BY o_orderpriority`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, USER);
    expect(plan).to.match(/Aggregate\(PARTIAL\)/);
    const groups = new Map<string, [number, number][]>();
    for (const row of referenceRows('orders')) {
      const key = Number(row[0]);
      if (key % 10 !== 1) continue;
      const list = groups.get(row[5]) ?? [];
      list.push([key, Number(row[3])]);
      groups.set(row[5], list);
    }
    const expected = [...groups.keys()]
      .sort()
      .map((priority) => [
        priority,
        (groups.get(priority) as [number, number][]).sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([key]) => key),
      ]);
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal(expected);

    const unnested = `SELECT count(*), sum(k), min(o) FROM (SELECT array_agg(o_orderkey) AS a FROM tpch.tiny.orders GROUP BY o_custkey) CROSS JOIN UNNEST(a) WITH ORDINALITY AS t(k, o)`;
    const orders = referenceRows('orders');
    expect(await query(cluster.coordinator.uri, unnested, USER)).to.deep.equal([
      [orders.length, orders.reduce((sum, r) => sum + Number(r[0]), 0), 1],
    ]);
  });
});
