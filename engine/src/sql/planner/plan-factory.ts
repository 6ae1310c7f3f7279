// Builds plan nodes with fresh ids and consistent outputs; shared by the analyzer and optimizer.

import { BOOLEAN, type SqlType } from '../../types/types.js';
import type { SymbolAllocator } from './symbols.js';
import type { AggregateNode, AggregationCall, Assignment, EquiJoinClause, FilterNode, JoinNode, PlanNode, ProjectNode } from './plan.js';
import { special, symbolRef, type RowExpression, type Symbol } from './row-expression.js';

export class PlanFactory {
  constructor(readonly symbols: SymbolAllocator) {}

  newSymbol(name: string, type: SqlType): Symbol {
    return this.symbols.newSymbol(name, type);
  }

  filter(source: PlanNode, predicate: RowExpression): FilterNode {
    return { kind: 'Filter', id: this.symbols.nodeId(), outputs: source.outputs, source, predicate };
  }

  project(source: PlanNode, assignments: Assignment[]): ProjectNode {
    return { kind: 'Project', id: this.symbols.nodeId(), outputs: assignments.map((a) => a.symbol), source, assignments };
  }

  /** Passes every output of `source` through and adds `extra` computed symbols. */
  projectExtending(source: PlanNode, extra: Assignment[]): PlanNode {
    if (extra.length === 0) return source;
    return this.project(source, [...identityAssignments(source.outputs), ...extra]);
  }

  /** Keeps only `symbols` (in that order). */
  restrict(source: PlanNode, symbols: Symbol[]): PlanNode {
    if (sameSymbols(source.outputs, symbols)) return source;
    return this.project(source, identityAssignments(symbols));
  }

  join(
    type: JoinNode['type'],
    left: PlanNode,
    right: PlanNode,
    criteria: EquiJoinClause[],
    filter?: RowExpression,
    mark?: JoinNode['mark'],
  ): JoinNode {
    const outputs = type === 'mark' ? [...left.outputs, mark!.symbol] : [...left.outputs, ...right.outputs];
    return { kind: 'Join', id: this.symbols.nodeId(), outputs, type, left, right, criteria, filter, mark };
  }

  aggregate(
    source: PlanNode,
    groupingKeys: Symbol[],
    aggregations: AggregationCall[],
    step: AggregateNode['step'] = 'single',
  ): AggregateNode {
    return {
      kind: 'Aggregate',
      id: this.symbols.nodeId(),
      outputs: [...groupingKeys, ...aggregations.map((a) => a.symbol)],
      source,
      groupingKeys,
      aggregations,
      step,
    };
  }

  /** A single row with no columns: the source of `SELECT 1` without FROM. */
  singleRow(): PlanNode {
    return { kind: 'Values', id: this.symbols.nodeId(), outputs: [], rows: [[]] };
  }

  nodeId(): number {
    return this.symbols.nodeId();
  }
}

export function identityAssignments(symbols: readonly Symbol[]): Assignment[] {
  return symbols.map((s) => ({ symbol: s, expression: symbolRef(s) }));
}

export function sameSymbols(a: readonly Symbol[], b: readonly Symbol[]): boolean {
  return a.length === b.length && a.every((s, i) => s.id === b[i].id);
}

/** AND of conjuncts (TRUE constant when empty). */
export function combineConjuncts(conjuncts: RowExpression[]): RowExpression | undefined {
  if (conjuncts.length === 0) return undefined;
  if (conjuncts.length === 1) return conjuncts[0];
  return special('and', BOOLEAN, ...conjuncts);
}

/** Flattens nested ANDs into a list of conjuncts. */
export function extractConjuncts(e: RowExpression | undefined): RowExpression[] {
  if (!e) return [];
  if (e.kind === 'special' && e.form === 'and') return e.args.flatMap(extractConjuncts);
  return [e];
}
