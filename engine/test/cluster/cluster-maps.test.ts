// Maps across the Arrow exchange between worker processes (Map vectors: offsets over a struct of keys
// and values): maps of many key and value types come back exactly; a GROUP BY on a map key
// repartitioned by the keys' hashes merges equal maps (entries in either order) from every worker; a
// partitioned join on map keys meets equal maps in one partition; map_agg, multimap_agg and
// histogram run as partial and final steps on the workers. The oracle is the TPC-H generator's
// reference tables, computed in plain JavaScript.

import { expect } from 'chai';
import { referenceRows } from '../tpch/helpers.js';
import { query, runStatement } from '../support/statement-http.js';
import { PARTITIONED, USER, withCluster } from './cluster-fixture.js';

describe('maps over a cluster (coordinator + 2 workers)', function () {
  this.timeout(180_000);
  const cluster = withCluster(2);

  it('sends maps of many key and value types, NULL values, NULL and empty maps through the exchange exactly', async () => {
    const sql = `SELECT n_nationkey,
        MAP(ARRAY[n_name, 'none'], ARRAY[n_regionkey, NULL]),
        MAP(ARRAY[n_nationkey], ARRAY[ARRAY[n_name, NULL]]),
        MAP(ARRAY[CAST(n_nationkey AS double) / 4], ARRAY[MAP(ARRAY[n_regionkey], ARRAY[DATE '2020-01-01' + n_nationkey * INTERVAL '1' DAY])]),
        MAP(ARRAY[CAST(n_nationkey AS decimal(20,2)) * 1000000000000], ARRAY[n_nationkey % 2 = 0]),
        CASE WHEN n_nationkey % 3 = 0 THEN NULL WHEN n_nationkey % 3 = 1 THEN map() ELSE MAP(ARRAY[BIGINT '-4000000000000' - n_nationkey], ARRAY[CAST(n_name AS varbinary)]) END
      FROM tpch.tiny.nation ORDER BY n_nationkey`;
    const run = await runStatement(cluster.coordinator.uri, sql, USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.columns?.map((c) => c.type)).to.deep.equal([
      'bigint',
      'map(varchar(25), bigint)',
      'map(bigint, array(varchar(25)))',
      'map(double, map(bigint, date))',
      'map(decimal(38,2), boolean)',
      'map(bigint, varbinary)',
    ]);
    const expected = referenceRows('nation').map(([key, name, region]) => {
      const k = Number(key);
      const r = Number(region);
      const day = String(k + 1).padStart(2, '0');
      const quarter = k / 4;
      return [
        k,
        { [name]: r, none: null },
        { [k]: [name, null] },
        { [Number.isInteger(quarter) ? `${quarter}.0` : String(quarter)]: { [r]: `2020-01-${day}` } },
        { [`${k === 0 ? '0' : `${k}000000000000`}.00`]: k % 2 === 0 },
        k % 3 === 0 ? null : k % 3 === 1 ? {} : { [String(-4000000000000 - k)]: Buffer.from(name, 'latin1').toString('base64') },
      ];
    });
    expect(run.rows).to.deep.equal(expected);
  });

  it('groups on a map key across workers, equal maps with their entries in either order together', async () => {
    const sql = `SELECT k, count(*) FROM (
        SELECT CASE WHEN o_orderkey % 2 = 0 THEN MAP(ARRAY['c', 'p'], ARRAY[o_custkey % 5, o_shippriority]) ELSE MAP(ARRAY['p', 'c'], ARRAY[o_shippriority, o_custkey % 5]) END AS k
        FROM tpch.tiny.orders)
      GROUP BY k ORDER BY k['c']`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, USER);
    expect(plan).to.match(/FIXED_HASH/);
    const counts = new Map<number, number>();
    for (const row of referenceRows('orders')) counts.set(Number(row[1]) % 5, (counts.get(Number(row[1]) % 5) ?? 0) + 1);
    const expected = [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([c, n]) => [{ c, p: 0 }, n]);
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal(expected);
  });

  it('joins on map keys in a partitioned join', async () => {
    const sql = `SELECT count(*) FROM (SELECT MAP(ARRAY['k', 'z'], ARRAY[o_custkey % 100, 0]) AS k FROM tpch.tiny.orders) o
      JOIN (SELECT MAP(ARRAY['z', 'k'], ARRAY[0, c_custkey]) AS k FROM tpch.tiny.customer) c ON o.k = c.k`;
    const customers = new Set(referenceRows('customer').map((r) => Number(r[0])));
    const expected = referenceRows('orders').filter((r) => customers.has(Number(r[1]) % 100)).length;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, PARTITIONED);
    expect(plan).to.match(/FIXED_HASH/);
    expect(await query(cluster.coordinator.uri, sql, PARTITIONED)).to.deep.equal([[expected]]);
  });

  it('map_agg, multimap_agg and histogram in partial and final steps on the workers, then UNNEST back', async () => {
    const sql = `SELECT o_orderpriority, histogram(o_orderstatus), map_agg(o_orderkey, o_custkey), multimap_agg(o_orderstatus, o_orderkey)
      FROM tpch.tiny.orders WHERE o_orderkey % 50 = 1 GROUP BY o_orderpriority ORDER BY o_orderpriority`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, USER);
    expect(plan).to.match(/Aggregate\(PARTIAL\)/);
    const groups = new Map<
      string,
      { histogram: Record<string, number>; map: Record<string, number>; multimap: Record<string, number[]> }
    >();
    for (const row of referenceRows('orders')) {
      const key = Number(row[0]);
      if (key % 50 !== 1) continue;
      const g = groups.get(row[5]) ?? { histogram: {}, map: {}, multimap: {} };
      g.histogram[row[2]] = (g.histogram[row[2]] ?? 0) + 1;
      g.map[key] = Number(row[1]);
      (g.multimap[row[2]] ??= []).push(key);
      groups.set(row[5], g);
    }
    const rows = (await query(cluster.coordinator.uri, sql, USER)) as [
      string,
      Record<string, number>,
      Record<string, number>,
      Record<string, number[]>,
    ][];
    const sortedLists = (m: Record<string, number[]>) =>
      Object.fromEntries(Object.entries(m).map(([k, v]) => [k, [...v].sort((a, b) => a - b)]));
    expect(rows.map(([p, h, m, mm]) => [p, h, m, sortedLists(mm)])).to.deep.equal(
      [...groups.keys()].sort().map((p) => {
        const g = groups.get(p)!;
        return [p, g.histogram, g.map, sortedLists(g.multimap)];
      }),
    );

    const unnested = `SELECT count(*), sum(k), sum(v) FROM (SELECT map_agg(o_orderkey, o_custkey) AS m FROM tpch.tiny.orders GROUP BY o_orderpriority) CROSS JOIN UNNEST(m) AS t(k, v)`;
    const orders = referenceRows('orders');
    expect(await query(cluster.coordinator.uri, unnested, USER)).to.deep.equal([
      [orders.length, orders.reduce((sum, r) => sum + Number(r[0]), 0), orders.reduce((sum, r) => sum + Number(r[1]), 0)],
    ]);
  });
});
