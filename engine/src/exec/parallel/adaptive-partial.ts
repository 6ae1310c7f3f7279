// A partial aggregation that checks it pays. It first aggregates a probe of its input: when that
// leaves nearly as many groups as rows (keys close to unique), merging the partial states in the
// main thread would cost more than the workers save, so it stops and reports it (the main thread
// then runs the aggregation itself). Otherwise it emits the probe's groups and aggregates the rest.
// A group may thus come out twice; the final step merges it like any other partial result.

import { hashAggregation, type HashAggregationSpec } from '../operators/hash-aggregation.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import type { Page } from '../page.js';

/** Input rows the probe aggregates (about one split). */
export const PROBE_ROWS = 65536;
/** Groups per input row above which a partial aggregation does not pay (measured on two cores). */
export const MAX_GROUPS_PER_ROW = 0.2;

export async function* adaptivePartialAggregation(ctx: OperatorContext, input: PageStream, spec: HashAggregationSpec, onPoorReduction: () => void): PageStream {
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
    if (!exhausted && groups > MAX_GROUPS_PER_ROW * probeRows) {
      onPoorReduction();
      return;
    }
    yield* probed;
    if (!exhausted) yield* hashAggregation(ctx, rest(iterator), spec);
  } finally {
    await iterator.return?.();
  }
}

async function* rest(iterator: AsyncIterator<Page>): PageStream {
  for (;;) {
    const next = await iterator.next();
    if (next.done) return;
    yield next.value;
  }
}
