// A grouped aggregation on a single-node server finishes in its scan's task (no repartition to a
// FIXED_HASH stage), so a join above it filters that scan dynamically (TPC-H q20: partsupp's keys
// reach lineitem's scan through the grouped sums); a cluster's coordinator and the session
// property single_node_aggregation=false keep the repartition, and the scan then takes the keys from
// the join's stage (remote dynamic filters). Answers equal DuckDB's either way.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { firstDifference } from '../../scripts/tpch/result-comparison.js';
import { EngineHarness } from '../support/engine-harness.js';

/** Queries whose grouped aggregations sit under joins, over joins, or under a HAVING. */
const QUERIES = [1, 2, 3, 10, 11, 13, 15, 16, 18, 20, 21, 22];

const LINEITEM_SCAN = /TableScan\[table = tpch:tiny\.lineitem[^\n]*/;

function fixedHashFragments(plan: string): number {
  return plan.split('\n').filter((line) => line.includes('[FIXED_HASH]')).length;
}

describe('grouped aggregations on a single node finish in their scan task', function () {
  this.timeout(600_000);
  let duck: DuckDBConnection;

  before(async () => {
    duck = await duckDbWithTpch('tiny', 2);
  });

  const harness = (singleNode: boolean) => {
    const engine = new EngineHarness({ singleNode });
    engine.session.catalog = 'tpch';
    engine.session.schema = 'tiny';
    return engine;
  };
  const explain = async (engine: EngineHarness, sql: string) => (await engine.rows(`EXPLAIN ${sql}`)).map((r) => String(r[0])).join('\n');

  it("q20's partsupp keys filter lineitem's scan through its grouped sums, with no repartition", async () => {
    const plan = await explain(harness(true), tpchQuery(20));
    expect(fixedHashFragments(plan)).to.equal(0);
    expect(plan).to.match(/Aggregate\(FINAL\)\[keys = \[l_partkey_\d+, l_suppkey_\d+\]\]/);
    const scan = LINEITEM_SCAN.exec(plan)![0];
    expect(scan).to.match(/dynamicFilters = \{"l_partkey" = #df_\d+, "l_suppkey" = #df_\d+\}/);
  });

  it('keeps the repartition when switched off, and on a node that is not a single-node server: the keys filter lineitem from the stage above', async () => {
    const off = harness(true);
    off.session.properties.set('single_node_aggregation', 'false');
    for (const plan of [await explain(off, tpchQuery(20)), await explain(harness(false), tpchQuery(20))]) {
      expect(fixedHashFragments(plan)).to.be.above(0);
      // Remote dynamic filters: the join's tasks send the keys' domains to lineitem's through the coordinator.
      expect(LINEITEM_SCAN.exec(plan)![0]).to.match(
        /dynamicFilters = \{"l_partkey" = #df_\d+ \(remote\), "l_suppkey" = #df_\d+ \(remote\)\}/,
      );
    }
  });

  for (const q of QUERIES) {
    it(`q${q} answers as DuckDB does`, async () => {
      const sql = tpchQuery(q);
      const ours = await harness(true).query(sql);
      const difference = firstDifference(
        ours.rows,
        ours.columns.map((c) => c.type),
        ours.columns.map((c) => c.name),
        await duckRows(duck, sql),
      );
      expect(difference).to.equal(undefined);
    });
  }
});
