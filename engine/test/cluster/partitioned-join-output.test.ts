// Where a partitioned join's output rows lie, as the planner counts on it: a right join's rows stay
// hashed on its build keys (unmatched build rows keep theirs), so an aggregation grouped on them
// runs in the join's tasks without another exchange (TPC-H q13's orders per customer); a full
// join's rows lie on neither side's keys, so an aggregation over them still repartitions. The
// answers equal DuckDB's, NULL keys and unmatched rows included.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { query } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

const TINY = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };

/** Customers, every tenth with a NULL key, and their orders: the NULL keys and customers without orders come out unmatched. */
const CUSTOMERS_WITH_NULL_KEYS = `(SELECT CASE WHEN c_custkey % 10 = 0 THEN NULL ELSE c_custkey END AS k FROM customer) c`;

function fragments(plan: string): string[] {
  return plan.split(/\n(?=Fragment \d+ )/);
}

describe('partitioned join output: where its rows lie for the operators above', function () {
  this.timeout(600_000);
  const cluster = withCluster(2);
  let duck: DuckDBConnection;
  const explain = async (sql: string) => String((await query(cluster.coordinator.uri, `EXPLAIN ${sql}`, TINY))[0][0]);

  before(async () => {
    duck = await duckDbWithTpch('tiny', 2);
  });

  it("groups q13's right join on its build keys in the join's tasks, to DuckDB's answer", async () => {
    const joinFragment = fragments(await explain(tpchQuery(13))).filter((f) => f.includes('RightJoin['));
    expect(joinFragment).to.have.length(1);
    expect(joinFragment[0]).to.contain('distribution = PARTITIONED');
    // One step over the join: no partial aggregation repartitioned on c_custkey to a final one.
    expect(joinFragment[0]).to.match(/Aggregate(?:\(SINGLE\))?\[keys = \[c_custkey_\d+\]\][^\n]*count\(o_orderkey/);
    expect(await explain(tpchQuery(13))).not.to.match(/Aggregate\((?:PARTIAL|FINAL)\)\[keys = \[c_custkey_/);
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
});
