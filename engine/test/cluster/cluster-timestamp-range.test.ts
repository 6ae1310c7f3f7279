// timestamp(6) values at years 1..9999 with a micro fraction, made on the workers from each order
// key, cross the Arrow exchange to the coordinator and a hash-partitioned GROUP BY with every digit
// (a double of micros lost the micro beyond 2255 and before 1685). The oracle is the expected text
// built here with Date arithmetic on the TPC-H reference keys.

import { expect } from 'chai';
import { referenceTbl } from '../tpch/helpers.js';
import { query } from '../support/statement-http.js';
import { USER, withCluster } from './cluster-fixture.js';

const keys = referenceTbl('orders')
  .trim()
  .split('\n')
  .map((line) => Number(line.split('|')[0]))
  .sort((a, b) => a - b);

/** Days after 0001-01-01 for each key: years 1..9999. */
const days = (key: number) => (key * 7919) % 3_652_000;
const micros = (key: number) => (key * 104_729) % 1_000_000;
const YEAR_ONE = Date.parse('0001-01-01T00:00:00Z');

function expected(key: number): string {
  const date = new Date(YEAR_ONE + days(key) * 86_400_000).toISOString().slice(0, 10);
  return `${date} 23:59:59.${String(micros(key)).padStart(6, '0')}`;
}

describe('timestamp(6) at every year over a cluster (coordinator + 2 workers)', function () {
  this.timeout(180_000);
  const cluster = withCluster(2);
  const made = `CAST(concat(CAST(date_add('day', o_orderkey * 7919 % 3652000, DATE '0001-01-01') AS varchar), ' 23:59:59.', lpad(CAST(o_orderkey * 104729 % 1000000 AS varchar), 6, '0')) AS timestamp(6))`;

  it('sends the values made on the workers through the exchange exactly', async () => {
    const rows = await query(
      cluster.coordinator.uri,
      `SELECT o_orderkey, ${made} FROM tpch.tiny.orders WHERE o_orderkey < 2000 ORDER BY o_orderkey`,
      USER,
    );
    expect(rows).to.deep.equal(keys.filter((key) => key < 2000).map((key) => [key, expected(key)]));
  });

  it('groups by the exact value on hash-partitioned workers', async () => {
    // 40 values a micro apart at the end of 9999: the exchange and the hash must keep the micro.
    const value = `date_add('millisecond', 0, CAST(concat('9999-12-31 23:59:59.9999', lpad(CAST(o_orderkey % 40 AS varchar), 2, '0')) AS timestamp(6)))`;
    const sql = `SELECT CAST(t AS varchar), count(*) FROM (SELECT ${value} AS t FROM tpch.tiny.orders) GROUP BY t ORDER BY t`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, USER);
    expect(plan).to.match(/FIXED_HASH/);
    const counts = new Map<number, number>();
    for (const key of keys) counts.set(key % 40, (counts.get(key % 40) ?? 0) + 1);
    const rows = [...counts.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([r, n]) => [`9999-12-31 23:59:59.9999${String(r).padStart(2, '0')}`, n]);
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal(rows);
  });
});
