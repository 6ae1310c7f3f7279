// An inner join whose probe side turns out small, and smaller than its build side (probe-head):
// the probe rows, read first, are hashed and the build side streams past them, each build page
// giving its pairs. Hashing the small side skips building a table over a big build side (TPC-H q9:
// 1.5 million orders for a few hundred thousand lineitem rows left after the part and supplier
// joins). The pairs are the same; only their order differs (grouped by build page), which an inner
// join does not promise.

import type { HashJoinSpec } from './hash-join.js';
import type { JoinFilter } from './join-filter.js';
import { outputPage, PairBatches } from './join-pairs.js';
import { TARGET_PAGE_ROWS, type OperatorContext, type PageStream } from './operator.js';
import { throwIfCanceled } from './operator-support.js';
import type { HashedProbe } from './probe-head.js';

export function innerProbeFirstApplies(spec: HashJoinSpec): boolean {
  return spec.type === 'inner' && spec.probeKeys.length > 0;
}

/** The join's output pages, given the whole probe side hashed. */
export async function* innerJoinProbeFirst(ctx: OperatorContext, hashed: HashedProbe, build: PageStream, spec: HashJoinSpec, filter: JoinFilter | null): PageStream {
  const { page: probe, lookup } = hashed;
  const pairs = new PairBatches();
  for await (const page of build) {
    throwIfCanceled(ctx);
    if (page.rowCount === 0) continue;
    const first = new Int32Array(page.rowCount);
    lookup.lookup(
      spec.buildKeys.map((c) => page.columns[c]),
      page.rowCount,
      first,
    );
    const cursor = pairs.start(first);
    for (;;) {
      const found = pairs.fill(first, lookup.next, cursor);
      if (found === 0) break;
      const kept = filter === null ? found : pairs.keepPassing(found, (count) => filter.apply(probe, page, pairs.hashedRows, pairs.streamedRows, count));
      if (kept > 0) yield outputPage(probe, page, pairs.hashedRows, pairs.streamedRows, kept, spec);
      if (found < TARGET_PAGE_ROWS) break;
      throwIfCanceled(ctx);
    }
  }
}
