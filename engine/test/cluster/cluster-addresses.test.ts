// uuid and ipaddress values made on the workers cross the Arrow exchange intact: ordered, joined on
// across a repartition, grouped on, and sent to the client (raw protocol and trino-client) as the
// text Trino sends. The oracle is the reference TPC-H orders table, with md5 and the address
// arithmetic done in JavaScript.

import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { Trino } from 'trino-client';
import { referenceRows } from '../tpch/helpers.js';
import { query, runStatement } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';

const PARTITIONED = { 'X-Engine-User': 'test', 'X-Engine-Session': 'join_distribution_type=PARTITIONED' };
const UUID_OF_ORDER = (column: string) => `CAST(md5(to_utf8(CAST(${column} AS varchar))) AS uuid)`;

function uuidText(key: string): string {
  const hex = createHash('md5').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe('uuid and ipaddress over a cluster (coordinator + 2 workers)', function () {
  this.timeout(120_000);
  const cluster = withCluster(2);
  const orders = referenceRows('orders');

  it('orders uuids made on the workers and joins on them across a repartition', async () => {
    const first = await query(
      cluster.coordinator.uri,
      `SELECT ${UUID_OF_ORDER('o_orderkey')} AS u, o_orderkey FROM tpch.tiny.orders ORDER BY u LIMIT 5`,
    );
    const expected = orders
      .map((r) => [uuidText(r[0]), Number(r[0])] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .slice(0, 5);
    expect(first).to.deep.equal(expected);
    const join = `SELECT count(*) FROM (SELECT ${UUID_OF_ORDER('o_orderkey')} AS u FROM tpch.tiny.orders) a
      JOIN (SELECT ${UUID_OF_ORDER('l_orderkey')} AS u FROM tpch.tiny.lineitem) b ON a.u = b.u`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN ${join}`, PARTITIONED);
    expect(plan).to.match(/Fragment \d \[FIXED_HASH\]/);
    expect(await query(cluster.coordinator.uri, join, PARTITIONED)).to.deep.equal([[60175]]);
  });

  it('groups on ipaddress keys across workers and sends them as Trino does, to trino-client too', async () => {
    const sql = `SELECT ip, count(*) FROM (
        SELECT CASE WHEN o_custkey % 2 = 0 THEN CAST(concat('10.', CAST(o_custkey % 5 AS varchar), '.0.1') AS ipaddress)
                    ELSE CAST(concat('2001:db8::', CAST(o_custkey % 3 AS varchar)) AS ipaddress) END AS ip
        FROM tpch.tiny.orders) GROUP BY ip ORDER BY ip`;
    const counts = new Map<string, number>();
    for (const row of orders) {
      const custkey = Number(row[1]);
      const ip = custkey % 2 === 0 ? `10.${custkey % 5}.0.1` : `2001:db8::${custkey % 3}`;
      counts.set(ip, (counts.get(ip) ?? 0) + 1);
    }
    // Trino's order is the bytes': IPv4-mapped (::ffff:...) before 2001:db8::.
    const byBytes = (ip: string) => (ip.includes(':') ? `1${ip.padStart(20)}` : `0${ip}`);
    const expected = [...counts.entries()].sort(([a], [b]) => (byBytes(a) < byBytes(b) ? -1 : 1)).map(([ip, n]) => [ip, n]);
    const run = await runStatement(cluster.coordinator.uri, sql, { 'X-Engine-User': 'test' });
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.columns?.map((c) => [c.type, c.typeSignature])).to.deep.equal([
      ['ipaddress', { rawType: 'ipaddress', arguments: [] }],
      ['bigint', { rawType: 'bigint', arguments: [] }],
    ]);
    expect(run.rows).to.deep.equal(expected);

    const trino = Trino.create({ server: cluster.coordinator.uri, catalog: 'tpch', schema: 'tiny' });
    const rows: unknown[][] = [];
    for await (const result of await trino.query(
      `SELECT ${UUID_OF_ORDER('o_orderkey')} AS u, ip FROM (${sql}) CROSS JOIN tpch.tiny.orders WHERE o_orderkey = 1 ORDER BY ip`,
    )) {
      if (result.error) throw new Error(result.error.message);
      rows.push(...((result.data ?? []) as unknown[][]));
    }
    expect(rows).to.deep.equal(expected.map(([ip]) => [uuidText('1'), ip]));
  });
});
