// Color values made on the workers cross the Arrow exchange intact: grouped on across a repartition
// and sent to the client as Trino sends them. The oracle is the reference TPC-H orders table with
// the colors worked out in JavaScript.

import { expect } from 'chai';
import { referenceRows } from '../tpch/helpers.js';
import { query } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';

describe('color values over a cluster (coordinator + 2 workers)', function () {
  this.timeout(120_000);
  const cluster = withCluster(2);
  const orders = referenceRows('orders');

  it('groups on colors made on the workers and sends them as #rrggbb or the system name', async () => {
    const sql = `SELECT render('x', c), c, count(*) FROM (
        SELECT CASE WHEN o_custkey % 2 = 0 THEN rgb(o_custkey % 5 * 60, 0, 255) ELSE color('cyan') END AS c
        FROM tpch.tiny.orders) GROUP BY c`;
    const counts = new Map<string, number>();
    for (const row of orders) {
      const custkey = Number(row[1]);
      const color = custkey % 2 === 0 ? `#${((custkey % 5) * 60).toString(16).padStart(2, '0')}00ff` : 'cyan';
      counts.set(color, (counts.get(color) ?? 0) + 1);
    }
    const rows = (await query(cluster.coordinator.uri, sql, { 'X-Trino-User': 'test' })) as [string, string, number][];
    const got = new Map(rows.map(([, color, count]) => [color, count]));
    expect(got).to.deep.equal(counts);
    // cyan is ANSI color 6; the rest are RGB colors of the 6x6x6 cube.
    expect(rows.find(([, color]) => color === 'cyan')?.[0]).to.equal('\u001b[38;5;6mx\u001b[0m');
  });
});
