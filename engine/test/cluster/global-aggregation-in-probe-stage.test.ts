// A scalar subquery's global aggregation on a coordinator with two workers
// (distributed/global-aggregation-in-probe-stage.ts): the partial rows are replicated to the probe
// side's stage, whose every task runs the final step, instead of a stage of one task for it. TPC-H
// q11, q15 and q22 lose that stage (EXPLAIN), and answer as DuckDB does with the property on and
// off; a final over doubles (whose sum depends on the order of its terms) keeps its stage.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { query } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

const TINY = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };
const OFF = { 'X-Engine-Session': 'global_aggregation_in_probe_stage=false' };

/** The fragments of a distributed EXPLAIN, each as its text. */
function fragments(plan: string): string[] {
  return plan.split(/\n(?=Fragment \d+ )/);
}

describe('a scalar subquery aggregation finished in the probe stage on a cluster (coordinator + 2 workers)', function () {
  this.timeout(300_000);
  const cluster = withCluster(2, { sharedSecret: 'cluster-test-secret' });
  let duck: DuckDBConnection;
  const explain = async (sql: string, headers: Record<string, string> = {}) =>
    String((await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, { ...TINY, ...headers }))[0][0]);

  before(async () => {
    duck = await duckDbWithTpch('tiny', 2);
  });

  it("runs q22's average balance in customer's stage: one fragment fewer, and none of one task for the final step", async () => {
    const on = await explain(tpchQuery(22));
    const off = await explain(tpchQuery(22), OFF);
    expect(fragments(on), on).to.have.length(fragments(off).length - 1);
    const final = fragments(on).filter((f) => f.includes('Aggregate(FINAL)[keys = []]'));
    expect(final, on).to.have.length(1);
    expect(final[0], on).to.match(/^Fragment \d+ \[SOURCE\]/);
    expect(final[0], on).to.contain('CrossJoin[');
    expect(final[0], on).to.contain('TableScan[table = tpch:tiny.customer,');
    const offFinal = fragments(off).filter((f) => f.includes('Aggregate(FINAL)[keys = []]'));
    expect(offFinal[0], off).to.match(/^Fragment \d+ \[SINGLE\]/);
  });

  for (const q of [11, 15, 22]) {
    it(`q${q} loses a fragment and answers as DuckDB does, with the property on and off`, async () => {
      const sql = tpchQuery(q);
      expect(fragments(await explain(sql)).length).to.equal(fragments(await explain(sql, OFF)).length - 1);
      await expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, TINY, { label: `q${q} on` });
      await expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, { ...TINY, ...OFF }, { label: `q${q} off` });
    });
  }

  it('keeps the stage of one task for a final over doubles, and answers as DuckDB does', async () => {
    const sql = 'SELECT count(*) FROM orders WHERE CAST(o_totalprice AS double) > (SELECT avg(CAST(o_totalprice AS double)) FROM orders)';
    const plan = await explain(sql);
    expect(fragments(plan).length, plan).to.equal(fragments(await explain(sql, OFF)).length);
    expect(plan).to.match(/Fragment \d+ \[SINGLE\][^]*Aggregate\(FINAL\)\[keys = \[\]\]/);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, TINY);
  });

  it('finishes count, min, max and a decimal sum in a partitioned probe stage, to DuckDB', async () => {
    const sql = `SELECT o_orderpriority, count(*) FROM orders
      WHERE o_totalprice > (SELECT sum(o_totalprice) / count(*) FROM orders WHERE o_orderstatus = 'F')
        AND o_custkey BETWEEN (SELECT min(c_custkey) + 10 FROM customer) AND (SELECT max(c_custkey) - 10 FROM customer)
      GROUP BY o_orderpriority ORDER BY o_orderpriority`;
    expect(fragments(await explain(sql)).length).to.be.below(fragments(await explain(sql, OFF)).length);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, TINY);
  });
});
