// A semi join that only filters (IN / EXISTS whose mark is kept only where TRUE) moves below the
// inner joins of its probe side, to the side that holds its keys: the mark of a row depends on
// that side's columns alone, so filtering there first gives the same rows, and the joins above see
// the filtered side (TPC-H q18: orders IN (...) filters 1.5M orders to 57 before they meet lineitem,
// instead of marking the 6M rows of lineitem ⋈ orders).

import type { PlannerContext } from '../planner-context.js';
import type { JoinNode, PlanNode } from '../plan.js';
import { combineConjuncts, extractConjuncts } from '../plan-factory.js';
import { BOOLEAN } from '../../../types/types.js';
import { constant, referencedSymbols, type RowExpression } from '../row-expression.js';
import { rewriteBottomUp } from './rewrite-plan.js';

export function pushFilteringSemiJoins(root: PlanNode, context: PlannerContext): PlanNode {
  return rewriteBottomUp(root, (node) => {
    if (node.kind !== 'Filter' || node.source.kind !== 'Join' || node.source.type !== 'mark') return node;
    const semiJoin = node.source;
    const markId = semiJoin.mark!.symbol.id;
    const conjuncts = extractConjuncts(node.predicate);
    const isMark = (p: RowExpression) => p.kind === 'symbol' && p.symbol.id === markId;
    const rest = conjuncts.filter((p) => !isMark(p));
    // Only a mark that nothing but this filter reads, and that the filter requires TRUE.
    if (rest.length === conjuncts.length || rest.some((p) => referencedSymbols(p).has(markId))) return node;
    const moved = pushInto(semiJoin.left, semiJoin, context);
    if (moved === undefined) return node;
    // Every row left has a TRUE mark: nodes above that still list the mark read that constant.
    const withMark = context.factory.projectExtending(context.factory.restrict(moved, semiJoin.left.outputs), [
      { symbol: semiJoin.mark!.symbol, expression: constant(true, BOOLEAN) },
    ]);
    const predicate = combineConjuncts(rest);
    return predicate === undefined ? withMark : context.factory.filter(withMark, predicate);
  });
}

/** `probe` with the semi join and its mark filter applied inside it, or undefined when it cannot be. */
function pushInto(probe: PlanNode, semiJoin: JoinNode, context: PlannerContext): PlanNode | undefined {
  const needed = [...semiJoin.criteria.map((c) => c.left.id), ...(semiJoin.filter ? [...referencedSymbols(semiJoin.filter).keys()] : [])];
  const within = (side: PlanNode) => needed.every((id) => side.outputs.some((s) => s.id === id));
  if (probe.kind === 'Join' && probe.type === 'inner' && probe.nearest === undefined) {
    for (const side of ['left', 'right'] as const) {
      if (!within(probe[side])) continue;
      const inner = pushInto(probe[side], semiJoin, context) ?? filtered(probe[side], semiJoin, context);
      return { ...probe, [side]: inner };
    }
  }
  return undefined;
}

/** The semi join over `probe`, kept where its mark is TRUE, with `probe`'s outputs. */
function filtered(probe: PlanNode, semiJoin: JoinNode, context: PlannerContext): PlanNode {
  const mark = semiJoin.mark!;
  const join = context.factory.join('mark', probe, semiJoin.right, semiJoin.criteria, semiJoin.filter, mark);
  const kept = context.factory.filter(join, { kind: 'symbol', symbol: mark.symbol, type: mark.symbol.type });
  return context.factory.restrict(kept, probe.outputs);
}
