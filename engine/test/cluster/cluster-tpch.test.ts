// The 22 TPC-H queries on tpch.tiny through a coordinator and two worker processes equal DuckDB's
// answers on the same rows (and therefore the single node's, which equals them too: see
// tpch-queries.test.ts): read by the workers from the tpch connector, and from memory tables
// created on the cluster. EXPLAIN shows that they really run in stages on the workers.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { jsonToScalar, typeOfName } from '../../scripts/bench/json-rows.js';
import type { JsonValue } from '../../src/types/exact-json.js';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { firstDifference } from '../../scripts/tpch/result-comparison.js';
import { TPCH_TABLE_NAMES } from '../../scripts/tpch/tbl-export.js';
import { query, runStatement } from '../support/statement-http.js';
import { TestCluster } from './cluster-fixture.js';

describe('TPC-H on a cluster (coordinator + 2 workers) equals DuckDB', function () {
  this.timeout(600_000);
  let cluster: TestCluster;
  let duck: DuckDBConnection;

  before(async () => {
    cluster = await TestCluster.start(2, { sharedSecret: 'cluster-test-secret' });
    await cluster.waitForActiveWorkers(2);
    duck = await duckDbWithTpch('tiny', 2);
    await query(cluster.coordinator.uri, 'CREATE SCHEMA memory.tiny');
    for (const table of TPCH_TABLE_NAMES) await query(cluster.coordinator.uri, `CREATE TABLE memory.tiny.${table} AS SELECT * FROM tpch.tiny.${table}`);
  });

  after(async () => {
    await cluster?.stop();
  });

  it('plans a join and an aggregation as stages over the workers', async () => {
    const [[plan]] = await query(cluster.coordinator.uri, 'EXPLAIN SELECT o_orderpriority, count(*) FROM tpch.tiny.orders JOIN tpch.tiny.lineitem ON o_orderkey = l_orderkey GROUP BY 1');
    expect(plan).to.match(/^Fragment 0 \[SINGLE\]/);
    expect(plan).to.match(/Fragment \d \[SOURCE\]/);
    expect(plan).to.match(/Fragment \d \[FIXED_HASH\]/);
    expect(plan).to.match(/Output partitioning: HASH \[/);
  });

  it('runs window frames with interval offsets partitioned over the workers, to DuckDB\'s answer', async () => {
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
    const difference = firstDifference(rows, types, (run.columns ?? []).map((c) => c.name), await duckRows(duck, sql));
    expect(difference, difference).to.equal(undefined);
  });

  for (const catalog of ['tpch', 'memory']) {
    describe(`from ${catalog}.tiny`, () => {
      for (let q = 1; q <= 22; q++) {
        it(`q${String(q).padStart(2, '0')}`, async () => {
          const sql = tpchQuery(q);
          const run = await runStatement(cluster.coordinator.uri, sql, { 'X-Engine-User': 'test', 'X-Engine-Catalog': catalog, 'X-Engine-Schema': 'tiny' });
          expect(run.final.error, run.final.error?.message).to.equal(undefined);
          const types = (run.columns ?? []).map((c) => typeOfName(c.type));
          const rows = run.rows.map((r) => r.map((v, c) => jsonToScalar(v as JsonValue, types[c])));
          expect(rows.length, 'no rows: the comparison would be empty').to.be.greaterThan(0);
          const difference = firstDifference(rows, types, (run.columns ?? []).map((c) => c.name), await duckRows(duck, sql));
          expect(difference, difference).to.equal(undefined);
        });
      }
    });
  }
});
