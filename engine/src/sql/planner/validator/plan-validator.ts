// Checks that a plan is well formed, after the planner and after each optimizer rule (when plan
// validation is on, as in the tests): every symbol a node references is one its sources produce (or
// a correlated subquery's outer symbol), with the type it was produced with; every output is one the
// node produces; expressions have the types of what they are assigned to; exchanges are consistent.
// An error names the step that broke the plan and the node, so a rule's bug is found where it is.

import { EngineError } from '../../../errors/engine-error.js';
import { BOOLEAN, typesEqual, typeName, type SqlType } from '../../../types/types.js';
import type { ExchangeNode, JoinNode, PlanNode } from '../plan.js';
import { sources } from '../plan.js';
import { nodeReferences } from '../plan-symbols.js';
import { children, type RowExpression, type Symbol, type SymbolReference } from '../row-expression.js';
import { producedSymbols } from './produced-symbols.js';
import { assertNever } from '../assert-never.js';

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
  const available = withSymbols(
    outer,
    sources(node).flatMap((s) => s.outputs),
  );
  for (const symbol of nodeReferences(node).values()) {
    const problem = symbolProblem(symbol, available);
    if (problem !== undefined) return `${at} references ${problem}`;
  }
  const produced = producedSymbols(node);
  if (produced !== undefined) {
    const missing = node.outputs.find((s) => !produced.has(s.id));
    if (missing !== undefined) return `${at} outputs ${describe(missing)}, which it does not produce`;
  }
  return nodeProblem(node, at);
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

/** What is wrong with the node's own fields: types of its expressions, lists that must line up with its outputs. */
function nodeProblem(node: PlanNode, at: string): string | undefined {
  const typed = (e: RowExpression | undefined, type: SqlType, what: string): string | undefined => {
    if (e === undefined) return undefined;
    if (!typesEqual(e.type, type)) return `${at}: ${what} is ${typeName(e.type)}, not ${typeName(type)}`;
    const ref = symbolReferences(e).find((r) => !typesEqual(r.type, r.symbol.type));
    return ref === undefined ? undefined : `${at}: a reference to ${describe(ref.symbol)} is typed ${typeName(ref.type)}`;
  };
  const width = node.outputs.length;
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
    case 'TableScan':
      return node.columns.length === width ? undefined : `${at}: ${node.columns.length} columns for ${width} outputs`;
    case 'Values': {
      const row = node.rows.findIndex((r) => r.length !== width);
      return row < 0 ? undefined : `${at}: row ${row + 1} has ${node.rows[row].length} values for ${width} outputs`;
    }
    case 'SetOperation':
      for (const [i, symbols] of node.sourceSymbols.entries()) {
        const source = new Set(node.sources[i].outputs.map((s) => s.id));
        if (symbols.length !== width || symbols.some((s) => !source.has(s.id))) return `${at}: input ${i + 1} does not give its outputs`;
      }
      return node.sourceSymbols.length === node.sources.length
        ? undefined
        : `${at}: ${node.sourceSymbols.length} symbol lists for ${node.sources.length} inputs`;
    case 'RecursiveUnion':
      return node.anchor.outputs.length === width && node.step.outputs.length === width
        ? undefined
        : `${at}: anchor, step and outputs differ in width`;
    case 'Exchange':
      if (node.orderBy !== undefined && (node.type !== 'GATHER' || node.orderBy.length === 0))
        return `${at}: a merging ${node.type} exchange with ${node.orderBy.length} sort keys`;
      return (node.type === 'REPARTITION') === node.partitionKeys.length > 0
        ? undefined
        : `${at}: a ${node.type} exchange with ${node.partitionKeys.length} partition keys`;
    case 'RemoteSource':
      return `${at}: a remote source before the plan is fragmented`;
    // Their symbols are checked above (references and outputs); they have no expressions.
    case 'Sort':
    case 'TopN':
    case 'Limit':
    case 'Window':
    case 'EnforceSingleRow':
    case 'GroupId':
    case 'AssignUniqueId':
    case 'MarkDistinct':
    case 'Unnest':
    case 'Apply':
    case 'TableWriter':
    case 'TableFinish':
      return undefined;
    default:
      return assertNever(node);
  }
}

function joinProblem(node: JoinNode, at: string): string | undefined {
  const left = new Set(node.left.outputs.map((s) => s.id));
  const right = new Set(node.right.outputs.map((s) => s.id));
  const clause = node.criteria.find((c) => !left.has(c.left.id) || !right.has(c.right.id));
  if (clause !== undefined) return `${at}: criterion ${describe(clause.left)} = ${describe(clause.right)} is not probe = build`;
  if (node.nearest !== undefined && !right.has(node.nearest.key.id))
    return `${at}: its nearest key ${describe(node.nearest.key)} is not a build symbol`;
  if (node.nearest !== undefined && !left.has(node.nearest.value.id))
    return `${at}: its nearest value ${describe(node.nearest.value)} is not a probe symbol`;
  if (node.type === 'mark' && (node.mark === undefined || !typesEqual(node.mark.symbol.type, BOOLEAN)))
    return `${at}: a mark join without a boolean mark`;
  const build = exchangeBelow(node.right, true);
  if (build?.type === 'REPLICATE' && (node.type === 'right' || node.type === 'full'))
    return `${at}: a ${node.type} join's build side is replicated, so its unmatched rows would come once per task`;
  if (build?.type === 'REPARTITION' && node.mark?.nullAware === true)
    return `${at}: a null-aware mark join's build side is partitioned; every task must see each build row`;
  // A side repartitioned for the join is partitioned on its join keys, in the criteria's order, so that matching rows meet.
  // (Only where no projection between may have renamed the keys.)
  for (const [side, exchange] of [
    ['build', exchangeBelow(node.right, false)],
    ['probe', exchangeBelow(node.left, false)],
  ] as const) {
    if (exchange?.type !== 'REPARTITION') continue;
    const keys = node.criteria.map((c) => (side === 'build' ? c.right : c.left));
    if (exchange.partitionKeys.length !== keys.length || exchange.partitionKeys.some((k, i) => k.id !== keys[i].id))
      return `${at}: its ${side} side is repartitioned on other symbols than its join keys`;
  }
  return undefined;
}

/** The exchange a join side comes through, below filters (and projections, with `throughProjects`). */
function exchangeBelow(node: PlanNode, throughProjects: boolean): ExchangeNode | undefined {
  if (node.kind === 'Exchange') return node;
  return node.kind === 'Filter' || (throughProjects && node.kind === 'Project') ? exchangeBelow(node.source, throughProjects) : undefined;
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
