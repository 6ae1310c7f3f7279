// When a scan may use a join's dynamic filter: only once the build is complete; a build made again
// (a correlated subquery's next binding) filters nothing until it completes, never with the last
// one's keys; a build made in parts is used once every part is complete, with all their keys.

import { expect } from 'chai';
import { collectingDynamicFilters, DynamicFilters } from '../../src/exec/dynamic-filters/dynamic-filters.js';
import type { PageStream } from '../../src/exec/operators/operator.js';
import type { Page } from '../../src/columnar/page.js';
import { BIGINT } from '../../src/types/types.js';

/** The operator reading the builds: never cancelled. */
const reader = { signal: new AbortController().signal };

const SCAN = [{ id: 'df_1', column: 'k' }];

function keys(...values: bigint[]): Page {
  return { rowCount: values.length, columns: [{ type: BIGINT, length: values.length, values: BigInt64Array.from(values), nulls: null }] };
}

async function* pages(...list: Page[]): PageStream {
  yield* list;
}

async function drain(stream: PageStream): Promise<void> {
  for await (const page of stream) expect(page.rowCount).to.be.above(0);
}

describe('dynamic filters: when a scan gets them', () => {
  it('only once the build input is read to its end, passing every page on', async () => {
    const filters = new DynamicFilters();
    const build = collectingDynamicFilters(pages(keys(4n, 9n), keys(2n)), [{ id: 'df_1', channel: 0 }], filters, reader)[
      Symbol.asyncIterator
    ]();
    expect(filters.constraint(SCAN)).to.equal(undefined);
    const first = await build.next();
    expect(first.done ? 0 : first.value.rowCount).to.equal(2);
    expect(filters.constraint(SCAN)).to.equal(undefined);
    const second = await build.next();
    expect(second.done ? 0 : second.value.rowCount).to.equal(1);
    expect((await build.next()).done).to.equal(true);
    expect(filters.constraint(SCAN)).to.deep.equal([
      { column: 'k', low: { value: 2n, inclusive: true }, high: { value: 9n, inclusive: true }, values: [4n, 9n, 2n] },
    ]);
  });

  it('a build made again filters nothing until it completes, then with its own keys', async () => {
    const filters = new DynamicFilters();
    await drain(collectingDynamicFilters(pages(keys(1n)), [{ id: 'df_1', channel: 0 }], filters, reader));
    const again = collectingDynamicFilters(pages(keys(7n)), [{ id: 'df_1', channel: 0 }], filters, reader);
    expect(filters.constraint(SCAN)).to.equal(undefined);
    await drain(again);
    expect(filters.constraint(SCAN)?.[0].values).to.deep.equal([7n]);
  });

  it('a build in two parts is used once both complete, with the keys of both', async () => {
    const filters = new DynamicFilters();
    const a = collectingDynamicFilters(pages(keys(5n)), [{ id: 'df_1', channel: 0 }], filters, reader);
    const b = collectingDynamicFilters(pages(keys(1n, 3n)), [{ id: 'df_1', channel: 0 }], filters, reader);
    await drain(a);
    expect(filters.constraint(SCAN)).to.equal(undefined);
    await drain(b);
    expect(filters.constraint(SCAN)).to.deep.equal([
      { column: 'k', low: { value: 1n, inclusive: true }, high: { value: 5n, inclusive: true }, values: [5n, 1n, 3n] },
    ]);
  });
});
