// The shape of a source fragment, the part of a plan that runs next to a table scan, split by split.

import type { PlanNode, TableScanNode } from './plan.js';

/**
 * The table scan under a subtree that has the shape of a source fragment — an optional
 * Aggregate(partial) without DISTINCT, over Filters and Projects, over a TableScan — or undefined.
 */
export function fragmentScan(node: PlanNode): TableScanNode | undefined {
  let current = node;
  if (current.kind === 'Aggregate') {
    if (current.step !== 'partial' || current.aggregations.some((a) => a.distinct)) return undefined;
    current = current.source;
  }
  while (current.kind === 'Filter' || current.kind === 'Project') current = current.source;
  return current.kind === 'TableScan' ? current : undefined;
}
