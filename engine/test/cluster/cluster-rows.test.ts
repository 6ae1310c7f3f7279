// Rows across the Arrow exchange between worker processes (Struct vectors): fields of every type,
// NULL rows, NULL fields and rows nested in arrays and rows come back exactly; a GROUP BY on a row
// key repartitioned by the keys' hashes merges equal rows from every worker; a partitioned join on
// row keys meets equal rows in one partition; a two-column IN subquery runs as a mark join on the
// workers. The oracle is the TPC-H generator's reference tables, computed in plain JavaScript.

import { expect } from 'chai';
import { referenceRows } from '../tpch/helpers.js';
import { query, runStatement } from '../support/statement-http.js';
import { PARTITIONED, USER, withCluster } from './cluster-fixture.js';

describe('rows over a cluster (coordinator + 2 workers)', function () {
  this.timeout(180_000);
  const cluster = withCluster(2);

  it('sends rows of every field type, NULL rows, NULL fields and nested rows through the exchange exactly', async () => {
    const sql = `SELECT n_nationkey,
        CAST(ROW(n_nationkey, n_name, NULL) AS ROW(k bigint, name varchar(25), nothing integer)),
        ROW(CAST(n_nationkey AS double) / 4, CAST(n_nationkey AS decimal(20,2)) * 1000000000000, DATE '2020-01-01' + n_nationkey * INTERVAL '1' DAY, n_nationkey % 2 = 0),
        ROW(ARRAY[ROW(n_regionkey, CAST(n_name AS varbinary))], ROW(BIGINT '-4000000000000' - n_nationkey)),
        CASE WHEN n_nationkey % 3 = 0 THEN NULL ELSE ROW(n_comment) END
      FROM tpch.tiny.nation ORDER BY n_nationkey`;
    const run = await runStatement(cluster.coordinator.uri, sql, USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.columns?.map((c) => c.type)).to.deep.equal([
      'bigint',
      'row(k bigint, name varchar(25), nothing integer)',
      'row(double, decimal(38,2), date, boolean)',
      'row(array(row(bigint, varbinary)), row(bigint))',
      'row(varchar(152))',
    ]);
    const expected = referenceRows('nation').map(([key, name, region, comment]) => {
      const k = Number(key);
      const day = String(k + 1).padStart(2, '0');
      return [
        k,
        [k, name, null],
        [k / 4, `${k === 0 ? '0' : `${k}000000000000`}.00`, `2020-01-${day}`, k % 2 === 0],
        [[[Number(region), Buffer.from(name, 'latin1').toString('base64')]], [-4000000000000 - k]],
        k % 3 === 0 ? null : [comment],
      ];
    });
    expect(run.rows).to.deep.equal(expected);
  });

  it("groups on a row key across workers (partitioned by the rows' hashes), NULL fields together", async () => {
    const sql = `SELECT k.m, k.p, k.n, count(*) FROM (SELECT CAST(ROW(o_custkey % 5, o_orderpriority, CASE WHEN o_orderkey % 2 = 0 THEN NULL ELSE 1 END) AS ROW(m bigint, p varchar, n integer)) AS k FROM tpch.tiny.orders)
      GROUP BY k ORDER BY k`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, USER);
    expect(plan).to.match(/FIXED_HASH/);
    const counts = new Map<string, number>();
    for (const row of referenceRows('orders')) {
      const key = JSON.stringify([Number(row[1]) % 5, row[5], Number(row[0]) % 2 === 0 ? null : 1]);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const expected = [...counts.entries()]
      .map(([key, n]) => [...(JSON.parse(key) as [number, string, number | null]), n])
      .sort(
        (a, b) =>
          (a[0] as number) - (b[0] as number) ||
          String(a[1]).localeCompare(String(b[1])) ||
          (a[2] === null ? 1 : 0) - (b[2] === null ? 1 : 0),
      );
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal(expected);
  });

  it('joins on row keys in a partitioned join', async () => {
    const sql = `SELECT count(*) FROM (SELECT ROW(o_custkey % 100, 'c') AS k FROM tpch.tiny.orders) o
      JOIN (SELECT ROW(c_custkey, 'c') AS k FROM tpch.tiny.customer) c ON o.k = c.k`;
    const customers = new Set(referenceRows('customer').map((r) => Number(r[0])));
    const expected = referenceRows('orders').filter((r) => customers.has(Number(r[1]) % 100)).length;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, PARTITIONED);
    expect(plan).to.match(/FIXED_HASH/);
    expect(await query(cluster.coordinator.uri, sql, PARTITIONED)).to.deep.equal([[expected]]);
  });

  it('a two-column IN subquery and UNNEST of an array of rows on the workers', async () => {
    const sql = `SELECT count(*) FROM tpch.tiny.orders WHERE (o_custkey, o_orderpriority) IN (SELECT c_custkey, '1-URGENT' FROM tpch.tiny.customer WHERE c_nationkey = 3)`;
    const customers = new Set(
      referenceRows('customer')
        .filter((r) => r[3] === '3')
        .map((r) => r[0]),
    );
    const expected = referenceRows('orders').filter((r) => customers.has(r[1]) && r[5] === '1-URGENT').length;
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal([[expected]]);

    const unnested = `SELECT sum(k), count(DISTINCT p) FROM (SELECT array_agg(ROW(o_orderkey, o_orderpriority)) AS a FROM tpch.tiny.orders GROUP BY o_custkey) CROSS JOIN UNNEST(a) AS t(k, p)`;
    const orders = referenceRows('orders');
    expect(await query(cluster.coordinator.uri, unnested, USER)).to.deep.equal([[orders.reduce((sum, r) => sum + Number(r[0]), 0), 5]]);
  });
});
