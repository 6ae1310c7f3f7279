// json values across the Arrow exchange between worker processes (Utf8 vectors holding the stored
// text): values built on the workers come back exactly, a GROUP BY on json repartitioned by the
// values' hashes merges equal json values from every worker, and a partitioned join meets them. The
// oracle is the TPC-H generator's reference tables, computed in plain JavaScript.

import { expect } from 'chai';
import { referenceRows } from '../tpch/helpers.js';
import { query, runStatement } from '../support/statement-http.js';
import { PARTITIONED, USER, withCluster } from './cluster-fixture.js';

describe('json over a cluster (coordinator + 2 workers)', function () {
  this.timeout(180_000);
  const cluster = withCluster(2);

  it('sends json values (objects, arrays, strings with quotes, NULL) through the exchange exactly', async () => {
    const sql = `SELECT n_nationkey,
        CAST(MAP(ARRAY['name', 'key'], ARRAY[n_name, CAST(n_nationkey AS varchar)]) AS json),
        json_parse('[' || CAST(n_regionkey AS varchar) || ', "' || n_name || '\\"", {"z": null, "a": 1.50}]'),
        CASE WHEN n_nationkey % 3 = 0 THEN NULL ELSE CAST(n_comment AS json) END
      FROM tpch.tiny.nation ORDER BY n_nationkey`;
    const run = await runStatement(cluster.coordinator.uri, sql, USER);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    expect(run.columns?.map((c) => c.type)).to.deep.equal(['bigint', 'json', 'json', 'json']);
    const expected = referenceRows('nation').map(([key, name, region, comment]) => [
      Number(key),
      `{"key":"${Number(key)}","name":"${name}"}`,
      `[${Number(region)},"${name}\\"",{"a":1.50,"z":null}]`,
      Number(key) % 3 === 0 ? null : JSON.stringify(comment),
    ]);
    expect(run.rows).to.deep.equal(expected);
  });

  it('groups on a json key across workers, equal values built in different key orders together', async () => {
    const sql = `SELECT j, count(*) FROM (
        SELECT CASE WHEN o_orderkey % 2 = 0 THEN json_parse('{"c": ' || CAST(o_custkey % 5 AS varchar) || ', "s": "' || o_orderstatus || '"}')
                    ELSE json_parse('{"s": "' || o_orderstatus || '", "c": ' || CAST(o_custkey % 5 AS varchar) || '}') END AS j
        FROM tpch.tiny.orders)
      GROUP BY j ORDER BY json_format(j)`;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, USER);
    expect(plan).to.match(/FIXED_HASH/);
    const counts = new Map<string, number>();
    for (const row of referenceRows('orders')) {
      const key = `{"c":${Number(row[1]) % 5},"s":"${row[2]}"}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const expected = [...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal(expected);
  });

  it('joins on json keys in a partitioned join', async () => {
    const sql = `SELECT count(*) FROM (SELECT CAST(ARRAY[o_custkey % 100] AS json) AS k FROM tpch.tiny.orders) o
      JOIN (SELECT json_parse('[' || CAST(c_custkey AS varchar) || ']') AS k FROM tpch.tiny.customer) c ON o.k = c.k`;
    const customers = new Set(referenceRows('customer').map((r) => Number(r[0])));
    const expected = referenceRows('orders').filter((r) => customers.has(Number(r[1]) % 100)).length;
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, PARTITIONED);
    expect(plan).to.match(/FIXED_HASH/);
    expect(await query(cluster.coordinator.uri, sql, PARTITIONED)).to.deep.equal([[expected]]);
  });

  it('runs JSON_VALUE, JSON_QUERY and a lateral JSON_TABLE over rows on the workers', async () => {
    const sql = `SELECT n.n_nationkey, json_value(d, 'lax $.name'), json_query(d, 'lax $.keys' OMIT QUOTES), j.k
      FROM (SELECT n_nationkey, json_object('name' : n_name, 'keys' : json_array(n_nationkey, n_regionkey)) AS d FROM tpch.tiny.nation) n
      CROSS JOIN json_table(n.d, 'lax $.keys[*]' COLUMNS (k bigint PATH 'lax $')) j
      ORDER BY 1, 4`;
    const expected = referenceRows('nation').flatMap(([key, name, region]) => {
      const keys = [Number(key), Number(region)];
      return [...keys].sort((a, b) => a - b).map((k) => [Number(key), name, `[${keys.join(',')}]`, k]);
    });
    expect(await query(cluster.coordinator.uri, sql, USER)).to.deep.equal(expected);
  });
});
