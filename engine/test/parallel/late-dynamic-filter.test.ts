// A scan on worker threads whose dynamic filter completes after it started (a remote filter that
// arrives after dynamic_filtering_wait_timeout): the splits handed out from then on are read with
// it, those before without it. The expected rows are the table's own, read split by split in the
// main thread and filtered here, not by the engine's filter code.

import { expect } from 'chai';
import type { Page } from '../../src/columnar/page.js';
import { MemoryContext } from '../../src/exec/memory.js';
import { parallelSource } from '../../src/exec/threads/parallel-source.js';
import { ThreadPool } from '../../src/exec/threads/thread-pool.js';
import { allSplits, type TableConstraint } from '../../src/spi/connector.js';
import { newQueryProgress } from '../../src/spi/query-progress.js';
import type { Scalar } from '../../src/types/scalar.js';
import { EngineHarness } from '../support/engine-harness.js';
import { createBigTable, pageRows, sortedRows } from './parallel-helpers.js';

describe('parallel execution: a dynamic filter that completes while the scan runs', () => {
  let h: EngineHarness;
  let pool: ThreadPool;

  before(async () => {
    h = new EngineHarness();
    await createBigTable(h);
    // One thread: it is handed the splits one after the other, in order.
    pool = new ThreadPool(1);
  });

  after(async () => {
    await pool.shutdown();
  });

  async function rowsOf(pages: AsyncIterable<Page>): Promise<Scalar[][]> {
    const rows: Scalar[][] = [];
    for await (const page of pages) rows.push(...pageRows(page));
    return rows;
  }

  it('prunes the splits handed out after the filter completed, and only those', async () => {
    const table = h.catalogs.get('memory')!;
    const metadata = (await table.getTable(h.session, 'default', 'big'))!;
    const preparer = table.workerSplitSource!(metadata)!;
    const columns = ['id'];
    const splits = (await allSplits(table.getSplits(h.session, metadata))).map((split) => preparer.prepare(split, columns, h.session));
    expect(splits.length).to.be.greaterThan(2);
    const filter: TableConstraint = [{ column: 'id', low: { value: 0, inclusive: true }, high: { value: 999, inclusive: true } }];
    // Asked when the run starts and as the first split goes out: not complete yet; from the second split on, complete.
    let asked = 0;
    const dynamicFilter = () => (asked++ < 2 ? undefined : filter);
    const env = {
      operator: { memory: new MemoryContext('test', 1 << 30), signal: new AbortController().signal, timeZone: 'UTC' },
      session: h.session,
      progress: newQueryProgress(),
    };
    const rows = await rowsOf(parallelSource(env, { fragment: { columns, stages: [] }, splits, workers: 1, dynamicFilter }, pool));

    const [first, ...rest] = await Promise.all(splits.map((split) => rowsOf(split.local())));
    const expected = [...first, ...rest.flat().filter(([id]) => (id as number) <= 999)];
    expect(rows.length).to.be.lessThan(first.length + rest.flat().length);
    expect(sortedRows(rows)).to.deep.equal(sortedRows(expected));
  });
});
