// Checks that a plan is well formed, after the planner and after each optimizer rule (when plan
// validation is on, as in the tests): every symbol a node references is one its sources produce (or
// a correlated subquery's outer symbol), with the type it was produced with; every output is one the
// node produces; expressions have the types of what they are assigned to; exchanges are consistent.
// An error names the step that broke the plan and the node, so a rule's bug is found where it is.

import { EngineError } from '../../../errors/engine-error.js';
import { BOOLEAN, typesEqual, typeName, type SqlType } from '../../../types/types.js';
import type { JoinNode, PlanNode } from '../plan.js';
import { sources } from '../plan.js';
import { nodeReferences } from '../plan-symbols.js';
import { children, type RowExpression, type Symbol, type SymbolReference } from '../row-expression.js';
import { producedSymbols } from './produced-symbols.js';

/** Throws GENERIC_INTERNAL_ERROR naming `after` (the rule or step that made `root`) when it is malformed. */
export function validatePlan(root: PlanNode, after: string): void {
  const problem = firstProblem(root, new Map());
  if (problem !== undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', `Invalid plan after ${after}: ${problem}`);
}

type Symbols = ReadonlyMap<number, Symbol>;

/** `outer`: the symbols of enclosing queries that a correlated subquery may reference. */
function firstProblem(node: PlanNode, outer: Symbols): string | undefined {
  for (const source of sources(node)) {
    const inner = node.kind === 'Apply' && source === node.subquery ? withSymbols(outer, node.correlation) : outer;
    const problem = firstProblem(source, inner);
    if (problem !== undefined) return problem;
  }
  const at = `${node.kind} node ${node.id}`;
  const available = withSymbols(outer, sources(node).flatMap((s) => s.outputs));
  for (const symbol of nodeReferences(node).values()) {
    const problem = symbolProblem(symbol, available);
    if (problem !== undefined) return `${at} references ${problem}`;
  }
  const produced = producedSymbols(node);
  if (produced !== undefined) {
    const missing = node.outputs.find((s) => !produced.has(s.id));
    if (missing !== undefined) return `${at} outputs ${describe(missing)}, which it does not produce`;
  }
  return expressionProblem(node, at) ?? exchangeProblem(node, at);
}

function withSymbols(symbols: Symbols, more: readonly Symbol[]): Symbols {
  return new Map([...symbols, ...more.map((s) => [s.id, s] as const)]);
}

function symbolProblem(symbol: Symbol, available: Symbols): string | undefined {
  const produced = available.get(symbol.id);
  if (produced === undefined) return `${describe(symbol)}, which its sources do not produce`;
  if (!typesEqual(produced.type, symbol.type)) return `${describe(symbol)}, produced as ${typeName(produced.type)}`;
  return undefined;
}

/** Expressions whose type must be their target's, and symbol references inside them. */
function expressionProblem(node: PlanNode, at: string): string | undefined {
  const typed = (e: RowExpression | undefined, type: SqlType, what: string): string | undefined => {
    if (e === undefined) return undefined;
    if (!typesEqual(e.type, type)) return `${at}: ${what} is ${typeName(e.type)}, not ${typeName(type)}`;
    for (const ref of symbolReferences(e)) if (!typesEqual(ref.type, ref.symbol.type)) return `${at}: a reference to ${describe(ref.symbol)} is typed ${typeName(ref.type)}`;
    return undefined;
  };
  switch (node.kind) {
    case 'Filter':
      return typed(node.predicate, BOOLEAN, 'the predicate');
    case 'Project':
      for (const a of node.assignments) {
        const problem = typed(a.expression, a.symbol.type, `the expression of ${describe(a.symbol)}`);
        if (problem !== undefined) return problem;
      }
      return undefined;
    case 'Join':
      return typed(node.filter, BOOLEAN, 'the join filter') ?? joinProblem(node, at);
    case 'Aggregate': {
      const mask = node.aggregations.find((a) => a.mask !== undefined && !typesEqual(a.mask.type, BOOLEAN));
      return mask === undefined ? undefined : `${at}: the mask of ${describe(mask.symbol)} is not boolean`;
    }
    default:
      return undefined;
  }
}

function joinProblem(node: JoinNode, at: string): string | undefined {
  const left = new Set(node.left.outputs.map((s) => s.id));
  const right = new Set(node.right.outputs.map((s) => s.id));
  for (const clause of node.criteria) {
    if (!left.has(clause.left.id) || !right.has(clause.right.id)) return `${at}: criterion ${describe(clause.left)} = ${describe(clause.right)} is not left = right`;
    if (!typesEqual(clause.left.type, clause.right.type)) return `${at}: criterion ${describe(clause.left)} = ${describe(clause.right)} compares different types`;
  }
  if ((node.type === 'right' || node.type === 'full') && replicated(node.right)) return `${at}: a ${node.type} join's build side is replicated, so its unmatched rows would come once per task`;
  if (node.type === 'mark' && (node.mark === undefined || !typesEqual(node.mark.symbol.type, BOOLEAN))) return `${at}: a mark join without a boolean mark`;
  return undefined;
}

function replicated(node: PlanNode): boolean {
  return node.kind === 'Exchange' ? node.type === 'REPLICATE' : node.kind === 'Project' || node.kind === 'Filter' ? replicated(node.source) : false;
}

function exchangeProblem(node: PlanNode, at: string): string | undefined {
  if (node.kind === 'RemoteSource') return `${at}: a remote source before the plan is fragmented`;
  if (node.kind !== 'Exchange') return undefined;
  const outputs = new Set(node.source.outputs.map((s) => s.id));
  const key = node.partitionKeys.find((k) => !outputs.has(k.id));
  if (key !== undefined) return `${at} partitions on ${describe(key)}, which its source does not produce`;
  if ((node.type === 'REPARTITION') !== node.partitionKeys.length > 0) return `${at}: a ${node.type} exchange with ${node.partitionKeys.length} partition keys`;
  return undefined;
}

/** The symbol references in `e`; a stack, not recursion: expressions may nest deeper than the stack. */
function symbolReferences(e: RowExpression): SymbolReference[] {
  const found: SymbolReference[] = [];
  const pending = [e];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.kind === 'symbol') found.push(next);
    else for (const child of children(next)) pending.push(child);
  }
  return found;
}

function describe(symbol: Symbol): string {
  return `${symbol.name}#${symbol.id} (${typeName(symbol.type)})`;
}
