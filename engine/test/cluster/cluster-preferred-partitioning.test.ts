// Preferred partitioning on a coordinator and two workers (real processes): the distinct rows under
// an aggregation grouped by fewer keys are repartitioned on that aggregation's keys, so it finishes
// in their stage in one step (TPC-H q16's count(DISTINCT ps_suppkey) per brand, type and size: one
// exchange of the distinct rows, none of partial counts); DISTINCT calls over different arguments
// (a MarkDistinct each) share one exchange on the keys. With few groups (orders by status) or the
// session property off, the distinct rows keep their own keys. Answers equal DuckDB's.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { query } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

const TINY = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };
const SWITCHED_OFF = { ...TINY, 'X-Engine-Session': 'preferred_aggregation_partitioning=false' };

const PER_CUSTOMER = `SELECT o_custkey, count(DISTINCT o_orderpriority) AS priorities, count(DISTINCT o_clerk) AS clerks, sum(o_totalprice) AS total
  FROM orders GROUP BY o_custkey ORDER BY o_custkey`;

/** Groups of groups through a renaming projection and a HAVING filter: the inner grouping's rows are hashed on the outer keys under their inner names. */
const CLERKS_PER_CUSTOMER = `SELECT customer, count(*) AS clerks, sum(orders) AS orders FROM (
    SELECT o_custkey AS customer, o_clerk AS clerk, count(*) AS orders FROM orders GROUP BY o_custkey, o_clerk HAVING count(*) < 3
  ) GROUP BY customer ORDER BY customer`;

const PER_STATUS = 'SELECT o_orderstatus, count(DISTINCT o_custkey) AS customers FROM orders GROUP BY o_orderstatus ORDER BY 1';

/** The keys of each hash-partitioned fragment output, in plan order, with the numeric suffixes dropped. */
function hashOutputs(plan: string): string[] {
  return [...plan.matchAll(/Output partitioning: HASH \[([^\]]*)\]/g)].map((m) => m[1].replace(/_\d+/g, ''));
}

describe('preferred aggregation partitioning on a coordinator and 2 workers', function () {
  this.timeout(600_000);
  const cluster = withCluster(2);
  let duck: DuckDBConnection;
  const explain = async (sql: string, headers = TINY) => String((await query(cluster.coordinator.uri, `EXPLAIN ${sql}`, headers))[0][0]);

  before(async () => {
    duck = await duckDbWithTpch('tiny', 1);
  });

  after(() => duck?.closeSync());

  it("counts q16's distinct suppliers in the stage its distinct rows are hashed to, to DuckDB's answer", async () => {
    const plan = await explain(tpchQuery(16));
    expect(hashOutputs(plan)).to.deep.equal(['p_brand, p_type, p_size']);
    expect(plan).to.match(
      /Aggregate(?:\(SINGLE\))?\[keys = \[p_brand_\d+, p_type_\d+, p_size_\d+\]\][^\n]*count\(ps_suppkey_\d+\)[^]*Aggregate\(FINAL\)\[keys = \[p_brand_\d+, p_type_\d+, p_size_\d+, ps_suppkey_\d+\]\]/,
    );
    expect(plan).not.to.match(/Aggregate\((?:PARTIAL|FINAL)\)\[keys = \[p_brand_\d+, p_type_\d+, p_size_\d+\]\]/);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, tpchQuery(16), TINY);
  });

  it('marks distinct rows of two DISTINCT calls and aggregates them behind one exchange on the keys', async () => {
    const plan = await explain(PER_CUSTOMER);
    expect(hashOutputs(plan)).to.deep.equal(['o_custkey']);
    expect(plan.match(/MarkDistinct\[/g)).to.have.length(2);
    expect(plan).not.to.match(/Aggregate\((?:PARTIAL|FINAL)\)/);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, PER_CUSTOMER, TINY);
  });

  it('hashes the rows of a grouping on the keys of the grouping above it through a renaming projection and a filter', async () => {
    const plan = await explain(CLERKS_PER_CUSTOMER);
    expect(hashOutputs(plan)).to.deep.equal(['o_custkey']);
    expect(plan).to.match(/Aggregate\(FINAL\)\[keys = \[o_custkey_\d+, o_clerk_\d+\]\]/);
    expect(plan).not.to.match(/Aggregate\((?:PARTIAL|FINAL)\)\[keys = \[customer_\d+\]\]/);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, CLERKS_PER_CUSTOMER, TINY);
  });

  it('keeps the distinct rows hashed on all their keys when the aggregation above has few groups', async () => {
    const plan = await explain(PER_STATUS);
    expect(hashOutputs(plan)).to.deep.equal(['o_orderstatus', 'o_orderstatus, o_custkey']);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, PER_STATUS, TINY);
  });

  it('keeps them so when the session switches it off, to the same answers', async () => {
    expect(hashOutputs(await explain(tpchQuery(16), SWITCHED_OFF))).to.deep.equal([
      'p_brand, p_type, p_size',
      'p_brand, p_type, p_size, ps_suppkey',
    ]);
    expect(hashOutputs(await explain(PER_CUSTOMER, SWITCHED_OFF))).to.deep.equal([
      'o_custkey',
      'o_custkey, o_clerk',
      'o_custkey, o_orderpriority',
    ]);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, tpchQuery(16), SWITCHED_OFF);
    await expectDuckDbAnswer(cluster.coordinator.uri, duck, PER_CUSTOMER, SWITCHED_OFF);
  });
});
