// DISTINCT aggregate calls on a coordinator and two workers (real processes) equal DuckDB's answers
// on the same rows (the queries of distinct-aggregate-queries.ts, read from tpch.tiny by the
// workers), and run as partial and final steps: the distributed plan holds no single-step or
// DISTINCT aggregation, and the coordinator's stage only merges the partial states it is sent.

import { expect } from 'chai';
import { duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { duckDbTpchTiny } from '../support/duckdb-tpch-tiny.js';
import { sortedRowTexts } from '../support/engine-and-duckdb.js';
import { query, runStatement } from '../support/statement-http.js';
import { DISTINCT_AGGREGATE_QUERIES } from '../aggregates/distinct-aggregate-queries.js';
import { withCluster } from './cluster-fixture.js';
import { expectDuckDbAnswer } from './duckdb-answer.js';

const HEADERS = { 'X-Engine-User': 'test', 'X-Engine-Catalog': 'tpch', 'X-Engine-Schema': 'tiny' };

describe('DISTINCT aggregates on a coordinator and 2 workers', function () {
  this.timeout(600_000);
  const cluster = withCluster(2);
  const duck = duckDbTpchTiny();

  DISTINCT_AGGREGATE_QUERIES.forEach((sql, i) => {
    it(`query ${i + 1} equals DuckDB: ${sql.slice(0, 90).replace(/\s+/g, ' ')}`, async () => {
      await expectDuckDbAnswer(cluster.coordinator.uri, duck.get(), sql, HEADERS, { nonEmpty: false });
    });
  });

  /** Our rows of `ours` through the coordinator, as sorted texts, are DuckDB's of `theirs` (the same question in DuckDB's words). */
  async function expectSameRows(ours: string, theirs: string): Promise<string[]> {
    const run = await runStatement(cluster.coordinator.uri, ours, HEADERS);
    expect(run.final.error, run.final.error?.message).to.equal(undefined);
    const rows = sortedRowTexts(run.rows);
    expect(rows).to.deep.equal(sortedRowTexts(await duckRows(duck.get(), theirs)), ours);
    return rows;
  }

  it('orders the rows of array_agg and multimap_agg calls through partial and final steps, DISTINCT ones beside plain calls', async () => {
    const distinctOrdered = await expectSameRows(
      "SELECT o_orderstatus, array_join(array_agg(DISTINCT o_orderpriority ORDER BY o_orderpriority DESC) FILTER (WHERE o_totalprice > 100000), ','), count(*) FROM orders GROUP BY 1",
      "SELECT o_orderstatus, array_to_string(array_agg(DISTINCT o_orderpriority ORDER BY o_orderpriority DESC) FILTER (WHERE o_totalprice > 100000), ','), count(*) FROM orders GROUP BY 1",
    );
    expect(distinctOrdered).to.have.length(3);
    const perKey = await expectSameRows(
      `SELECT o_orderstatus, key, array_join(element_at(m, key), ',') FROM (
         SELECT o_orderstatus, multimap_agg(o_orderpriority, o_custkey ORDER BY o_totalprice DESC, o_orderkey) AS m FROM orders WHERE o_orderkey % 7 = 0 GROUP BY 1
       ) CROSS JOIN UNNEST(map_keys(m)) AS u(key)`,
      "SELECT o_orderstatus, o_orderpriority, string_agg(CAST(o_custkey AS varchar), ',' ORDER BY o_totalprice DESC, o_orderkey) FROM orders WHERE o_orderkey % 7 = 0 GROUP BY 1, 2",
    );
    expect(perKey.length).to.be.greaterThan(10);
  });

  it('plans count(DISTINCT x) as partial steps on the workers, and sends the coordinator partial states only', async () => {
    const sql = 'SELECT count(DISTINCT o_custkey) FROM orders';
    const [[plan]] = await query(cluster.coordinator.uri, `EXPLAIN (TYPE DISTRIBUTED) ${sql}`, HEADERS);
    expect(plan).to.not.match(/DISTINCT|Aggregate\(SINGLE\)/);
    expect(plan).to.match(
      /^Fragment 0 \[SINGLE\][^]*Aggregate\(FINAL\)\[keys = \[\]\][^]*RemoteSource[^]*Layout: \[count_partial_\d+:bigint\]\n\nFragment/,
    );
    // A source stage's scan pipeline runs as a ParallelScan (its threads chosen when it runs).
    expect(plan).to.match(
      /Fragment \d \[SOURCE\]\n[^]*Output partitioning: HASH \[o_custkey_\d+\]\n(\s+└─ ParallelScan[^\n]*\n(\s+(Layout|Adaptive)[^\n]*\n)+\s+└─ LocalExchange\[GATHER\][^\n]*\n)?\s+└─ Aggregate\(PARTIAL\)\[keys = \[o_custkey_\d+\]\]/,
    );
    const run = await runStatement(cluster.coordinator.uri, sql, HEADERS);
    expect(run.rows).to.deep.equal([[1000]]);
    const stats = run.final.stats as Record<string, number> & { rootStage: Record<string, number> };
    // 15000 orders were read; the coordinator's stage got one partial count per task below it.
    expect(stats.processedRows).to.be.at.least(15_000);
    expect(stats.rootStage.processedRows).to.be.at.most(stats.nodes);
  });

  it('plans mixed DISTINCT and plain calls with a MarkDistinct in stages partitioned on keys and argument', async () => {
    const [[plan]] = await query(
      cluster.coordinator.uri,
      'EXPLAIN (TYPE DISTRIBUTED) SELECT o_orderstatus, count(DISTINCT o_custkey), sum(o_totalprice) FROM orders GROUP BY 1',
      HEADERS,
    );
    expect(plan).to.not.match(/DISTINCT|Aggregate\(SINGLE\)/);
    expect(plan).to.match(
      /Output partitioning: HASH \[o_orderstatus_\d+\]\n\s+└─ Aggregate\(PARTIAL\)\[keys = \[o_orderstatus_\d+\]\] count_partial_\d+ := count\(o_custkey_\d+\) FILTER is_distinct_\d+[^]*MarkDistinct\[distinct = \[o_orderstatus_\d+, o_custkey_\d+\]/,
    );
    expect(plan).to.match(
      /Output partitioning: HASH \[o_orderstatus_\d+, o_custkey_\d+\]\n(\s+└─ ParallelScan[^\n]*\n(\s+(Layout|Adaptive)[^\n]*\n)+(\s+└─ LocalExchange\[GATHER\][^\n]*\n)?)?(\s+└─ LocalExchange\[ROUND_ROBIN\][^\n]*\n)?\s+└─ TableScan/,
    );
  });
});
