// push_partial_aggregation_through_join on a coordinator and two workers (real processes), over
// tpch.tiny, against DuckDB on the same rows: TPC-H q13 counts orders per customer in the workers'
// scan stage by default, and the repartition to the join carries those counts; customers with NULL
// keys, duplicated customers, customers without orders, orders with NULL keys and an empty side,
// through LEFT, RIGHT and inner joins, give DuckDB's rows with the partial step below the join.

import { expect } from 'chai';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { runStatement } from '../support/statement-http.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

const TINY = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };
const ALWAYS = { ...TINY, 'X-Engine-Session': 'push_partial_aggregation_through_join=ALWAYS' };

// Every 50th customer's key NULL, the first 199 twice; every 7th order's customer NULL, a third of the orders.
const CUSTOMERS =
  '(SELECT CASE WHEN c_custkey % 50 = 0 THEN NULL ELSE c_custkey END AS k FROM customer UNION ALL SELECT c_custkey FROM customer WHERE c_custkey < 200)';
const ORDERS =
  '(SELECT o_orderkey, CASE WHEN o_orderkey % 7 = 0 THEN NULL ELSE o_custkey END AS ck, o_totalprice, o_orderdate FROM orders WHERE o_orderkey % 3 = 0)';
const NO_ORDERS = '(SELECT o_orderkey, o_custkey AS ck, o_totalprice, o_orderdate FROM orders WHERE o_orderkey < 0)';

const QUERIES: Record<string, string> = {
  'LEFT join, count(x), sum, min, max': `SELECT c.k, count(o.o_orderkey), sum(o.o_totalprice), min(o.o_orderdate), max(o.o_totalprice)
    FROM ${CUSTOMERS} c LEFT JOIN ${ORDERS} o ON c.k = o.ck GROUP BY c.k ORDER BY 1`,
  'RIGHT join, a count of the counts': `SELECT n, count(*) FROM (SELECT c.k, count(o.o_orderkey) AS n
    FROM ${ORDERS} o RIGHT JOIN ${CUSTOMERS} c ON o.ck = c.k GROUP BY c.k) t GROUP BY n ORDER BY 1`,
  'inner join, count(*) and sum': `SELECT c.k % 10, count(*), sum(o.o_totalprice) FROM ${CUSTOMERS} c JOIN ${ORDERS} o ON c.k = o.ck GROUP BY c.k % 10 ORDER BY 1`,
  'an empty aggregated side': `SELECT c.k, count(o.o_orderkey), sum(o.o_totalprice) FROM ${CUSTOMERS} c LEFT JOIN ${NO_ORDERS} o ON c.k = o.ck GROUP BY c.k ORDER BY 1`,
};

async function plan(uri: string, sql: string, headers: Record<string, string>): Promise<string> {
  return (await runStatement(uri, `EXPLAIN ${sql}`, headers)).rows.map((r) => String(r[0])).join('\n');
}

describe('partial aggregation below a join on a coordinator and 2 workers equals DuckDB', function () {
  this.timeout(600_000);
  const cluster = withCluster(2);
  const duck = duckDbTpchTiny();

  it("TPC-H q13: the workers count each customer's orders before the repartition to the join", async () => {
    const explained = await plan(cluster.coordinator.uri, tpchQuery(13), TINY);
    expect(explained).to.match(/Aggregate\(PARTIAL\)\[keys = \[o_custkey_\d+\]\] count_partial_\d+ := count\(o_orderkey_\d+\)/);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck.get(), tpchQuery(13), TINY, { label: 'q13' });
  });

  for (const [name, sql] of Object.entries(QUERIES)) {
    it(`${name}: DuckDB's rows with the partial step below the join`, async () => {
      expect(await plan(cluster.coordinator.uri, sql, ALWAYS)).to.match(/Join\[[^\n]*\n\s*Layout: \[[^\]]*_partial_\d+/);
      await expectDuckDbAnswer(cluster.coordinator.uri, duck.get(), sql, ALWAYS, { label: name });
    });
  }
});
