// The physical plan EXPLAIN prints is the one that runs: a grouped aggregation over a memory table
// of several splits is a ParallelScan whose threads run the filter and the partial aggregation,
// and EXPLAIN ANALYZE names what its adaptive decisions chose — the threads when the table has
// enough splits, the main thread (one SINGLE aggregation step) when it has too few — with the same
// answer either way; its final step runs partitioned across the threads (a HASH local exchange on
// its keys), or in the main thread with partitioned_aggregation off. A partial aggregation that
// keeps too many groups is given up for the whole aggregation in one step partitioned across the
// threads (with the property off: in the main thread), and the next run goes there at once. A
// scan that cannot go to threads stays in the main thread.

import { expect } from 'chai';
import { EngineHarness } from '../support/engine-harness.js';
import { BIG_ROWS, createBigTable, rowsWith, sortedRows } from '../parallel/parallel-helpers.js';

describe('physical plan: what EXPLAIN prints is what runs', () => {
  let h: EngineHarness;
  const explain = async (sql: string, properties: Record<string, string> = {}) =>
    (await rowsWith(h, `EXPLAIN ${sql}`, properties))[0][0] as string;
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
    expect(text).to.match(
      /└─ ParallelScan\[threads = \d+, splits = listed\]\n\s+Layout: [^\n]*\n\s+Adaptive threads: the threads when the table has at least 2 splits/,
    );
    expect(text).to.match(/Adaptive partial aggregation: kept when the groups of its first 65536 rows are at most 20% of them/);
    expect(text).to.match(/└─ Aggregate\(FINAL\)[^\n]*\n\s+Layout: [^\n]*\n\s+Runs: partitioned across the threads \(by key hash\)/);
    expect(text).to.match(
      /Adaptive final step: partitioned across the threads when at least 2 run \(partitioned_aggregation\), else the main thread/,
    );
    const off = await explain(GROUPED, { partitioned_aggregation: 'false' });
    expect(off).to.match(/└─ Aggregate\(FINAL\)[^\n]*\n\s+Layout: [^\n]*\n\s+Runs: main thread, merging the threads' partial states/);
    expect(off).not.to.match(/Adaptive final step/);
    expect(text).to.match(/└─ Aggregate\(PARTIAL\)[^\n]*\n\s+Layout: [^\n]*\n\s+Runs: threads/);
    expect(text).to.match(/└─ TableScan\[table = memory:default\.big[^\n]*\n\s+Layout: [^\n]*\n\s+Runs: threads/);
  });

  it("prints the parallel scan's local exchanges as nodes: splits round-robin to the threads, groups hashed between them, final rows gathered", async () => {
    const text = await explain(GROUPED);
    // Two threads (task_concurrency 2 by default) finish the aggregation themselves, each on a partition of the groups.
    expect(text).to.match(
      /└─ LocalExchange\[GATHER\] \(the threads to the main thread\)\n\s+└─ Aggregate\(FINAL\)[^\n]*\n(\s+[A-Z][^\n]*\n)+\s+└─ LocalExchange\[HASH, keys = \[n_\d+\]\] \(between the threads\)\n\s+└─ Aggregate\(PARTIAL\)/,
    );
    expect(text).to.match(/└─ LocalExchange\[ROUND_ROBIN\] \(splits to the threads\)\n\s+└─ TableScan\[table = memory:default\.big/);
    // Switched off, the main thread merges the partial states: no exchange between the threads.
    const off = await explain(GROUPED, { partitioned_aggregation: 'false' });
    expect(off).to.match(
      /└─ Aggregate\(FINAL\)[^\n]*\n(\s+[A-Z][^\n]*\n)+\s+└─ LocalExchange\[GATHER\] \(the threads to the main thread\)\n\s+└─ Aggregate\(PARTIAL\)/,
    );
    expect(off).not.to.match(/LocalExchange\[HASH/);
  });

  it('leaves a scan its connector cannot read on worker threads, and the aggregation over it, in the main thread as one SINGLE step', async () => {
    const text = await explain('SELECT table_schema, count(*) FROM information_schema.tables GROUP BY table_schema');
    expect(text)
      .to.match(/Aggregate\(SINGLE\)/)
      .and.not.match(/ParallelScan|PARTIAL|Runs:/);
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
    expect(text).to.match(
      /Adaptive threads: the threads when the table has at least 1000 splits[^\n]*; chosen: main thread \(\d+ splits\)/,
    );
    expect(text).to.match(/ParallelScan[^\n]*\n\s+Layout: [^\n]*\n\s+Output: \d+ rows[^\n]*hashAggregation/);
    const counts = expectedCounts();
    for (const properties of [few, {}]) {
      const rows = sortedRows(await rowsWith(h, 'SELECT n, count(*) FROM big WHERE id % 3 = 0 GROUP BY n', properties));
      expect(new Map(rows.map((r) => [r[0] as number | null, r[1] as bigint]))).to.deep.equal(counts);
    }
  });

  it('EXPLAIN ANALYZE names a partial aggregation given back to the main thread, and the next run choosing the main thread at once', async () => {
    // Nearly unique keys: the partial step keeps about as many groups as rows (this shape is remembered, so it is used here only).
    const unique = 'SELECT id, count(*) FROM big WHERE id % 7 <> 6 GROUP BY id';
    const off = { partitioned_aggregation: 'false' };
    const first = (await rowsWith(h, `EXPLAIN ANALYZE ${unique}`, off))[0][0] as string;
    expect(first).to.match(/Adaptive threads: [^\n]*; chosen: \d+ threads \(\d+ splits\)/);
    expect(first).to.match(
      /Adaptive partial aggregation: [^\n]*; chosen: keeps too many groups: the whole aggregation in one step in the main thread/,
    );
    const second = (await rowsWith(h, `EXPLAIN ANALYZE ${unique}`, off))[0][0] as string;
    expect(second).to.match(/Adaptive threads: [^\n]*; chosen: main thread \(\d+ splits; partial aggregation found not to reduce\)/);
    const rows = await rowsWith(h, `SELECT count(*), count(DISTINCT c) FROM (${unique}) t(id, c)`, off);
    expect(rows).to.deep.equal([[BigInt(BIG_ROWS - Math.floor((BIG_ROWS + 1) / 7)), 1n]]);
  });

  it('EXPLAIN ANALYZE names a partial aggregation given up for one step partitioned across the threads, and the next run going there at once', async () => {
    const unique = 'SELECT id, count(*) FROM big WHERE id % 11 <> 6 GROUP BY id';
    const first = (await rowsWith(h, `EXPLAIN ANALYZE ${unique}`, {}))[0][0] as string;
    expect(first).to.match(/Adaptive threads: [^\n]*; chosen: \d+ threads \(\d+ splits\)/);
    expect(first).to.match(
      /Adaptive partial aggregation: [^\n]*; chosen: keeps too many groups: the whole aggregation in one step on the threads, partitioned by key hash/,
    );
    const second = (await rowsWith(h, `EXPLAIN ANALYZE ${unique}`, {}))[0][0] as string;
    expect(second).to.match(
      /Adaptive threads: [^\n]*; chosen: \d+ threads \(\d+ splits; partial aggregation found not to reduce: the whole aggregation in one step, partitioned by key hash\)/,
    );
    const rows = await rowsWith(h, `SELECT count(*), count(DISTINCT c) FROM (${unique}) t(id, c)`, {});
    expect(rows).to.deep.equal([[BigInt(BIG_ROWS - Math.floor((BIG_ROWS + 4) / 11)), 1n]]);
  });

  it('EXPLAIN (TYPE LOGICAL) still prints the logical plan', async () => {
    const text = await explain(`(TYPE LOGICAL) ${GROUPED}`);
    expect(text)
      .to.match(/Aggregate\(FINAL\)/)
      .and.not.match(/ParallelScan|Runs:/);
  });
});
