// The as-of join of NEAREST: the build side is hashed on the equality keys as for any join; each
// probe row walks the build rows of its key, keeps those passing the filter (which holds the MATCH
// comparison), and outputs the one with the largest or smallest nearest key, or, for a LEFT join,
// NULLs when none passes. Among candidates with equal keys the first in build order is kept (Trino
// keeps an arbitrary one).

import type { JoinNode } from '../../sql/planner/plan.js';
import { buildSide, firstCandidates } from './join-build-side.js';
import { joinFilterOf, joinOutputTypes, type HashJoinSpec } from './hash-join.js';
import { outputPage, PairBatches } from './join-pairs.js';
import { TARGET_PAGE_ROWS, type OperatorContext, type PageStream } from './operator.js';
import { MemoryReservation, PageCompactor, throwIfCanceled } from './operator-support.js';
import { prepareColumn, valueCompareFor } from './value-ordering.js';

export interface NearestJoinSpec extends HashJoinSpec {
  type: 'inner' | 'left';
  /** The build channel of the key whose nearest value wins. */
  nearestKey: number;
  pick: 'largest' | 'smallest';
}

/** The spec of a NEAREST join node, given its hash join spec. */
export function nearestJoinSpec(node: JoinNode, spec: HashJoinSpec): NearestJoinSpec {
  const nearest = node.nearest!;
  if (spec.type !== 'inner' && spec.type !== 'left') throw new Error(`A NEAREST join is inner or left, not ${spec.type}`);
  return { ...spec, type: spec.type, nearestKey: node.right.outputs.findIndex((s) => s.id === nearest.key.id), pick: nearest.pick };
}

export async function* nearestJoin(ctx: OperatorContext, probe: PageStream, build: PageStream, spec: NearestJoinSpec): PageStream {
  const reservation = new MemoryReservation(ctx.memory);
  try {
    const side = await buildSide(ctx, build, spec, reservation);
    const filter = joinFilterOf(spec);
    const keyColumn = side.page.columns[spec.nearestKey];
    const keys = prepareColumn(keyColumn);
    const keyNulls = keyColumn.nulls;
    const compare = valueCompareFor(keyColumn.type);
    const sign = spec.pick === 'largest' ? 1 : -1;
    const compactor = new PageCompactor(joinOutputTypes(spec));
    const pairs = new PairBatches();
    for await (const page of probe) {
      throwIfCanceled(ctx);
      const n = page.rowCount;
      if (n === 0) continue;
      const best = new Int32Array(n).fill(-1);
      const first = firstCandidates(page, side, spec);
      const cursor = pairs.start(first);
      for (;;) {
        const found = pairs.fill(first, side.next, cursor);
        if (found === 0) break;
        const kept = filter === null ? found : pairs.keepPassing(found, (count) => filter.apply(page, side.page, pairs.streamedRows, pairs.hashedRows, count));
        for (let i = 0; i < kept; i++) {
          const candidate = pairs.hashedRows[i];
          if (keyNulls !== null && keyNulls[candidate] === 1) continue;
          const row = pairs.streamedRows[i];
          const current = best[row];
          if (current === -1 || sign * compare(keys, candidate, keys, current) > 0) best[row] = candidate;
        }
        if (found < TARGET_PAGE_ROWS) break;
        throwIfCanceled(ctx);
      }
      const probeRows = new Int32Array(n);
      const buildRows = new Int32Array(n);
      let count = 0;
      for (let row = 0; row < n; row++) {
        if (best[row] === -1 && spec.type === 'inner') continue;
        probeRows[count] = row;
        buildRows[count] = best[row];
        count++;
      }
      if (count > 0) for (const ready of compactor.add(outputPage(page, side.page, probeRows, buildRows, count, spec))) yield ready;
    }
    yield* compactor.finish();
  } finally {
    reservation.release();
  }
}
