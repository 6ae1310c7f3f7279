// The shape of a scan pipeline, the part of a plan that runs next to a table scan, split by split.

import type { PlanNode, TableScanNode } from './plan.js';

/**
 * The table scan under a subtree that has the shape of a scan pipeline — an optional
 * Aggregate(partial) without DISTINCT, over Filters, Projects and joins probed in parallel (through
 * their probe side), over a TableScan — or undefined.
 */
export function fragmentScan(node: PlanNode): TableScanNode | undefined {
  let current = node;
  if (current.kind === 'Aggregate') {
    if (current.step !== 'partial' || current.aggregations.some((a) => a.distinct)) return undefined;
    current = current.source;
  }
  return probeChainScan(current);
}

/** The table scan under Filters, Projects and the probe sides of joins probed in parallel, or undefined. */
export function probeChainScan(node: PlanNode): TableScanNode | undefined {
  let current = node;
  for (;;) {
    if (current.kind === 'Filter' || current.kind === 'Project') current = current.source;
    else if (current.kind === 'Join' && current.parallelProbe === true) current = current.left;
    else return current.kind === 'TableScan' ? current : undefined;
  }
}
