// Join ordering. A region of inner joins is flattened into its inputs and conditions, then rebuilt
// greedily: start from the largest input (it streams as the probe side) and repeatedly join the
// smallest input connected to what is joined so far by an equality (it becomes the build side).
// A cross join happens only when no remaining input is connected. Outer joins put the smaller
// side on the build side by flipping LEFT and RIGHT.

import type { PlannerContext } from '../../analyzer/planner-context.js';
import { splitEquiConjuncts } from '../../analyzer/relation-planner.js';
import type { JoinNode, PlanNode } from '../plan.js';
import { combineConjuncts, extractConjuncts } from '../plan-factory.js';
import { referencedSymbols, symbolRef, type RowExpression } from '../row-expression.js';
import { BOOLEAN } from '../../../types/types.js';
import { estimateRows } from './estimate-rows.js';
import { mapSources } from './rewrite-plan.js';

export function reorderJoins(root: PlanNode, context: PlannerContext): PlanNode {
  const visit = (node: PlanNode): PlanNode => {
    if (node.kind === 'Join' && node.type === 'inner') return rebuildRegion(node, context, visit);
    const rewritten = mapSources(node, visit);
    if (rewritten.kind === 'Join' && (rewritten.type === 'left' || rewritten.type === 'right')) return flipOuterJoin(rewritten, context);
    return rewritten;
  };
  return visit(root);
}

function rebuildRegion(region: JoinNode, context: PlannerContext, visit: (n: PlanNode) => PlanNode): PlanNode {
  const factory = context.factory;
  const inputs: PlanNode[] = [];
  const conditions: RowExpression[] = [];
  const flatten = (node: PlanNode) => {
    if (node.kind === 'Join' && node.type === 'inner') {
      flatten(node.left);
      flatten(node.right);
      for (const c of node.criteria) conditions.push({ kind: 'call', name: 'equal', args: [symbolRef(c.left), symbolRef(c.right)], type: BOOLEAN });
      conditions.push(...extractConjuncts(node.filter));
    } else {
      inputs.push(visit(node));
    }
  };
  flatten(region);

  const sizes = new Map(inputs.map((n) => [n, estimateRows(n, context)]));
  const remaining = [...inputs].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
  let current = remaining.shift()!;
  let pending = [...conditions];
  const covered = (e: RowExpression, ids: Set<number>) => [...referencedSymbols(e).keys()].every((id) => ids.has(id));

  while (remaining.length > 0) {
    const currentIds = new Set(current.outputs.map((s) => s.id));
    const connects = (candidate: PlanNode) => {
      const candidateIds = new Set(candidate.outputs.map((s) => s.id));
      return pending.some((c) => {
        const refs = [...referencedSymbols(c).keys()];
        return refs.some((id) => currentIds.has(id)) && refs.some((id) => candidateIds.has(id)) && refs.every((id) => currentIds.has(id) || candidateIds.has(id));
      });
    };
    const connected = remaining.filter(connects);
    const pool = connected.length > 0 ? connected : remaining;
    const next = pool.reduce((best, n) => (sizes.get(n)! < sizes.get(best)! ? n : best));
    remaining.splice(remaining.indexOf(next), 1);

    const ids = new Set([...current.outputs, ...next.outputs].map((s) => s.id));
    const applicable = pending.filter((c) => covered(c, ids));
    pending = pending.filter((c) => !covered(c, ids));
    const split = splitEquiConjuncts(applicable, current.outputs, next.outputs, (n, t) => factory.newSymbol(n, t));
    const left = factory.projectExtending(current, split.leftAssignments);
    const right = factory.projectExtending(next, split.rightAssignments);
    current = factory.join('inner', left, right, split.criteria, combineConjuncts(split.residual));
  }
  // Conditions over symbols produced outside the region (correlation) stay as a filter on top.
  const rest = combineConjuncts(pending);
  if (rest) current = factory.filter(current, rest);
  return factory.restrict(current, region.outputs);
}

function flipOuterJoin(join: JoinNode, context: PlannerContext): PlanNode {
  const probe = estimateRows(join.left, context);
  const build = estimateRows(join.right, context);
  if (build <= probe * 2) return join;
  const factory = context.factory;
  const flipped = factory.join(
    join.type === 'left' ? 'right' : 'left',
    join.right,
    join.left,
    join.criteria.map((c) => ({ left: c.right, right: c.left })),
    join.filter,
  );
  return factory.restrict(flipped, join.outputs);
}
