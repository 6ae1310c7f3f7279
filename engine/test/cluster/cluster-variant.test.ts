// VARIANT values made on the workers cross the Arrow exchange intact (a Binary column of the Parquet
// Variant encoding): grouped on, and joined on across a repartition where the two sides hold the
// same numbers in different kinds (bigint and decimal variants, equal and hashed alike by value, as
// Trino's VariantEquality), then sent to the client as Trino sends a variant to a client without the
// VARIANT capability: a json column of JSON text. The oracle is the reference TPC-H orders table.

import { expect } from 'chai';
import { Trino } from 'trino-client';
import { referenceRows } from '../tpch/helpers.js';
import { query, runStatement } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';

const PARTITIONED = { 'X-Engine-User': 'test', 'X-Engine-Session': 'join_distribution_type=PARTITIONED' };

describe('VARIANT over a cluster (coordinator + 2 workers)', function () {
  this.timeout(120_000);
  const cluster = withCluster(2);
  const orders = referenceRows('orders');

  it('groups on variants made on the workers and sends them to clients as json text', async () => {
    const sql = `SELECT CAST(ROW(o_orderstatus, o_orderpriority) AS ROW(s varchar, p varchar)) AS k, count(*) AS n FROM tpch.tiny.orders GROUP BY 1`;
    const variants = `SELECT CAST(k AS VARIANT) AS v, n FROM (${sql})`;
    const regrouped = `SELECT v, sum(n) FROM (${variants}) GROUP BY v ORDER BY json_format(CAST(v AS JSON))`;
    const counts = new Map<string, number>();
    for (const row of orders) {
      const key = JSON.stringify({ p: row[5], s: row[2] });
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const expected = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, n]) => [key, n]);
    const run = await runStatement(cluster.coordinator.uri, regrouped, { 'X-Engine-User': 'test' });
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.columns?.map((c) => [c.type, c.typeSignature])).to.deep.equal([
      ['json', { rawType: 'json', arguments: [] }],
      ['bigint', { rawType: 'bigint', arguments: [] }],
    ]);
    expect(run.rows).to.deep.equal(expected);

    const trino = Trino.create({ server: cluster.coordinator.uri, catalog: 'tpch', schema: 'tiny' });
    const rows: unknown[][] = [];
    for await (const result of await trino.query(`SELECT ARRAY[v, CAST(JSON 'null' AS VARIANT), NULL] FROM (${regrouped}) LIMIT 1`)) {
      if (result.error) throw new Error(result.error.message);
      rows.push(...((result.data ?? []) as unknown[][]));
    }
    expect(rows).to.deep.equal([[[expected[0][0], 'null', null]]]);
  });

  it('joins bigint variants to equal decimal variants across a repartition', async () => {
    const join = `SELECT count(*) FROM (SELECT CAST(o_orderkey AS VARIANT) AS v FROM tpch.tiny.orders) a
      JOIN (SELECT CAST(CAST(l_orderkey AS decimal(20, 2)) AS VARIANT) AS v FROM tpch.tiny.lineitem) b ON a.v = b.v`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN ${join}`, PARTITIONED);
    expect(plan).to.match(/Fragment \d \[FIXED_HASH\]/);
    expect(await query(cluster.coordinator.uri, join, PARTITIONED)).to.deep.equal([[60175]]);
  });
});
