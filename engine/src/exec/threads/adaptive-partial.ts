// A partial aggregation that checks it pays. It first aggregates a probe of its input: when that
// leaves nearly as many groups as rows (keys close to unique), moving and merging the partial
// states would cost more than aggregating the rows once, so it stops with
// PartialAggregationDoesNotPay (even when the probe was its whole input: the main thread is waiting
// anyway), and the main thread starts the aggregation over in one step: on the threads, each on a
// partition of the groups (parallel-source), or itself. Otherwise it emits the probe's groups and
// aggregates the rest; a group may thus come out twice, and the final step merges it like any other
// partial result.

import { hashAggregation, type HashAggregationSpec } from '../operators/hash-aggregation.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import type { Page } from '../../columnar/page.js';
import { PARTIAL_MAX_GROUPS_PER_ROW, PARTIAL_PROBE_ROWS } from '../../sql/planner/physical/adaptive-thresholds.js';

/** Input rows the probe aggregates (about one split). */
export const PROBE_ROWS = PARTIAL_PROBE_ROWS;
/** Groups per input row above which a partial aggregation does not pay (measured on two cores). */
export const MAX_GROUPS_PER_ROW = PARTIAL_MAX_GROUPS_PER_ROW;
/** Fewer probe rows say nothing either way (and cost nothing either way). */
const MIN_PROBE_ROWS = 1024;

/** Ends a worker's task without output: the main thread takes the work back. */
export class PartialAggregationDoesNotPay extends Error {
  constructor() {
    super('Partial aggregation does not reduce its input enough to pay');
  }
}

export async function* adaptivePartialAggregation(ctx: OperatorContext, input: PageStream, spec: HashAggregationSpec): PageStream {
  const iterator = input[Symbol.asyncIterator]();
  let probeRows = 0;
  let exhausted = false;
  const probe = async function* (): PageStream {
    while (probeRows < PROBE_ROWS) {
      const next = await iterator.next();
      if (next.done) {
        exhausted = true;
        return;
      }
      probeRows += next.value.rowCount;
      yield next.value;
    }
  };
  try {
    const probed: Page[] = [];
    let groups = 0;
    for await (const page of hashAggregation(ctx, probe(), spec)) {
      probed.push(page);
      groups += page.rowCount;
    }
    if (probeRows >= MIN_PROBE_ROWS && groups > MAX_GROUPS_PER_ROW * probeRows) throw new PartialAggregationDoesNotPay();
    yield* probed;
    if (!exhausted) yield* hashAggregation(ctx, remainingPages(iterator), spec);
  } finally {
    await iterator.return?.();
  }
}

/** The pages the iterator has not given yet. */
export async function* remainingPages(iterator: AsyncIterator<Page>): PageStream {
  for (;;) {
    const next = await iterator.next();
    if (next.done) return;
    yield next.value;
  }
}
