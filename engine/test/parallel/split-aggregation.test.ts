import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { IN_MAIN_THREAD, rowsWith } from './parallel-helpers.js';

describe('optimizer: partial and final aggregation', () => {
  let h: EngineHarness;
  const plan = async (sql: string, properties: Record<string, string> = {}) =>
    (await rowsWith(h, `EXPLAIN ${sql}`, properties))[0][0] as string;

  before(async () => {
    h = new EngineHarness();
    await h.run(
      'CREATE TABLE t (k varchar, v decimal(10,2), n bigint)',
      "INSERT INTO t VALUES ('a', 1.50, 1), ('b', 2.25, NULL), ('a', NULL, 3)",
    );
  });

  it('splits an aggregation over a filtered scan into FINAL over PARTIAL, one intermediate symbol per intermediate column', async () => {
    const text = await plan('SELECT k, avg(v), count(*) FROM t WHERE n IS NULL OR n > 0 GROUP BY k');
    expect(text).to.match(
      /Aggregate\(FINAL\)\[keys = \[k_\d+\]\] avg_\d+ := avg\(avg_partial_\d+, avg_partial_\d+\), count_\d+ := count\(count_partial_\d+\)/,
    );
    expect(text).to.match(/Aggregate\(PARTIAL\)\[keys = \[k_\d+\]\] avg_partial_\d+ := avg\(v_\d+\), count_partial_\d+ := count\(\)/);
    expect(text).to.match(/Layout: \[k_\d+:varchar, avg_partial_\d+:decimal\(38,2\), avg_partial_\d+:bigint, count_partial_\d+:bigint\]/);
    expect(text.indexOf('Aggregate(FINAL)')).to.be.lessThan(text.indexOf('Aggregate(PARTIAL)'));
  });

  it('gives the same results as the single aggregation on a table too small for workers', async () => {
    const sql = 'SELECT k, avg(v), sum(v), count(n), max(n) FROM t GROUP BY k ORDER BY k';
    expect(await h.rows(sql)).to.deep.equal(await rowsWith(h, sql, IN_MAIN_THREAD));
    expect(await h.rows(sql)).to.deep.equal([
      ['a', 150n, 150n, 2n, 3n],
      ['b', 225n, 225n, 0n, null],
    ]);
  });

  it('splits the grouping a DISTINCT aggregate runs over, or keeps it single under SINGLE_STEP', async () => {
    const text = await plan('SELECT k, count(DISTINCT n) FROM t GROUP BY k');
    expect(text).to.not.match(/DISTINCT/);
    // The inner grouping's pair runs as a parallel scan: the partial in the threads, the final step
    // partitioned across them by a HASH exchange on its keys, its rows gathered in the main thread.
    expect(text).to.match(
      /Aggregate\(SINGLE\)\[keys = \[k_\d+\]\] count_\d+ := count\(n_\d+\)\s+Layout: [^\n]*\s+└─ ParallelScan\[[^\n]*\s+Layout: [^\n]*(\s+Adaptive [^\n]*)+\s+└─ LocalExchange\[GATHER\][^\n]*\s+└─ Aggregate\(FINAL\)\[keys = \[k_\d+, n_\d+\]\]\s+Layout: [^\n]*\s+Runs: partitioned across the threads[^\n]*\s+└─ LocalExchange\[HASH, keys = \[k_\d+, n_\d+\]\][^\n]*\s+└─ Aggregate\(PARTIAL\)\[keys = \[k_\d+, n_\d+\]\]\s+Layout: [^\n]*\s+Runs: threads/,
    );
    // Switched off, the final step runs in the main thread over the gathered partial states.
    expect(await plan('SELECT k, count(DISTINCT n) FROM t GROUP BY k', { partitioned_aggregation: 'false' })).to.match(
      /└─ Aggregate\(FINAL\)\[keys = \[k_\d+, n_\d+\]\]\s+Layout: [^\n]*\s+Runs: main thread[^\n]*\s+└─ LocalExchange\[GATHER\][^\n]*\s+└─ Aggregate\(PARTIAL\)/,
    );
    const single = await plan('SELECT k, count(DISTINCT n) FROM t GROUP BY k', { distinct_aggregations_strategy: 'SINGLE_STEP' });
    expect(single)
      .to.match(/Aggregate\(SINGLE\)\[keys = \[k_\d+\]\] count_\d+ := count\(DISTINCT n_\d+\)/)
      .and.not.match(/PARTIAL/);
  });

  it('keeps aggregations single over sources that stay in the main thread', async () => {
    expect(await plan('SELECT table_schema, count(*) FROM information_schema.tables GROUP BY table_schema')).not.to.match(/PARTIAL/);
    expect(await plan('SELECT count(*) FROM (SELECT k FROM t UNION ALL SELECT k FROM t)')).not.to.match(/PARTIAL/);
    expect(await plan('SELECT k, count(*) FROM t GROUP BY k', IN_MAIN_THREAD)).not.to.match(/PARTIAL/);
  });
});
