// DISTINCT aggregate calls on one node equal DuckDB's answers on the same rows (the queries of
// distinct-aggregate-queries.ts), and their plans hold no DISTINCT call: the aggregation splits
// into partial and final steps over the rows made distinct (or marked distinct) first.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { firstDifference } from '../../scripts/tpch/result-comparison.js';
import { EngineHarness } from '../support/engine-harness.js';
import { DISTINCT_AGGREGATE_QUERIES } from './distinct-aggregate-queries.js';

describe('DISTINCT aggregates on one node', function () {
  this.timeout(300_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  before(async () => {
    engine = new EngineHarness();
    engine.session.catalog = 'tpch';
    engine.session.schema = 'tiny';
    duck = await duckDbWithTpch('tiny', 1);
  });

  after(() => duck?.closeSync());

  afterEach(() => engine.session.properties.delete('distinct_aggregations_strategy'));

  for (const strategy of ['AUTOMATIC', 'MARK_DISTINCT', 'SINGLE_STEP']) {
    describe(`with distinct_aggregations_strategy ${strategy}`, () => {
      DISTINCT_AGGREGATE_QUERIES.forEach((sql, i) => {
        it(`query ${i + 1} equals DuckDB: ${sql.slice(0, 90).replace(/\s+/g, ' ')}`, async () => {
          engine.session.properties.set('distinct_aggregations_strategy', strategy);
          const ours = await engine.query(sql);
          const difference = firstDifference(
            ours.rows,
            ours.columns.map((c) => c.type),
            ours.columns.map((c) => c.name),
            await duckRows(duck, sql),
          );
          expect(difference, difference).to.equal(undefined);
        });
      });
    });
  }

  it('counts 0 distinct values of no rows, and has one row for it', async () => {
    expect(
      await engine.rows('SELECT count(DISTINCT o_custkey), count(DISTINCT o_clerk), count(*) FROM orders WHERE o_orderkey < 0'),
    ).to.deep.equal([[0n, 0n, 0n]]);
  });

  it('plans count(DISTINCT x) as partial and final steps over partial and final steps grouped by x', async () => {
    const [[plan]] = await engine.rows('EXPLAIN SELECT count(DISTINCT o_custkey) FROM orders');
    expect(plan).to.not.match(/DISTINCT|Aggregate\(SINGLE\)/);
    expect(plan).to.match(/Aggregate\(FINAL\)\[keys = \[\]\] count_\d+ := count\(count_partial_\d+\)/);
    expect(plan).to.match(
      /Aggregate\(PARTIAL\)\[keys = \[o_custkey_\d+\]\]\s+Layout: \[o_custkey_\d+:bigint\]\s+Runs: threads\s+└─ LocalExchange\[ROUND_ROBIN\][^\n]*\s+└─ TableScan/,
    );
  });

  it('plans mixed DISTINCT and plain calls with a MarkDistinct per set of distinct inputs', async () => {
    const [[plan]] = await engine.rows(
      "EXPLAIN SELECT o_orderstatus, count(DISTINCT o_custkey), count(DISTINCT o_clerk) FILTER (WHERE o_orderpriority LIKE '1%'), sum(o_totalprice) FROM orders GROUP BY 1",
    );
    expect(plan).to.not.match(/DISTINCT|Aggregate\(SINGLE\)/);
    expect(plan).to.match(/MarkDistinct\[distinct = \[o_orderstatus_\d+, o_custkey_\d+\], marker = is_distinct_\d+\]/);
    expect(plan).to.match(/MarkDistinct\[distinct = \[o_orderstatus_\d+, o_clerk_\d+, mask_\d+\], marker = is_distinct_\d+\]/);
    expect(plan).to.match(
      /Aggregate\(PARTIAL\)\[keys = \[o_orderstatus_\d+\]\] count_partial_\d+ := count\(o_custkey_\d+\) FILTER is_distinct_\d+/,
    );
  });

  it('plans by the strategy the session asks for: a MarkDistinct for one set of inputs, or one step with DISTINCT', async () => {
    engine.session.properties.set('distinct_aggregations_strategy', 'MARK_DISTINCT');
    const [[marked]] = await engine.rows('EXPLAIN SELECT count(DISTINCT o_custkey) FROM orders');
    expect(marked).to.match(/MarkDistinct\[distinct = \[o_custkey_\d+\]/);
    engine.session.properties.set('distinct_aggregations_strategy', 'SINGLE_STEP');
    const [[single]] = await engine.rows('EXPLAIN SELECT count(DISTINCT o_custkey) FROM orders');
    expect(single).to.match(/Aggregate\(SINGLE\)\[keys = \[\]\] count_\d+ := count\(DISTINCT o_custkey_\d+\)/);
    expect((await engine.query("SET SESSION distinct_aggregations_strategy = 'PRE_AGGREGATE'").catch((e: Error) => e)) as Error)
      .to.have.property('message')
      .that.contains('must be one of AUTOMATIC, MARK_DISTINCT, SINGLE_STEP');
  });
});
