// Where a region's left-deep chain of inner joins starts (see reorder-joins.ts). Each join of the
// chain hashes its smaller side in the task's main thread, and only the chain's probe side is probed
// by the node's worker threads (parallel-probes.ts): the biggest input pays to be reached last, so
// that it probes what was joined before it and stays on the probe side of the joins after it.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { PlannerContext } from '../planner-context.js';
import type { PlanNode } from '../plan.js';
import type { RowExpression } from '../row-expression.js';
import { estimateRows } from './estimate-rows.js';

/** The session property that switches the choice off (the first small filtered input written starts, as before). */
export const JOIN_CHAIN_FAR_START_PROPERTY: PropertyMetadata = {
  name: 'join_chain_far_start',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    'Whether a chain of inner joins starts from the small filtered input farthest (in key joins) from the biggest input, so that the biggest input is joined last and probed on the worker threads',
};

/**
 * The input the left-deep chain starts from: of the small filtered inputs, the one farthest (in key
 * joins) from the biggest input, the first written among equals; else the first written. The chain then
 * reaches the biggest input last, which probes what was joined before it (a build side) and stays on the
 * probe side of the joins after it: the threads probe its scan. From TPC-H q07's supplier nation,
 * lineitem came before orders and customer, and its scan ended up in the customer join's build side,
 * scanned in the main thread; from the customer nation, customers and their orders are the build side
 * of lineitem's join.
 */
export function farthestSelectiveInput(
  inputs: readonly PlanNode[],
  selective: ReadonlyMap<PlanNode, boolean>,
  hops: ReadonlyMap<PlanNode, number>,
): PlanNode {
  let start: PlanNode | undefined;
  for (const input of inputs) {
    if (selective.get(input) !== true) continue;
    if (start === undefined || (hops.get(input) ?? -1) > (hops.get(start) ?? -1)) start = input;
  }
  return start ?? inputs[0];
}

/** Each input's distance in key joins (equalities between two inputs) from the biggest input; unreachable ones are left out. */
export function joinHops(
  inputs: readonly PlanNode[],
  equalities: readonly RowExpression[],
  refsOf: (e: RowExpression) => number[],
  inputOf: ReadonlyMap<number, PlanNode>,
  context: PlannerContext,
): Map<PlanNode, number> {
  const neighbours = new Map<PlanNode, Set<PlanNode>>(inputs.map((n) => [n, new Set()]));
  for (const e of equalities) {
    const [a, b] = refsOf(e).map((id) => inputOf.get(id));
    if (a === undefined || b === undefined || a === b) continue;
    neighbours.get(a)?.add(b);
    neighbours.get(b)?.add(a);
  }
  const biggest = biggestInput(inputs, context);
  const hops = new Map([[biggest, 0]]);
  const queue = [biggest];
  for (let i = 0; i < queue.length; i++) {
    for (const next of neighbours.get(queue[i]) ?? []) {
      if (hops.has(next)) continue;
      hops.set(next, hops.get(queue[i])! + 1);
      queue.push(next);
    }
  }
  return hops;
}

/** The input of the most estimated rows, the first written among equals. */
export function biggestInput(inputs: readonly PlanNode[], context: PlannerContext): PlanNode {
  return inputs.reduce((big, n) => (estimateRows(n, context) > estimateRows(big, context) ? n : big));
}
