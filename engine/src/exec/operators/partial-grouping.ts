// The partial step of a grouping without aggregate calls (SELECT DISTINCT, or the rows of DISTINCT
// aggregate calls made distinct before them). It groups its input's first rows; when those leave
// nearly as many groups as rows (keys close to unique) it stops grouping and passes the key columns
// of the other rows on as they are: a row's key is its whole partial state, the final step merges
// the duplicates anyway, and hashing every row twice would cost more than it saves. Trino's
// adaptive partial aggregation stops in the same way.

import type { Page } from '../../columnar/page.js';
import { MAX_GROUPS_PER_ROW, PROBE_ROWS, remainingPages } from '../threads/adaptive-partial.js';
import { hashAggregation, type HashAggregationSpec } from './hash-aggregation.js';
import type { OperatorContext, PageStream } from './operator.js';
import { throwIfCanceled } from './operator-support.js';

/** Whether the spec is a partial step that only groups (its output is its group channels). */
export function isPartialGrouping(spec: HashAggregationSpec): boolean {
  return spec.step === 'partial' && spec.aggregates.length === 0 && spec.groupChannels.length > 0;
}

export async function* partialGrouping(ctx: OperatorContext, input: PageStream, spec: HashAggregationSpec): PageStream {
  const iterator = input[Symbol.asyncIterator]();
  let probeRows = 0;
  const probe = async function* (): PageStream {
    while (probeRows < PROBE_ROWS) {
      const next = await iterator.next();
      if (next.done) return;
      probeRows += next.value.rowCount;
      yield next.value;
    }
  };
  try {
    let groups = 0;
    for await (const page of hashAggregation(ctx, probe(), { ...spec, step: 'single' })) {
      groups += page.rowCount;
      yield page;
    }
    if (groups <= MAX_GROUPS_PER_ROW * probeRows) {
      yield* hashAggregation(ctx, remainingPages(iterator), { ...spec, step: 'single' });
      return;
    }
    for await (const page of remainingPages(iterator)) {
      throwIfCanceled(ctx);
      yield keysOf(page, spec.groupChannels);
    }
  } finally {
    await iterator.return?.();
  }
}

function keysOf(page: Page, channels: readonly number[]): Page {
  return { rowCount: page.rowCount, columns: channels.map((c) => page.columns[c]) };
}
