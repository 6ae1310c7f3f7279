// A probe-replicated mark join (probe-replicated-mark-join.ts) whose combined mark a Filter keeps only
// the TRUE rows of (EXISTS, IN in a WHERE: TPC-H q4, q21's EXISTS) needs from each task only the probe
// rows that task marked TRUE: a row no task marked TRUE is dropped by the Filter anyway, and one that
// some task marked TRUE combines to TRUE from those rows alone. Each task then sends the rows it
// matched to be combined rather than every probe row (q4: about 52 thousand rows, not 2 x 57 thousand),
// and the combining aggregation groups fewer.

import { sources, type PlanNode } from '../plan.js';
import type { PlannerContext } from '../planner-context.js';
import { symbolRef } from '../row-expression.js';
import { rewriteBottomUp } from '../optimizer/rewrite-plan.js';
import { probeReplicatedJoinsKeptTrue } from './probe-replicated-mark-join.js';

export function keepTrueProbeReplicatedMarks(root: PlanNode, context: PlannerContext): PlanNode {
  const joins = new Set<number>();
  const visit = (node: PlanNode): void => {
    if (node.kind === 'Filter') for (const join of probeReplicatedJoinsKeptTrue(node)) joins.add(join.id);
    sources(node).forEach(visit);
  };
  visit(root);
  if (joins.size === 0) return root;
  // The task's Project coding its mark, over the join: the join's rows filtered to its TRUE marks first.
  return rewriteBottomUp(root, (node) =>
    node.kind === 'Project' && node.source.kind === 'Join' && joins.has(node.source.id)
      ? { ...node, source: context.factory.filter(node.source, symbolRef(node.source.mark!.symbol)) }
      : node,
  );
}
