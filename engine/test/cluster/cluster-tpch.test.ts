// The 22 TPC-H queries on tpch.tiny through a coordinator and two worker processes equal DuckDB's
// answers on the same rows (and therefore the single node's, which equals them too: see
// tpch-queries.test.ts): read by the workers from the tpch connector, and from memory tables
// created on the cluster. EXPLAIN shows that they really run in stages on the workers, and the
// query detail that they ran there as our operators.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { jsonToScalar, typeOfName } from '../../scripts/bench/json-rows.js';
import type { JsonValue } from '../../src/types/exact-json.js';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { firstDifference } from '../../scripts/tpch/result-comparison.js';
import { TPCH_TABLE_NAMES } from '../../scripts/tpch/tbl-export.js';
import { filterAndProject } from '../../src/exec/operators/filter-and-project.js';
import { hashAggregation } from '../../src/exec/operators/hash-aggregation.js';
import { hashJoin } from '../../src/exec/operators/hash-join.js';
import { parallelSource } from '../../src/exec/threads/parallel-source.js';
import { tableScan } from '../../src/exec/table-scan.js';
import { ExchangeClient } from '../../src/worker/exchange-client.js';
import { TaskOutput } from '../../src/worker/task-output.js';
import { getJson, query, runStatement } from '../support/statement-http.js';
import { withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

interface StageJson {
  tasks: { stats: { pipelines: { operatorSummaries: { operatorType: string }[] }[] } }[];
  subStages: StageJson[];
}

describe('TPC-H on a cluster (coordinator + 2 workers) equals DuckDB', function () {
  this.timeout(600_000);
  const cluster = withCluster(2, { sharedSecret: 'cluster-test-secret' });
  let duck: DuckDBConnection;

  before(async () => {
    duck = await duckDbWithTpch('tiny', 2);
    await query(cluster.coordinator.uri, 'CREATE SCHEMA memory.tiny');
    for (const table of TPCH_TABLE_NAMES)
      await query(cluster.coordinator.uri, `CREATE TABLE memory.tiny.${table} AS SELECT * FROM tpch.tiny.${table}`);
  });

  it('plans a join and an aggregation as stages over the workers', async () => {
    const [[plan]] = await query(
      cluster.coordinator.uri,
      'EXPLAIN SELECT o_orderpriority, count(*) FROM tpch.tiny.orders JOIN tpch.tiny.lineitem ON o_orderkey = l_orderkey GROUP BY 1',
    );
    expect(plan).to.match(/^Fragment 0 \[SINGLE\]/);
    expect(plan).to.match(/Fragment \d \[SOURCE\]/);
    expect(plan).to.match(/Fragment \d \[FIXED_HASH\]/);
    expect(plan).to.match(/Output partitioning: HASH \[/);
  });

  it("runs window frames with interval offsets partitioned over the workers, to DuckDB's answer", async () => {
    const sql = `SELECT o_orderkey,
        sum(o_totalprice) OVER (PARTITION BY o_custkey ORDER BY o_orderdate RANGE BETWEEN INTERVAL '3' MONTH PRECEDING AND INTERVAL '10' DAY FOLLOWING),
        count(*) OVER (PARTITION BY o_custkey ORDER BY o_orderdate DESC RANGE BETWEEN INTERVAL '30' DAY PRECEDING AND CURRENT ROW)
      FROM orders ORDER BY o_orderkey`;
    const headers = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN ${sql}`, headers);
    expect(plan).to.match(/Fragment \d \[FIXED_HASH\][^]*Window\[partitionBy = \[o_custkey[^]*RANGE \w+ PRECEDING \w+ FOLLOWING/);
    const run = await runStatement(cluster.coordinator.uri, sql, headers);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    const types = (run.columns ?? []).map((c) => typeOfName(c.type));
    const rows = run.rows.map((r) => r.map((v, c) => jsonToScalar(v as JsonValue, types[c])));
    expect(rows.length).to.equal(15000);
    const difference = firstDifference(
      rows,
      types,
      (run.columns ?? []).map((c) => c.name),
      await duckRows(duck, sql),
    );
    expect(difference, difference).to.equal(undefined);
  });

  it("sends every special form to the workers (BETWEEN SYMMETRIC was refused by their request schema), to DuckDB's answer", async () => {
    const sql = `SELECT o_orderkey, o_totalprice BETWEEN SYMMETRIC 200000 AND 100000, nullif(o_orderstatus, 'F'), coalesce(o_clerk, 'x') LIKE '%1%'
      FROM orders WHERE o_custkey BETWEEN SYMMETRIC 900 AND 100 AND o_orderkey IN (SELECT l_orderkey FROM lineitem WHERE l_quantity > 40) ORDER BY o_orderkey`;
    const headers = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };
    const run = await runStatement(cluster.coordinator.uri, sql, headers);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    const types = (run.columns ?? []).map((c) => typeOfName(c.type));
    const rows = run.rows.map((r) => r.map((v, c) => jsonToScalar(v as JsonValue, types[c])));
    expect(rows.length).to.be.greaterThan(100);
    // DuckDB has no BETWEEN SYMMETRIC: its answer comes from the spelled-out form.
    const spelled = sql
      .replace('o_totalprice BETWEEN SYMMETRIC 200000 AND 100000', 'o_totalprice BETWEEN 100000 AND 200000')
      .replace('o_custkey BETWEEN SYMMETRIC 900 AND 100', 'o_custkey BETWEEN 100 AND 900');
    const difference = firstDifference(
      rows,
      types,
      (run.columns ?? []).map((c) => c.name),
      await duckRows(duck, spelled),
    );
    expect(difference, difference).to.equal(undefined);
  });

  it("runs them on every node, under our operators' names, as the query detail and statement stats say", async () => {
    const headers = { 'X-Engine-User': 'test' };
    const run = await runStatement(
      cluster.coordinator.uri,
      'SELECT o_orderpriority, count(*) FROM tpch.tiny.orders JOIN tpch.tiny.lineitem ON o_orderkey = l_orderkey GROUP BY 1',
      headers,
    );
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    // The root stage on the coordinator, the others on the two workers.
    const stats = run.final.stats as Record<string, number> & { rootStage: Record<string, number> };
    expect(stats.nodes).to.equal(3);
    // The query read both tables; its root stage only the 5 groups the stages below sent it.
    expect(stats.processedRows).to.equal(15_000 + 60_175);
    expect(stats.rootStage.processedRows).to.equal(run.rows.length);
    expect(run.rows.length).to.equal(5);
    expect(stats.rootStage.cpuTimeMillis).to.be.at.most(stats.cpuTimeMillis);
    const detail = await getJson<{ queryStats: Record<string, number>; outputStage: StageJson }>(
      `${cluster.coordinator.uri}/v1/query/${run.final.id}`,
      { headers },
    );
    // Each task runs one driver.
    expect(detail.body.queryStats.totalDrivers).to.equal(detail.body.queryStats.totalTasks);
    expect(detail.body.queryStats.completedDrivers).to.equal(detail.body.queryStats.totalTasks);
    const stages = (stage: StageJson): StageJson[] => [stage, ...stage.subStages.flatMap(stages)];
    const summaries = stages(detail.body.outputStage).flatMap((s) =>
      s.tasks.flatMap((t) => t.stats.pipelines.flatMap((p) => p.operatorSummaries)),
    );
    const ours = [tableScan, parallelSource, filterAndProject, hashAggregation, hashJoin, ExchangeClient, TaskOutput].map((o) => o.name);
    expect(summaries.length).to.be.greaterThan(0);
    for (const { operatorType } of summaries) expect(ours).to.include(operatorType);
    expect(summaries.map((s) => s.operatorType)).to.include.members([
      hashJoin.name,
      hashAggregation.name,
      ExchangeClient.name,
      TaskOutput.name,
    ]);
  });

  for (const catalog of ['tpch', 'memory']) {
    describe(`from ${catalog}.tiny`, () => {
      for (let q = 1; q <= 22; q++) {
        it(`q${String(q).padStart(2, '0')}`, async () => {
          const sql = tpchQuery(q);
          await expectDuckDbAnswer(cluster.coordinator.uri, duck, sql, {
            'X-Engine-User': 'test',
            'X-Engine-Catalog': catalog,
            'X-Engine-Schema': 'tiny',
          });
        });
      }
    });
  }
});
