// Predicate pushdown: conjuncts move down to the lowest node that can evaluate them — through
// projections (inlined), into both sides of inner joins, below aggregations on grouping keys —
// and conjuncts that compare one side of a join with the other become hash-join keys, so a comma
// join with an equality never runs as a cross join.

import type { PlannerContext } from '../planner-context.js';
import { splitEquiConjuncts } from '../join-predicates.js';
import type { JoinNode, PlanNode } from '../plan.js';
import { combineConjuncts, extractConjuncts } from '../plan-factory.js';
import { isDeterministic } from '../deterministic-expression.js';
import { referencedSymbols, replaceSymbols, type RowExpression } from '../row-expression.js';
import { extractCommonPredicates } from './extract-common-predicates.js';
import { mapSources } from './rewrite-plan.js';
import { rejectsNulls } from './null-rejecting.js';
import { assertNever } from '../assert-never.js';

export function pushPredicates(root: PlanNode, context: PlannerContext): PlanNode {
  return new PredicatePusher(context).push(root, []);
}

class PredicatePusher {
  constructor(private readonly context: PlannerContext) {}

  private get factory() {
    return this.context.factory;
  }

  push(node: PlanNode, predicates: RowExpression[]): PlanNode {
    switch (node.kind) {
      case 'Filter':
        return this.push(node.source, [...predicates, ...extractCommonPredicates(node.predicate)]);
      case 'Project':
        return this.throughProject(node, predicates);
      case 'Join':
        return this.throughJoin(node, predicates);
      case 'Aggregate': {
        const keys = new Set(node.groupingKeys.map((s) => s.id));
        const [down, up] = partition(predicates, (p) => node.groupingKeys.length > 0 && isDeterministic(p) && refsWithin(p, keys));
        return this.wrap({ ...node, source: this.push(node.source, down) }, up);
      }
      case 'Sort':
        return { ...node, source: this.push(node.source, predicates) };
      case 'Apply': {
        const inputs = new Set(node.input.outputs.map((s) => s.id));
        const [down, up] = partition(predicates, (p) => isDeterministic(p) && refsWithin(p, inputs));
        return this.wrap({ ...node, input: this.push(node.input, down), subquery: this.push(node.subquery, []) }, up);
      }
      case 'TableScan':
      case 'Values':
      case 'RecursiveUnion':
      case 'TopN':
      case 'Limit':
      case 'Window':
      case 'SetOperation':
      case 'EnforceSingleRow':
      case 'GroupId':
      case 'AssignUniqueId':
      case 'MarkDistinct':
      case 'Unnest':
      case 'Exchange':
      case 'RemoteSource':
      case 'TableWriter':
      case 'TableFinish':
        return this.wrap(
          mapSources(node, (s) => this.push(s, [])),
          predicates,
        );
      default:
        return assertNever(node);
    }
  }

  private wrap(node: PlanNode, predicates: RowExpression[]): PlanNode {
    const predicate = combineConjuncts(predicates);
    return predicate ? this.factory.filter(node, predicate) : node;
  }

  private throughProject(node: Extract<PlanNode, { kind: 'Project' }>, predicates: RowExpression[]): PlanNode {
    const byId = new Map(node.assignments.map((a) => [a.symbol.id, a.expression]));
    const [down, up] = partition(
      predicates,
      (p) => isDeterministic(p) && [...referencedSymbols(p).values()].every((s) => byId.has(s.id) && isDeterministic(byId.get(s.id)!)),
    );
    const inlined = down.map((p) => replaceSymbols(p, (s) => byId.get(s.id)));
    return this.wrap({ ...node, source: this.push(node.source, inlined) }, up);
  }

  private throughJoin(node: JoinNode, predicates: RowExpression[]): PlanNode {
    const leftIds = new Set(node.left.outputs.map((s) => s.id));
    const rightIds = new Set(node.right.outputs.map((s) => s.id));
    const onLeft = (p: RowExpression) => isDeterministic(p) && refsWithin(p, leftIds);
    const onRight = (p: RowExpression) => isDeterministic(p) && refsWithin(p, rightIds);

    if (node.type === 'left' && node.nearest === undefined && predicates.some((p) => rejectsNulls(p, rightIds))) {
      return this.throughJoin({ ...node, type: 'inner' }, predicates);
    }
    // A NEAREST join's filter picks among candidates: only its build-only conjuncts may go below (as for LEFT).
    if (node.type === 'inner' && node.nearest === undefined) {
      const all = [...predicates, ...(node.filter ? extractCommonPredicates(node.filter) : [])];
      const [leftOnly, rest1] = partition(all, onLeft);
      const [rightOnly, both] = partition(rest1, onRight);
      const split = splitEquiConjuncts(both, node.left.outputs, node.right.outputs, (n, t) => this.factory.newSymbol(n, t));
      const left = this.factory.projectExtending(this.push(node.left, leftOnly), split.leftAssignments);
      const right = this.factory.projectExtending(this.push(node.right, rightOnly), split.rightAssignments);
      const join = this.factory.join('inner', left, right, [...node.criteria, ...split.criteria], combineConjuncts(split.residual));
      const extended = split.leftAssignments.length + split.rightAssignments.length > 0;
      return extended ? this.factory.restrict(join, node.outputs) : join;
    }
    if (node.type === 'left' || node.type === 'mark' || node.nearest !== undefined) {
      const [down, up] = partition(predicates, onLeft);
      // A condition of the ON clause on the build side alone filters the build side.
      const [buildOnly, keep] = partition(extractConjuncts(node.filter), onRight);
      const join: JoinNode = {
        ...node,
        left: this.push(node.left, down),
        right: this.push(node.right, buildOnly),
        filter: combineConjuncts(keep),
      };
      return this.wrap(join, up);
    }
    if (node.type === 'right') {
      const [down, up] = partition(predicates, onRight);
      const [probeOnly, keep] = partition(extractConjuncts(node.filter), onLeft);
      const join: JoinNode = {
        ...node,
        left: this.push(node.left, probeOnly),
        right: this.push(node.right, down),
        filter: combineConjuncts(keep),
      };
      return this.wrap(join, up);
    }
    return this.wrap({ ...node, left: this.push(node.left, []), right: this.push(node.right, []) }, predicates);
  }
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

function refsWithin(e: RowExpression, ids: Set<number>): boolean {
  for (const id of referencedSymbols(e).keys()) if (!ids.has(id)) return false;
  return true;
}
