// Join ordering. A region of inner joins is flattened into its inputs and conditions, then rebuilt
// left-deep in the written order, stepping over inputs that would make a cross join while a
// connected one remains, and pulling forward small filtered inputs connected to what is joined so
// far; each join hashes its smaller side. Outer joins put the smaller side on
// the build side by flipping LEFT and RIGHT.

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

  // Without column statistics a join's output size is unknown, so keep the written order (TPC-H
  // and most hand-written queries list tables in a sensible order) and only step over an input
  // that would make a cross join, as Trino's ELIMINATE_CROSS_JOINS does. Each join then hashes
  // the smaller side.
  const remaining = [...inputs];
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
    const next = remaining.find((c) => connects(c) && isSelectiveDimension(c, context)) ?? remaining.find(connects) ?? remaining[0];
    remaining.splice(remaining.indexOf(next), 1);

    const ids = new Set([...current.outputs, ...next.outputs].map((s) => s.id));
    const applicable = pending.filter((c) => covered(c, ids));
    pending = pending.filter((c) => !covered(c, ids));
    const [probe, build] = estimateRows(next, context) > estimateRows(current, context) ? [next, current] : [current, next];
    const split = splitEquiConjuncts(applicable, probe.outputs, build.outputs, (n, t) => factory.newSymbol(n, t));
    const left = factory.projectExtending(probe, split.leftAssignments);
    const right = factory.projectExtending(build, split.rightAssignments);
    current = factory.join('inner', left, right, split.criteria, combineConjuncts(split.residual));
  }
  // Conditions over symbols produced outside the region (correlation) stay as a filter on top.
  const rest = combineConjuncts(pending);
  if (rest) current = factory.filter(current, rest);
  return factory.restrict(current, region.outputs);
}

/** Rows below which a filtered input joins early: it can only shrink what it joins with by its key. */
const SMALL_FILTERED_ROWS = 1000;

/** A small input narrowed by a filter (a nation or region picked by name): joining it first keeps intermediate results small. */
function isSelectiveDimension(node: PlanNode, context: PlannerContext): boolean {
  let cursor = node;
  while (cursor.kind === 'Project') cursor = cursor.source;
  return cursor.kind === 'Filter' && estimateRows(node, context) <= SMALL_FILTERED_ROWS;
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
