// NUMBER values made on the workers cross the Arrow exchange intact: grouped on, ordered, joined on
// across a repartition, and sent to the client as Trino sends them (strings; the column typed
// `number` only for a client with the NUMBER capability, else `varchar`). The oracle is the
// reference TPC-H orders table, with the quarters computed in JavaScript.

import { expect } from 'chai';
import { Trino } from 'trino-client';
import { referenceRows } from '../tpch/helpers.js';
import { query, runStatement } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';

const USER = { 'X-Engine-User': 'test' };
const PARTITIONED = { ...USER, 'X-Engine-Session': 'join_distribution_type=PARTITIONED' };
/** n / 4 for n in 0..9 as Trino prints NUMBER (trailing zeros stripped). */
const QUARTERS = ['0', '0.25', '0.5', '0.75', '1', '1.25', '1.5', '1.75', '2', '2.25'];
const GROUPED = `SELECT CAST(o_custkey % 10 AS number) / NUMBER '4' AS q, count(*) FROM tpch.tiny.orders GROUP BY 1 ORDER BY 1`;

describe('NUMBER over a cluster (coordinator + 2 workers)', function () {
  this.timeout(120_000);
  const cluster = withCluster(2);
  const orders = referenceRows('orders');

  it('groups and orders numbers made on the workers', async () => {
    const counts = new Array<number>(10).fill(0);
    for (const row of orders) counts[Number(row[1]) % 10]++;
    expect(await query(cluster.coordinator.uri, GROUPED, USER)).to.deep.equal(
      QUARTERS.map((q, i) => [q, counts[i]]).filter(([, n]) => n !== 0),
    );
  });

  it('sums exactly in partial and final steps', async () => {
    const cents = orders.reduce((sum, row) => sum + BigInt(row[3].replace('.', '')), 0n);
    const text = `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`.replace(/\.?0+$/, '');
    const sql = 'SELECT sum(CAST(o_totalprice AS number)), count(*) FROM tpch.tiny.orders';
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal([[text, orders.length]]);
  });

  it('joins on number keys across a repartition', async () => {
    const join = `SELECT count(*) FROM (SELECT CAST(o_orderkey AS number) * NUMBER '1.0' AS k FROM tpch.tiny.orders) a
      JOIN (SELECT CAST(l_orderkey AS number) AS k FROM tpch.tiny.lineitem) b ON a.k = b.k`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN ${join}`, PARTITIONED);
    expect(plan).to.match(/Fragment \d \[FIXED_HASH\]/);
    expect(await query(cluster.coordinator.uri, join, PARTITIONED)).to.deep.equal([[referenceRows('lineitem').length]]);
  });

  it('sends number as varchar to a client without the NUMBER capability, as number to one with it', async () => {
    const sql = "SELECT NUMBER '10', NUMBER '-Infinity', ARRAY[NUMBER '0.5']";
    const plain = await runStatement(cluster.coordinator.uri, sql, USER);
    expect(plain.columns?.map((c) => [c.type, c.typeSignature])).to.deep.equal([
      ['varchar', { rawType: 'varchar', arguments: [] }],
      ['varchar', { rawType: 'varchar', arguments: [] }],
      ['array(varchar)', { rawType: 'array', arguments: [{ kind: 'TYPE', value: { rawType: 'varchar', arguments: [] } }] }],
    ]);
    expect(plain.rows).to.deep.equal([['1E+1', '-Infinity', ['0.5']]]);
    const capable = await runStatement(cluster.coordinator.uri, sql, {
      'X-Trino-User': 'test',
      'X-Trino-Client-Capabilities': 'PARAMETRIC_DATETIME,NUMBER',
    });
    expect(capable.columns?.map((c) => [c.type, c.typeSignature.rawType])).to.deep.equal([
      ['number', 'number'],
      ['number', 'number'],
      ['array(number)', 'array'],
    ]);
    expect(capable.rows).to.deep.equal(plain.rows);
  });

  it('trino-client reads the values as strings', async () => {
    const trino = Trino.create({ server: cluster.coordinator.uri, catalog: 'tpch', schema: 'tiny' });
    const rows: unknown[][] = [];
    for await (const result of await trino.query(`${GROUPED} LIMIT 3`)) {
      if (result.error) throw new Error(result.error.message);
      rows.push(...((result.data ?? []) as unknown[][]).map((r) => [r[0]]));
    }
    expect(rows).to.deep.equal([['0'], ['0.25'], ['0.5']]);
  });
});
