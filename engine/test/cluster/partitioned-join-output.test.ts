// Where a partitioned join's rows lie, as the planner counts on it: a side already hashed on (some
// of) the join keys, such as rows grouped on them, stays in its tasks while the other side is
// hashed to meet it; a right join's rows stay hashed on its build keys (unmatched build rows keep
// theirs), so an aggregation grouped on them runs in the join's tasks without another exchange
// (TPC-H q13's orders per customer); a full join's rows lie on neither side's keys, so an
// aggregation over them still repartitions. The answers equal DuckDB's, NULL keys and unmatched
// rows included.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { query } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

const TINY = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };
const PARTITIONED = { ...TINY, 'X-Engine-Session': 'join_distribution_type=PARTITIONED' };
/** q13 as written: its count over the join, not split around it (push-partial-aggregation.ts). */
const NOT_PUSHED = { ...TINY, 'X-Engine-Session': 'push_partial_aggregation_through_join=NONE' };

/**
 * Orders joined to their large lineitem sums: the sums (the smaller side, so the build side),
 * grouped on the join key, are hashed on it already.
 */
const GROUPED_BUILD = `SELECT o_orderkey, o_orderstatus, s.quantity FROM orders
  JOIN (SELECT l_orderkey, sum(l_quantity) AS quantity FROM lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 150) s
  ON s.l_orderkey = o_orderkey ORDER BY o_orderkey`;

/** Customers, every tenth with a NULL key, and their orders: the NULL keys and customers without orders come out unmatched. */
const CUSTOMERS_WITH_NULL_KEYS = `(SELECT CASE WHEN c_custkey % 10 = 0 THEN NULL ELSE c_custkey END AS k FROM customer) c`;

function fragments(plan: string): string[] {
  return plan.split(/\n(?=Fragment \d+ )/);
}

describe('partitioned join output: where its rows lie for the operators above', function () {
  this.timeout(600_000);
  const cluster = withCluster(2);
  let duck: DuckDBConnection;
  const explain = async (sql: string, headers = TINY) => String((await query(cluster.coordinator.uri, `EXPLAIN ${sql}`, headers))[0][0]);

  before(async () => {
    duck = await duckDbWithTpch('tiny', 2);
  });

  it("groups q13's right join on its build keys in the join's tasks, to DuckDB's answer", async () => {
    const plan = await explain(tpchQuery(13), NOT_PUSHED);
    const joinFragment = fragments(plan).filter((f) => f.includes('RightJoin['));
    expect(joinFragment).to.have.length(1);
    expect(joinFragment[0]).to.contain('distribution = PARTITIONED');
    // One step over the join: no partial aggregation repartitioned on c_custkey to a final one.
    expect(joinFragment[0]).to.match(/Aggregate(?:\(SINGLE\))?\[keys = \[c_custkey_\d+\]\][^\n]*count\(o_orderkey/);
    expect(plan).not.to.match(/Aggregate\((?:PARTIAL|FINAL)\)\[keys = \[c_custkey_/);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, tpchQuery(13), NOT_PUSHED);
  });

  it("finishes q13's count pushed below its right join in the join's tasks, to DuckDB's answer", async () => {
    const plan = await explain(tpchQuery(13));
    const joinFragment = fragments(plan).filter((f) => f.includes('RightJoin['));
    expect(joinFragment).to.have.length(1);
    // The final step of the count per customer sits over the join in its fragment; its partial step
    // counts orders per o_custkey below the join.
    expect(joinFragment[0]).to.match(/Aggregate\(FINAL\)\[keys = \[c_custkey_\d+\]\][\s\S]*RightJoin\[/);
    expect(plan).to.match(/Aggregate\(PARTIAL\)\[keys = \[o_custkey_\d+\]\]/);
    expect(plan).not.to.match(/Aggregate\(PARTIAL\)\[keys = \[c_custkey_/);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, tpchQuery(13), TINY);
  });

  it('keeps unmatched and NULL build keys of a right join each in one group', async () => {
    const sql = `SELECT k, count(o_orderkey), count(*) FROM orders RIGHT JOIN ${CUSTOMERS_WITH_NULL_KEYS} ON o_custkey = k GROUP BY k ORDER BY k NULLS FIRST`;
    const joinFragment = fragments(await explain(sql)).filter((f) => f.includes('RightJoin['));
    expect(joinFragment[0]).to.match(/Aggregate(?:\(SINGLE\))?\[keys = \[k_\d+\]\]/);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, TINY);
  });

  it("repartitions a full join's rows to group them", async () => {
    const sql = `SELECT k, count(o_orderkey), count(*) FROM orders FULL JOIN ${CUSTOMERS_WITH_NULL_KEYS} ON o_custkey = k GROUP BY k ORDER BY k NULLS FIRST`;
    const joinFragment = fragments(await explain(sql)).filter((f) => f.includes('FullJoin['));
    expect(joinFragment).to.have.length(1);
    expect(joinFragment[0]).to.match(/Aggregate\(PARTIAL\)\[keys = \[k_\d+\]\]/);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, TINY);
  });

  it('joins rows grouped on the join key where they were grouped, moving only the other side', async () => {
    const plan = fragments(await explain(GROUPED_BUILD, PARTITIONED));
    const joinFragment = plan.filter((f) => f.includes('InnerJoin['));
    expect(joinFragment).to.have.length(1);
    expect(joinFragment[0]).to.contain('distribution = PARTITIONED');
    // The final sums are the build side and share the join's stage: their rows are not hashed a second time.
    expect(joinFragment[0]).to.match(/InnerJoin\[criteria = \(o_orderkey_\d+ = l_orderkey_\d+\)/);
    expect(joinFragment[0]).to.match(/Aggregate\(FINAL\)\[keys = \[l_orderkey_\d+\]\]/);
    expect(plan.filter((f) => /Output partitioning: HASH \[l_orderkey/.test(f))).to.have.length(1);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, GROUPED_BUILD, PARTITIONED);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, GROUPED_BUILD, TINY);
  });

  it('answers q13, q17, q18 and q20 as DuckDB does with every join partitioned', async () => {
    for (const q of [13, 17, 18, 20])
      await expectDuckDbAnswer(cluster.coordinator.uri, duck, tpchQuery(q), PARTITIONED, { label: `q${q}` });
  });
});
