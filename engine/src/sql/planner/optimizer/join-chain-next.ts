// Which input a region's left-deep chain of joins takes next (see reorder-joins.ts). The written order
// is kept unless it reaches the region's biggest input while another input keyed to the chain gives it
// clearly fewer rows: TPC-H q09 writes
// part, supplier, lineitem, partsupp, and from the filtered parts the written order reaches lineitem
// (≈30 rows per part) before partsupp (4 per part), so that lineitem's 319k rows at sf1 became the build
// side of the partsupp join and of the orders join. Joined first, part ⋈ partsupp (43k) is the build
// side lineitem probes, and one big build side (one big broadcast on a cluster) is gone.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { PlannerContext } from '../planner-context.js';
import type { EquiJoinClause, JoinNode, PlanNode } from '../plan.js';
import type { Symbol } from '../row-expression.js';
import { estimateRows } from './estimate-rows.js';

/** The session property that switches the choice off (the first connected input written joins next, as before). */
export const JOIN_CHAIN_FEWER_ROWS_NEXT_PROPERTY: PropertyMetadata = {
  name: 'join_chain_fewer_rows_next',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    'Whether a chain of inner joins, where the first connected input written is the biggest input, takes first another input keyed to the chain whose join is estimated to give at most half as many rows',
};

/** Estimates are rough: only a join of at most this share of the written choice's rows is worth leaving the written order for. */
const FEWER_ROWS_SHARE = 0.5;

/**
 * Of the connected `candidates` (in written order), the first, unless it is the region's `biggest`
 * input (reached early, its rows end up in build sides): then, of those the `equalities` key to
 * `chain`, the one whose join is estimated at most half the biggest input's join's rows and at most
 * its own rows, the fewest.
 */
export function fewerRowsNext(
  chain: PlanNode,
  candidates: readonly PlanNode[],
  biggest: PlanNode,
  equalities: readonly [Symbol, Symbol][],
  context: PlannerContext,
): PlanNode | undefined {
  const [written] = candidates;
  if (written !== biggest) return written;
  const rows = (candidate: PlanNode) => {
    const join = trialJoin(chain, candidate, equalities);
    return join.criteria.length === 0 ? Number.POSITIVE_INFINITY : estimateRows(join, context);
  };
  let best = written;
  let bestRows = rows(written) * FEWER_ROWS_SHARE;
  for (const candidate of candidates.slice(1)) {
    const candidateRows = rows(candidate);
    // No more rows than the candidate has: the chain holds its key (q09's parts for partsupp), no
    // many-to-many join (q05's customers and suppliers of a nation).
    if (candidateRows < bestRows && candidateRows <= estimateRows(candidate, context)) {
      best = candidate;
      bestRows = candidateRows;
    }
  }
  return best;
}

/** `chain` ⋈ `next` on the equalities between them, only to be estimated: never in a plan, so it takes no node id. */
function trialJoin(chain: PlanNode, next: PlanNode, equalities: readonly [Symbol, Symbol][]): JoinNode {
  const inChain = new Set(chain.outputs.map((s) => s.id));
  const inNext = new Set(next.outputs.map((s) => s.id));
  const criteria: EquiJoinClause[] = [];
  for (const [a, b] of equalities) {
    if (inChain.has(a.id) && inNext.has(b.id)) criteria.push({ left: a, right: b });
    else if (inChain.has(b.id) && inNext.has(a.id)) criteria.push({ left: b, right: a });
  }
  return { kind: 'Join', id: -1, outputs: [...chain.outputs, ...next.outputs], type: 'inner', left: chain, right: next, criteria };
}
