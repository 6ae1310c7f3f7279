// A HAVING directly above a grouped aggregation the worker threads finish runs on the threads, each
// on the groups it finished, before they are gathered (EXPLAIN: the Filter under the GATHER). Its
// answers equal DuckDB's on the same rows: TPC-H q18, HAVING over NULL aggregates, over count, avg
// and min, over a group key, an empty answer; whether the partial step pays (final step partitioned)
// or not (the whole aggregation in one step on the threads), with one thread's split (the final step
// in the main thread, the filter there too), in the main thread, and with partitioned_aggregation
// off. A non-deterministic HAVING stays in the main thread.

import { expect } from 'chai';
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbWithTpch, duckRows } from '../../scripts/tpch/duckdb-tpch.js';
import { tpchQuery } from '../../scripts/tpch/queries.js';
import { expectDuckDbAnswer } from '../support/engine-and-duckdb.js';
import { EngineHarness } from '../support/engine-harness.js';
import { expectValidRoundTrip, findPhysical, physicalPlanOf } from '../physical/physical-plan-helpers.js';
import { DIGITS, ID, IN_MAIN_THREAD, IN_WORKERS, rowsWith, SIX_DIGITS } from './parallel-helpers.js';

/**
 * 200,000 rows (four splits): `k` groups four rows (its partial step does not reduce), `g` 200 rows
 * (it does); `n` is NULL in every row of a tenth of the `g` groups.
 */
const LINES = `SELECT id, id - id % 4 AS k, id % 1000 AS g,
    CAST(id % 50 AS decimal(12,2)) + 0.25 AS q,
    CASE WHEN id % 10 = 0 THEN NULL ELSE id % 7 END AS n,
    'v' || CAST(id % 13 AS varchar) AS s
  FROM (SELECT ${ID} AS id FROM ${SIX_DIGITS} WHERE f.x < 2) t`;

/** Grouped aggregations with a HAVING the threads apply, each to give DuckDB's rows (ordered by the group key). */
const QUERIES: Record<string, string> = {
  'a HAVING keeping few of many groups (q18 shaped)': 'SELECT k, sum(q) FROM lines GROUP BY k HAVING sum(q) > 190 ORDER BY k',
  'a HAVING over a partial step that reduces': 'SELECT g, sum(q), count(*) FROM lines GROUP BY g HAVING sum(q) > 5150 ORDER BY g',
  'HAVING on NULL aggregates': 'SELECT g, sum(n), count(n) FROM lines GROUP BY g HAVING sum(n) IS NULL OR sum(n) > 700 ORDER BY g',
  'HAVING on count, avg and min': `SELECT g, count(*), min(s) FROM lines GROUP BY g
    HAVING count(*) >= 200 AND avg(q) > 25.3 AND min(id) % 3 <> 0 ORDER BY g`,
  'HAVING referencing a group key': 'SELECT k, sum(q) FROM lines GROUP BY k HAVING k % 997 = 0 OR sum(q) > 190 ORDER BY k',
  'HAVING over two keys': 'SELECT g, s, max(q) FROM lines GROUP BY g, s HAVING max(q) < 1 AND g < 500 ORDER BY g, s',
};

const EMPTY = 'SELECT k, sum(q) FROM lines GROUP BY k HAVING sum(q) < 0 ORDER BY k';

/** Runs on threads, finishing the groups there; on threads with one split each; in the main thread; without partitioned final steps. */
const MODES: Record<string, Record<string, string>> = {
  'on the threads': IN_WORKERS,
  'in the main thread': IN_MAIN_THREAD,
  'with partitioned_aggregation off': { ...IN_WORKERS, partitioned_aggregation: 'false' },
};

describe('A HAVING on the worker threads equals DuckDB', function () {
  this.timeout(600_000);
  let engine: EngineHarness;
  let duck: DuckDBConnection;

  const explain = async (sql: string, properties: Record<string, string> = IN_WORKERS) =>
    (await rowsWith(engine, `EXPLAIN ${sql}`, properties)).map((row) => String(row[0])).join('\n');

  async function expectAnswer(sql: string, properties: Record<string, string>): Promise<void> {
    const saved = new Map(engine.session.properties);
    for (const [k, v] of Object.entries(properties)) engine.session.properties.set(k, v);
    try {
      await expectDuckDbAnswer(engine, duck, sql);
    } finally {
      engine.session.properties.clear();
      for (const [k, v] of saved) engine.session.properties.set(k, v);
    }
  }

  before(async () => {
    engine = new EngineHarness();
    duck = await duckDbWithTpch('tiny', 1);
    engine.session.catalog = 'memory';
    engine.session.schema = 'default';
    for (const sql of [`CREATE TABLE digits AS ${DIGITS}`, `CREATE TABLE lines AS ${LINES}`]) {
      await engine.run(sql);
      await duck.run(sql);
    }
    await engine.run('CREATE SCHEMA memory.tiny');
    for (const table of ['customer', 'orders', 'lineitem'])
      await engine.run(`CREATE TABLE memory.tiny.${table} AS SELECT * FROM tpch.tiny.${table}`);
  });

  after(() => duck?.closeSync());

  it('puts the filter under the GATHER of the threads, and gathers only the groups kept', async () => {
    const sql = QUERIES['a HAVING keeping few of many groups (q18 shaped)'];
    expect(await explain(sql)).to.match(
      /ParallelScan\[[^]*└─ LocalExchange\[GATHER\][^\n]*\n\s+└─ Filter\[[^\n]*\n[^\n]*\n\s+Runs: threads, each on the groups it finished[^]*Aggregate\(FINAL\)/,
    );
    const kept = (await rowsWith(engine, sql, IN_WORKERS)).length;
    expect(kept).to.be.greaterThan(0).and.lessThan(5000);
    const analyzed = (await rowsWith(engine, `EXPLAIN ANALYZE ${sql}`, IN_WORKERS)).map((row) => String(row[0])).join('\n');
    expect(analyzed).to.match(/Adaptive final step: [^\n]*; chosen: partitioned across 2 threads/);
    // The parallel scan's output is the groups kept, not the 50,000 groups.
    expect(analyzed).to.match(new RegExp(`ParallelScan\\[[^\\n]*\\n[^]*?Output: ${kept} rows`));
  });

  for (const [mode, properties] of Object.entries(MODES)) {
    describe(mode, () => {
      for (const [name, sql] of Object.entries(QUERIES)) {
        it(`${name}: DuckDB's rows`, async () => {
          await expectAnswer(sql, properties);
          // Again, once the threads remember whether its partial step pays.
          await expectAnswer(sql, properties);
        });
      }

      it('an empty answer', async () => {
        expect(await rowsWith(engine, EMPTY, properties)).to.deep.equal([]);
        expect(await duckRows(duck, EMPTY)).to.deep.equal([]);
      });

      it("TPC-H q18 over memory tables: DuckDB's rows", async () => {
        engine.session.schema = 'tiny';
        try {
          await expectAnswer(tpchQuery(18), properties);
        } finally {
          engine.session.schema = 'default';
        }
      });
    });
  }

  it('plans the filter into the parallel scan, its plan valid and read back from JSON the same', async () => {
    const root = await physicalPlanOf(engine, QUERIES['HAVING on NULL aggregates'], 2);
    const scan = findPhysical(root, 'ParallelScan');
    expect(scan?.kind === 'ParallelScan' && scan.aggregation?.having?.kind).to.equal('Filter');
    expectValidRoundTrip(root);
  });

  it('leaves a non-deterministic HAVING in the main thread, above the gathered groups', async () => {
    const sql = 'SELECT g, count(*) FROM lines GROUP BY g HAVING count(*) > random() ORDER BY g';
    expect(await explain(sql)).to.match(
      /└─ Filter\[[^\n]*random[^]*└─ ParallelScan\[[^]*LocalExchange\[GATHER\][^\n]*\n\s+└─ Aggregate\(FINAL\)/,
    );
    await expectAnswer(sql, IN_WORKERS);
  });
});
