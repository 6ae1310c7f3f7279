// The plan shape of a mark join that can hash its small probe side and stream its build side, a
// scan, past it (ParallelMarkJoin): shared by the physical planner, which plans it, and by
// AddExchanges, which on a single node keeps such a build side in its probe side's task.

import type { JoinNode, PlanNode, TableScanNode } from '../plan.js';

/**
 * Whether a join is a mark join that can hash its probe side and stream its build side past it
 * (exec/operators/mark-join-probe-first: EXISTS-style marks, or IN marks on one key without a
 * filter), and is not probed in a scan's threads already.
 */
export function probeFirstShape(node: JoinNode): boolean {
  if (node.type !== 'mark' || node.criteria.length === 0 || node.nearest !== undefined || node.parallelProbe === true) return false;
  return node.mark?.nullAware !== true || (node.filter === undefined && node.criteria.length === 1);
}

/** The table scan under a chain of Filters and Projects, or undefined. */
export function filterProjectScan(node: PlanNode): TableScanNode | undefined {
  let current = node;
  while (current.kind === 'Filter' || current.kind === 'Project') current = current.source;
  return current.kind === 'TableScan' ? current : undefined;
}
