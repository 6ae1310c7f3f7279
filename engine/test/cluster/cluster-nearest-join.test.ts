// NEAREST joins on a coordinator and two workers (real processes) over tpch.tiny equal DuckDB's ASOF
// JOIN on the same rows: partitioned on the WHERE equality (both sides repartitioned on the keys:
// each order meets all of its line items on one task) and replicated, inner and LEFT, and without
// an equality key (every task sees every candidate). Only the chosen match key is returned, so that
// ties among line items shipped the same day cannot make the answer differ (rows compared in
// order of the order key).

import { expect } from 'chai';
import { jsonToScalar, typeOfName } from '../../scripts/bench/json-rows.js';
import type { JsonValue } from '../../src/types/exact-json.js';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { firstDifference } from '../../scripts/tpch/result-comparison.js';
import { query, runStatement } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';

const TINY = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };
const PARTITIONED = { ...TINY, 'X-Engine-Session': 'join_distribution_type=PARTITIONED' };
const BROADCAST = { ...TINY, 'X-Engine-Session': 'join_distribution_type=BROADCAST' };

/** Per order, the first line item shipped at least 60 days after it was ordered. */
const SHIPPED_AFTER_60_DAYS = `SELECT o.o_orderkey, l.l_shipdate FROM orders o
  CROSS JOIN NEAREST (FROM lineitem l WHERE l.l_orderkey = o.o_orderkey MATCH l.l_shipdate >= o.o_orderdate + INTERVAL '60' DAY)
  ORDER BY 1`;
const SHIPPED_AFTER_60_DAYS_DUCKDB = `SELECT o.o_orderkey, l.l_shipdate FROM orders o
  ASOF JOIN lineitem l ON l.l_orderkey = o.o_orderkey AND o.o_orderdate + INTERVAL 60 DAY <= l.l_shipdate ORDER BY 1`;

/** Per order, the last line item shipped within 30 days of the order, or NULL. */
const SHIPPED_WITHIN_30_DAYS = `SELECT o.o_orderkey, l.l_shipdate FROM orders o
  LEFT JOIN NEAREST (FROM lineitem l WHERE l.l_orderkey = o.o_orderkey MATCH l.l_shipdate < o.o_orderdate + INTERVAL '30' DAY) ON TRUE
  ORDER BY 1`;
const SHIPPED_WITHIN_30_DAYS_DUCKDB = `SELECT o.o_orderkey, l.l_shipdate FROM orders o
  ASOF LEFT JOIN lineitem l ON l.l_orderkey = o.o_orderkey AND o.o_orderdate + INTERVAL 30 DAY > l.l_shipdate ORDER BY 1`;

describe('NEAREST joins on a coordinator and 2 workers', function () {
  this.timeout(600_000);
  const cluster = withCluster(2);
  const duck = duckDbTpchTiny();

  const explain = async (sql: string, headers: Record<string, string>) =>
    String((await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, headers))[0][0]);

  async function expectDuckDbAnswer(sql: string, duckSql: string, headers: Record<string, string>): Promise<unknown[][]> {
    const run = await runStatement(cluster.coordinator.uri, sql, headers);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    const types = (run.columns ?? []).map((c) => typeOfName(c.type));
    const rows = run.rows.map((r) => r.map((v, c) => jsonToScalar(v as JsonValue, types[c])));
    const difference = firstDifference(
      rows,
      types,
      (run.columns ?? []).map((c) => c.name),
      await duckRows(duck.get(), duckSql),
    );
    expect(difference, difference).to.equal(undefined);
    return rows;
  }

  it('partitions both sides on the equality key and answers as DuckDB', async () => {
    const plan = await explain(SHIPPED_AFTER_60_DAYS, PARTITIONED);
    expect(plan).to.match(
      /InnerNearestJoin\[criteria = \(o_orderkey_\d+ = l_orderkey_\d+\), filter = [^\]]*nearest = nearest_key_\d+ >= nearest_value_\d+, distribution = PARTITIONED/,
    );
    expect(plan).to.match(/Output partitioning: HASH \[l_orderkey_\d+\]/);
    const rows = await expectDuckDbAnswer(SHIPPED_AFTER_60_DAYS, SHIPPED_AFTER_60_DAYS_DUCKDB, PARTITIONED);
    expect(rows.length).to.be.greaterThan(5000);
  });

  it('keeps orders without a match in LEFT JOIN NEAREST, partitioned and replicated', async () => {
    const partitioned = await expectDuckDbAnswer(SHIPPED_WITHIN_30_DAYS, SHIPPED_WITHIN_30_DAYS_DUCKDB, PARTITIONED);
    expect(partitioned).to.have.length(15_000);
    expect(partitioned.filter((r) => r[1] === null).length).to.be.greaterThan(1000);
    expect(await explain(SHIPPED_WITHIN_30_DAYS, BROADCAST)).to.match(/LeftNearestJoin\[[^\]]*distribution = REPLICATED/);
    await expectDuckDbAnswer(SHIPPED_WITHIN_30_DAYS, SHIPPED_WITHIN_30_DAYS_DUCKDB, BROADCAST);
  });

  it('finds the nearest among all candidates without an equality key', async () => {
    await expectDuckDbAnswer(
      'SELECT c.c_custkey, n.n_nationkey FROM customer c CROSS JOIN NEAREST (FROM nation n MATCH n.n_nationkey * 7 > c.c_custkey % 150) ORDER BY 1',
      'SELECT c.c_custkey, n.n_nationkey FROM customer c ASOF JOIN nation n ON c.c_custkey % 150 < n.n_nationkey * 7 ORDER BY 1',
      TINY,
    );
  });
});
