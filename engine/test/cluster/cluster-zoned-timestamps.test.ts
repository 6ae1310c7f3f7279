// timestamp with time zone across the Arrow exchange between worker processes: values made on the
// workers (one zone per row: UTC, a fixed offset, region zones with and without daylight saving)
// come back to the coordinator with their instants and zones exactly, and a GROUP BY repartitioned
// by the keys' hashes merges equal instants written in different zones on different workers. The
// oracle is the TPC-H reference tables and Intl's own formatting of each instant in its zone.

import { expect } from 'chai';
import { referenceTbl } from '../tpch/helpers.js';
import { query } from '../support/statement-http.js';
import { USER, withCluster } from './cluster-fixture.js';

const ZONES = ['UTC', '+05:30', 'America/Los_Angeles', 'Asia/Kathmandu'];
const ZONE_CASE = `CASE o_orderkey % 4 ${ZONES.map((zone, i) => `WHEN ${i} THEN '${zone}'`).join(' ')} END`;

function orderKeys(): number[] {
  return referenceTbl('orders')
    .trim()
    .split('\n')
    .map((line) => Number(line.split('|')[0]));
}

/** 'YYYY-MM-DD HH:MM:SS.fff zone' of an instant, by Intl (not the engine's zone code); `fraction` replaces the millis digits. */
function expectedText(epochMillis: number, zone: string, fraction?: string): string {
  const offset = /^([+-])(\d\d):(\d\d)$/.exec(zone);
  const shifted = offset ? epochMillis + (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000 : epochMillis;
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: offset ? 'UTC' : zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(shifted);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const millis = String(((epochMillis % 1000) + 1000) % 1000).padStart(3, '0');
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}.${fraction ?? millis} ${zone}`;
}

describe('timestamp with time zone over a cluster (coordinator + 2 workers)', function () {
  this.timeout(180_000);
  const cluster = withCluster(2);

  it('sends zoned values made on the workers through the exchange with their instants and zones', async () => {
    // Instants every 7919.5 s from 2021-01-01 cross both 2021 daylight-saving changes of Los Angeles.
    const sql = `SELECT o_orderkey, at_timezone(from_unixtime(1609459200 + o_orderkey * 7919.5, 'UTC'), ${ZONE_CASE}),
        to_unixtime(at_timezone(from_unixtime(1609459200 + o_orderkey * 7919.5, 'UTC'), ${ZONE_CASE}))
      FROM tpch.tiny.orders WHERE o_orderkey < 8000 ORDER BY o_orderkey`;
    const rows = await query(cluster.coordinator.uri, sql, USER);
    const expected = orderKeys()
      .filter((key) => key < 8000)
      .sort((a, b) => a - b)
      .map((key) => {
        const millis = (1609459200 + key * 7919.5) * 1000;
        return [key, expectedText(millis, ZONES[key % 4]), millis / 1000];
      });
    expect(rows).to.deep.equal(expected);
  });

  it('sends timestamp(9) with time zone (millis, picos and zone: Decimal128 in Arrow) through the exchange exactly', async () => {
    // Nanosecond fractions made on the workers from the key; instants every 7919 s cross daylight-saving changes.
    const nanos = 'o_orderkey * 104729 % 1000000000';
    const sql = `SELECT o_orderkey, at_timezone(CAST(concat(CAST(CAST(from_unixtime(1609459200 + o_orderkey * 7919, 'UTC') AS timestamp(0)) AS varchar), '.', lpad(CAST(${nanos} AS varchar), 9, '0'), ' UTC') AS timestamp(9) with time zone), ${ZONE_CASE})
      FROM tpch.tiny.orders WHERE o_orderkey < 4000 ORDER BY o_orderkey`;
    const rows = await query(cluster.coordinator.uri, sql, USER);
    const expected = orderKeys()
      .filter((key) => key < 4000)
      .sort((a, b) => a - b)
      .map((key) => [key, expectedText((1609459200 + key * 7919) * 1000, ZONES[key % 4], String((key * 104729) % 1e9).padStart(9, '0'))]);
    expect(rows).to.deep.equal(expected);
  });

  it('filters on the workers against a zoned literal (a constant of the type in the task request)', async () => {
    // 2021-03-14 03:00 America/Los_Angeles is 10:00 UTC (1615716000), just after the spring-forward gap.
    const sql = `SELECT count(*) FROM tpch.tiny.orders
      WHERE at_timezone(from_unixtime(1609459200 + o_orderkey * 7919.5, 'UTC'), ${ZONE_CASE}) >= TIMESTAMP '2021-03-14 03:00 America/Los_Angeles'`;
    const expected = orderKeys().filter((key) => 1609459200 + key * 7919.5 >= 1615716000).length;
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal([[expected]]);
  });

  for (const precision of [3, 9]) {
    it(`groups equal instants written in different zones on different workers as one key (timestamp(${precision}) with time zone)`, async () => {
      // Precision 9 holds long values: their hash reads both the millis and the picoseconds.
      const sql = `SELECT to_unixtime(t), count(*) FROM (
          SELECT CAST(at_timezone(from_unixtime((o_orderkey % 10) * 86400, 'UTC'), ${ZONE_CASE}) AS timestamp(${precision}) with time zone) AS t FROM tpch.tiny.orders)
        GROUP BY t ORDER BY 1`;
      const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, USER);
      expect(plan).to.match(/FIXED_HASH/);
      const counts = new Map<number, number>();
      for (const key of orderKeys()) counts.set((key % 10) * 86400, (counts.get((key % 10) * 86400) ?? 0) + 1);
      const expected = [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([seconds, n]) => [seconds, n]);
      expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal(expected);
    });
  }

  it('sends time(9) with time zone made on the workers through the exchange, and groups by the normalized time', async () => {
    const offsets = ['+00:00', '+05:30', '-08:00', '+05:45'];
    const offsetCase = `CASE o_orderkey % 4 ${offsets.map((o, i) => `WHEN ${i} THEN '${o}'`).join(' ')} END`;
    const text = `concat(lpad(CAST(o_orderkey % 24 AS varchar), 2, '0'), ':00:00.', lpad(CAST(o_orderkey * 104729 % 1000000000 AS varchar), 9, '0'), ${offsetCase})`;
    const rows = await query(
      cluster.coordinator.uri,
      `SELECT o_orderkey, CAST(${text} AS time(9) with time zone) FROM tpch.tiny.orders WHERE o_orderkey < 2000 ORDER BY o_orderkey`,
      USER,
    );
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    const keys = orderKeys()
      .filter((key) => key < 2000)
      .sort((a, b) => a - b);
    expect(rows).to.deep.equal(keys.map((key) => [key, `${pad(key % 24, 2)}:00:00.${pad((key * 104729) % 1e9, 9)}${offsets[key % 4]}`]));
    // 12:00+00:00, 17:30+05:30, 04:00-08:00 and 17:45+05:45 are one time at +00:00.
    const sameTime = `CASE o_orderkey % 4 WHEN 0 THEN TIME '12:00:00+00:00' WHEN 1 THEN TIME '17:30:00+05:30' WHEN 2 THEN TIME '04:00:00-08:00' ELSE TIME '17:45:00+05:45' END`;
    expect(
      await query(cluster.coordinator.uri, `SELECT count(*) FROM (SELECT ${sameTime} AS t FROM tpch.tiny.orders) GROUP BY t`, USER),
    ).to.deep.equal([[orderKeys().length]]);
  });
});
