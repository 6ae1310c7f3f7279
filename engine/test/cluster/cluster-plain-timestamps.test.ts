// timestamp(12) and time(12) across the Arrow exchange between worker processes: values made on the
// workers from each order key (picosecond fractions, dates on both sides of 1970) come back to the
// coordinator exactly; a GROUP BY repartitioned by the keys' hashes and a filter against a literal
// (a constant of the type in the task request) count as the reference rows do. The oracle is the
// TPC-H reference tables and the expected text built here with BigInt and Date arithmetic.

import { expect } from 'chai';
import { referenceTbl } from '../tpch/helpers.js';
import { query } from '../support/statement-http.js';
import { USER, withCluster } from './cluster-fixture.js';

function orderKeys(): number[] {
  return referenceTbl('orders')
    .trim()
    .split('\n')
    .map((line) => Number(line.split('|')[0]))
    .sort((a, b) => a - b);
}

const pad = (n: number | bigint, width: number) => String(n).padStart(width, '0');
/** Days from 1970-01-01 for each key: both sides of the epoch. */
const days = (key: number) => (key % 200) * 97 - 9700;
const picos = (key: number) => (BigInt(key) * 104_729_000_003n) % 1_000_000_000_000n;

function expectedTimestamp(key: number): string {
  const date = new Date(days(key) * 86_400_000 + (key % 86_400) * 1000).toISOString();
  return `${date.slice(0, 10)} ${date.slice(11, 19)}.${pad(picos(key), 12)}`;
}

describe('timestamp(12) and time(12) over a cluster (coordinator + 2 workers)', function () {
  this.timeout(180_000);
  const cluster = withCluster(2);
  // Made on the workers: a date, a time of day from the key, and a 12-digit fraction.
  const made = `CAST(concat(CAST(date_add('day', o_orderkey % 200 * 97 - 9700, DATE '1970-01-01') AS varchar), ' ',
      CAST(CAST(date_add('second', o_orderkey % 86400, TIMESTAMP '1970-01-01 00:00:00') AS time(0)) AS varchar), '.',
      lpad(CAST(o_orderkey * 104729000003 % 1000000000000 AS varchar), 12, '0')) AS timestamp(12))`;

  it('sends values made on the workers through the exchange exactly', async () => {
    const rows = await query(
      cluster.coordinator.uri,
      `SELECT o_orderkey, ${made}, CAST(${made} AS time(12)) FROM tpch.tiny.orders WHERE o_orderkey < 3000 ORDER BY o_orderkey`,
      USER,
    );
    const expected = orderKeys()
      .filter((key) => key < 3000)
      .map((key) => [key, expectedTimestamp(key), expectedTimestamp(key).slice(11)]);
    expect(rows).to.deep.equal(expected);
  });

  it('groups by the exact value on hash-partitioned workers', async () => {
    // 50 values apart only in the last picosecond digits: the hash must read the whole value.
    const value = `CAST(concat('2020-01-01 00:00:00.', lpad(CAST(o_orderkey % 50 AS varchar), 12, '0')) AS timestamp(12))`;
    const sql = `SELECT CAST(t AS varchar), count(*) FROM (SELECT ${value} AS t FROM tpch.tiny.orders) GROUP BY t ORDER BY t`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, USER);
    expect(plan).to.match(/FIXED_HASH/);
    const counts = new Map<number, number>();
    for (const key of orderKeys()) counts.set(key % 50, (counts.get(key % 50) ?? 0) + 1);
    const expected = [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([r, n]) => [`2020-01-01 00:00:00.${pad(r, 12)}`, n]);
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal(expected);
  });

  it('aggregates in partial and final steps (min, max, count distinct)', async () => {
    const rows = await query(
      cluster.coordinator.uri,
      `SELECT CAST(min(${made}) AS varchar), CAST(max(${made}) AS varchar), count(DISTINCT ${made}) FROM tpch.tiny.orders`,
      USER,
    );
    const texts = orderKeys().map(expectedTimestamp);
    const byInstant = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0); // same-width text of years 1943..1996 orders as the instants
    const sorted = [...texts].sort(byInstant);
    expect(rows).to.deep.equal([[sorted[0], sorted[sorted.length - 1], new Set(texts).size]]);
  });

  it('filters on the workers against a timestamp(12) literal', async () => {
    const bound = "TIMESTAMP '1970-01-01 00:00:00.000000000001'";
    const sql = `SELECT count(*) FROM tpch.tiny.orders WHERE ${made} >= ${bound}`;
    const expected = orderKeys().filter((key) => {
      const total = BigInt(days(key) * 86_400 + (key % 86_400)) * 1_000_000_000_000n + picos(key);
      return total >= 1n;
    }).length;
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal([[expected]]);
  });
});
