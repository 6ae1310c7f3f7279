// The physical plan EXPLAIN prints is the one that runs: a grouped aggregation over a memory table
// of several splits is a ParallelScan whose threads run the filter and the partial aggregation,
// and EXPLAIN ANALYZE names what its adaptive decisions chose — the threads when the table has
// enough splits, the main thread (one SINGLE aggregation step) when it has too few — with the same
// answer either way. A final/partial pair over a source that cannot go to threads prints as the
// one step it runs as.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, createBigTable, rowsWith, sortedRows } from '../parallel/parallel-helpers.js';

describe('physical plan: what EXPLAIN prints is what runs', () => {
  let h: EngineHarness;
  const explain = async (sql: string, properties: Record<string, string> = {}) => (await rowsWith(h, `EXPLAIN ${sql}`, properties))[0][0] as string;
  const GROUPED = 'SELECT n, count(*), sum(price) FROM big WHERE id % 3 = 0 GROUP BY n';
  /** Expected: ids 0..BIG_ROWS-1 with id % 3 = 0, n = IF(e.x = 3, NULL, a.x) where a.x = id / 10000 % 10 and e.x = id % 10. */
  const expectedCounts = () => {
    const counts = new Map<number | null, bigint>();
    for (let id = 0; id < BIG_ROWS; id++) {
      if (id % 3 !== 0) continue;
      const n = id % 10 === 3 ? null : Math.floor(id / 10000) % 10;
      counts.set(n, (counts.get(n) ?? 0n) + 1n);
    }
    return counts;
  };

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
  });

  it('prints a grouped aggregation over a table as a ParallelScan with its threads, decisions and the stages its threads run', async () => {
    const text = await explain(GROUPED);
    expect(text).to.match(/└─ ParallelScan\[threads = \d+, splits = listed\]\n\s+Layout: [^\n]*\n\s+Adaptive threads: the threads when the table has at least 2 splits/);
    expect(text).to.match(/Adaptive partial aggregation: kept when the groups of its first 65536 rows are at most 20% of them/);
    expect(text).to.match(/└─ Aggregate\(FINAL\)[^\n]*\n\s+Layout: [^\n]*\n\s+Runs: main thread, merging the threads' partial states/);
    expect(text).to.match(/└─ Aggregate\(PARTIAL\)[^\n]*\n\s+Layout: [^\n]*\n\s+Runs: threads/);
    expect(text).to.match(/└─ TableScan\[table = memory:default\.big[^\n]*\n\s+Layout: [^\n]*\n\s+Runs: threads/);
  });

  it('prints the pair as one SINGLE step when the table is scanned in the main thread (a connector without worker reads)', async () => {
    const text = await explain('SELECT table_schema, count(*) FROM information_schema.tables GROUP BY table_schema');
    expect(text).not.to.match(/ParallelScan|PARTIAL/);
  });

  it('EXPLAIN ANALYZE names the threads it chose for a table of enough splits', async () => {
    const text = (await rowsWith(h, `EXPLAIN ANALYZE ${GROUPED}`, {}))[0][0] as string;
    expect(text).to.match(/Adaptive threads: [^\n]*; chosen: \d+ threads \(\d+ splits\)/);
    expect(text).to.match(/Adaptive partial aggregation: [^\n]*; chosen: kept in the threads/);
    expect(text).to.match(/ParallelScan[^\n]*\n\s+Layout: [^\n]*\n\s+Output: \d+ rows[^\n]*parallelSource/);
  });

  it('EXPLAIN ANALYZE names the main thread when the table has fewer splits than parallel_min_splits, with the same answer', async () => {
    const few = { parallel_min_splits: '1000' };
    const text = (await rowsWith(h, `EXPLAIN ANALYZE ${GROUPED}`, few))[0][0] as string;
    expect(text).to.match(/Adaptive threads: the threads when the table has at least 1000 splits[^\n]*; chosen: main thread \(\d+ splits\)/);
    expect(text).to.match(/ParallelScan[^\n]*\n\s+Layout: [^\n]*\n\s+Output: \d+ rows[^\n]*hashAggregation/);
    const counts = expectedCounts();
    for (const properties of [few, {}]) {
      const rows = sortedRows(await rowsWith(h, 'SELECT n, count(*) FROM big WHERE id % 3 = 0 GROUP BY n', properties));
      expect(new Map(rows.map((r) => [r[0] as number | null, r[1] as bigint]))).to.deep.equal(counts);
    }
  });

  it('EXPLAIN (TYPE LOGICAL) still prints the logical plan', async () => {
    const text = await explain(`(TYPE LOGICAL) ${GROUPED}`);
    expect(text).to.match(/Aggregate\(FINAL\)/).and.not.match(/ParallelScan|Runs:/);
  });
});
