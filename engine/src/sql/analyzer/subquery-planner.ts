// Subqueries in expressions become joins attached to the plan of the enclosing query block:
// - uncorrelated scalar subquery -> join with a single enforced row
// - EXISTS / IN / quantified comparisons -> a mark join (null-aware for IN and ANY/ALL)
// - correlated ones are decorrelated when the correlation is a filter of equalities (and, for
//   scalar subqueries, the subquery is a global aggregation): the subquery then joins once,
//   grouped by its correlation keys. Anything else runs as an Apply, once per distinct binding.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { BOOLEAN, typeName } from '../../types/types.js';
import { commonSuperType } from '../../types/coercion.js';
import type * as ast from '../parser/ast.js';
import type { AggregateNode, Assignment, EquiJoinClause, PlanNode, ProjectNode } from '../planner/plan.js';
import { combineConjuncts, extractConjuncts, identityAssignments } from '../planner/plan-factory.js';
import { freeSymbols } from '../planner/plan-symbols.js';
import {
  constant,
  referencedSymbols,
  replaceSymbols,
  special,
  symbolRef,
  type RowExpression,
  type Symbol,
} from '../planner/row-expression.js';
import { coerce, comparison, type TranslationHook } from './expression-translator.js';
import { visibleFields } from './relation-plan.js';
import { rowFieldValues, rowOfColumns } from './row-expressions.js';
import type { QueryPlanner } from './query-planner.js';
import type { Scope } from './scope.js';

/** The plan of the query block a subquery attaches to; subquery planning replaces `node`. */
export interface PlanHolder {
  node: PlanNode;
}

const NEGATED: Record<ast.ComparisonOperator, ast.ComparisonOperator> = {
  '=': '<>',
  '<>': '=',
  '<': '>=',
  '<=': '>',
  '>': '<=',
  '>=': '<',
};
/** Aggregates whose value on no rows is not NULL, so a decorrelated left join must patch them. */
const NON_NULL_ON_EMPTY: Record<string, bigint> = { count: 0n, count_if: 0n, approx_distinct: 0n };

export function subqueryHook(planner: QueryPlanner, holder: PlanHolder | (() => PlanHolder), scope: Scope): TranslationHook {
  const sub = new SubqueryPlanner(planner, typeof holder === 'function' ? holder() : holder, scope);
  return (e, translate) => {
    switch (e.kind) {
      case 'Subquery':
        return sub.scalar(e.query, e.location);
      case 'Exists':
        return sub.exists(e.query);
      case 'InSubquery': {
        const result = sub.quantified(translate(e.value), '=', e.query, e.location);
        return e.negated ? special('not', BOOLEAN, result) : result;
      }
      case 'QuantifiedComparison': {
        const value = translate(e.value);
        if (e.quantifier === 'ANY') return sub.quantified(value, e.operator, e.query, e.location);
        return special('not', BOOLEAN, sub.quantified(value, NEGATED[e.operator], e.query, e.location));
      }
      default:
        return undefined;
    }
  };
}

class SubqueryPlanner {
  constructor(
    private readonly planner: QueryPlanner,
    private readonly holder: PlanHolder,
    private readonly scope: Scope,
  ) {}

  private get factory() {
    return this.planner.context.factory;
  }

  private planSubquery(query: ast.Query): { node: PlanNode; columns: Symbol[]; names: (string | undefined)[]; correlation: Symbol[] } {
    const plan = this.planner.planQuery(query, this.scope);
    const fields = visibleFields(plan);
    const columns = fields.map((f) => f.symbol);
    const node = this.factory.restrict(plan.node, columns);
    return { node, columns, names: fields.map((f) => f.name), correlation: [...freeSymbols(node).values()] };
  }

  /** A scalar subquery: its one column, or a row of its columns (named as they are), as Trino types it. */
  scalar(query: ast.Query, location: SourceLocation): RowExpression {
    const planned = this.planSubquery(query);
    const { correlation } = planned;
    let { node, columns } = planned;
    if (columns.length > 1) {
      const row = this.factory.newSymbol('row', rowOfColumns(columns, planned.names).type);
      node = this.factory.project(node, [{ symbol: row, expression: rowOfColumns(columns, planned.names) }]);
      columns = [row];
    }
    if (correlation.length === 0) {
      const single: PlanNode = { kind: 'EnforceSingleRow', id: this.factory.nodeId(), outputs: node.outputs, source: node };
      this.holder.node = this.factory.join('inner', this.holder.node, single, []);
      return symbolRef(columns[0]);
    }
    return this.decorrelatedScalar(node, columns[0], correlation) ?? this.apply('scalar', node, correlation, columns[0].type);
  }

  exists(query: ast.Query): RowExpression {
    const { node, correlation } = this.planSubquery(query);
    const mark = this.factory.newSymbol('exists', BOOLEAN);
    if (correlation.length === 0) {
      this.holder.node = this.factory.join('mark', this.holder.node, node, [], undefined, { symbol: mark, nullAware: false });
      return symbolRef(mark);
    }
    const pulled = pullCorrelatedFilter(this.planner, node, idsOf(correlation));
    if (!pulled) return this.apply('exists', node, correlation, BOOLEAN);
    this.markJoin(pulled.node, pulled.conjuncts, mark, false);
    return symbolRef(mark);
  }

  /** `value op ANY (query)`; `=` is IN. */
  quantified(value: RowExpression, operator: ast.ComparisonOperator, query: ast.Query, location: SourceLocation): RowExpression {
    const sub = this.planSubquery(query);
    // Rows compare field by field: a NULL field must make IN NULL where it could match.
    if (sub.columns.length !== 1 || (value.type.kind === 'row' && sub.columns[0].type.kind === 'row'))
      return this.quantifiedRow(value, operator, sub, location);
    const type = commonSuperType(value.type, sub.columns[0].type);
    if (!type) throw new EngineError('TYPE_MISMATCH', `Value and result of subquery must be of the same type`, location);
    const valueSymbol = this.symbolOnHolder(coerce(value, type));
    const column = coerce(symbolRef(sub.columns[0]), type);
    let subNode = sub.node;
    let columnSymbol: Symbol;
    if (column.kind === 'symbol') columnSymbol = column.symbol;
    else {
      columnSymbol = this.factory.newSymbol('value', type);
      subNode = this.factory.projectExtending(subNode, [{ symbol: columnSymbol, expression: column }]);
    }
    const mark = this.factory.newSymbol('in', BOOLEAN);
    let base: PlanNode | undefined = subNode;
    let conjuncts: RowExpression[] = [];
    if (sub.correlation.length > 0) {
      const pulled = pullCorrelatedFilter(this.planner, subNode, idsOf(sub.correlation));
      if (!pulled) {
        if (operator !== '=') throw new EngineError('NOT_SUPPORTED', 'Correlated quantified comparison is not supported', location);
        return this.apply('in', subNode, sub.correlation, BOOLEAN, valueSymbol, columnSymbol);
      }
      base = pulled.node;
      conjuncts = pulled.conjuncts;
    }
    const test = comparison(operator, symbolRef(valueSymbol), symbolRef(columnSymbol), location);
    this.markJoin(base, [test, ...conjuncts], mark, true);
    return symbolRef(mark);
  }

  /**
   * `(a, b) IN (SELECT x, y ...)`: the row's fields against the subquery's columns, one hash key per
   * field, so that a NULL field makes the result NULL where it could match (null-aware keys).
   */
  private quantifiedRow(
    value: RowExpression,
    operator: ast.ComparisonOperator,
    sub: { node: PlanNode; columns: Symbol[]; correlation: Symbol[] },
    location: SourceLocation,
  ): RowExpression {
    // The subquery's columns, or the fields of its one row column.
    const columns = sub.columns.length === 1 ? rowFieldValues(symbolRef(sub.columns[0])) : sub.columns.map(symbolRef);
    if (value.type.kind !== 'row' || value.type.fields.length !== columns.length) {
      throw new EngineError(
        'TYPE_MISMATCH',
        `Value and result of subquery must be of the same type: ${typeName(value.type)} and ${sub.columns.length === 1 ? typeName(sub.columns[0].type) : `${sub.columns.length} columns`}`,
        location,
      );
    }
    if (operator !== '=' || sub.correlation.length > 0)
      throw new EngineError(
        'NOT_SUPPORTED',
        'Only an uncorrelated IN or = ANY compares a row with a subquery of rows or of several columns',
        location,
      );
    const fields = rowFieldValues(value);
    const tests = columns.map((column, k) => {
      const type = commonSuperType(fields[k].type, column.type);
      if (!type)
        throw new EngineError('TYPE_MISMATCH', `Value and result of subquery must be of the same type: ${typeName(value.type)}`, location);
      return comparison('=', symbolRef(this.symbolOnHolder(coerce(fields[k], type))), coerce(column, type), location);
    });
    const mark = this.factory.newSymbol('in', BOOLEAN);
    this.markJoin(sub.node, tests, mark, true);
    return symbolRef(mark);
  }

  /** A mark join of the holder with `right` on `conjuncts` (equalities become hash keys). */
  private markJoin(right: PlanNode, conjuncts: RowExpression[], mark: Symbol, nullAware: boolean): void {
    const { criteria, residual, rightNode } = this.equiCriteria(right, conjuncts);
    this.holder.node = this.factory.join('mark', this.holder.node, rightNode, criteria, combineConjuncts(residual), {
      symbol: mark,
      nullAware,
    });
  }

  /** Splits `outer = inner` equalities into hash keys, projecting non-symbol sides. */
  private equiCriteria(
    right: PlanNode,
    conjuncts: RowExpression[],
  ): { criteria: EquiJoinClause[]; residual: RowExpression[]; rightNode: PlanNode } {
    const rightIds = new Set(right.outputs.map((s) => s.id));
    const criteria: EquiJoinClause[] = [];
    const residual: RowExpression[] = [];
    const rightExtra: Assignment[] = [];
    for (const c of conjuncts) {
      const sides = c.kind === 'call' && c.name === 'equal' ? splitSides(c.args[0], c.args[1], rightIds) : undefined;
      if (!sides) {
        residual.push(c);
        continue;
      }
      const left = this.symbolOnHolder(sides.outer);
      let inner: Symbol;
      if (sides.inner.kind === 'symbol') inner = sides.inner.symbol;
      else {
        inner = this.factory.newSymbol('key', sides.inner.type);
        rightExtra.push({ symbol: inner, expression: sides.inner });
      }
      criteria.push({ left, right: inner });
    }
    return { criteria, residual, rightNode: this.factory.projectExtending(right, rightExtra) };
  }

  /** Makes `e` (over the holder's symbols) available as a symbol of the holder node. */
  private symbolOnHolder(e: RowExpression): Symbol {
    if (e.kind === 'symbol' && this.holder.node.outputs.some((s) => s.id === e.symbol.id)) return e.symbol;
    const symbol = this.factory.newSymbol('expr', e.type);
    this.holder.node = this.factory.projectExtending(this.holder.node, [{ symbol, expression: e }]);
    return symbol;
  }

  /** Scalar subquery = global aggregation over a filter correlated by equalities. */
  private decorrelatedScalar(node: PlanNode, output: Symbol, correlation: Symbol[]): RowExpression | undefined {
    const projectsAbove: ProjectNode[] = [];
    let cursor = node;
    while (cursor.kind === 'Project') {
      projectsAbove.push(cursor);
      cursor = cursor.source;
    }
    if (cursor.kind !== 'Aggregate' || cursor.groupingKeys.length > 0 || cursor.step !== 'single') return undefined;
    const aggregate: AggregateNode = cursor;
    const correlationIds = idsOf(correlation);
    const pulled = pullCorrelatedFilter(this.planner, aggregate.source, correlationIds);
    if (!pulled) return undefined;
    const innerIds = new Set(pulled.node.outputs.map((s) => s.id));
    const equalities = pulled.conjuncts.map((c) =>
      c.kind === 'call' && c.name === 'equal' ? splitSides(c.args[0], c.args[1], innerIds) : undefined,
    );
    if (equalities.some((e) => !e || e.inner.kind !== 'symbol')) return undefined;
    // Projections above the aggregation may only use its outputs and the outer symbols.
    for (const p of projectsAbove) {
      for (const a of p.assignments) {
        for (const id of referencedSymbols(a.expression).keys()) {
          if (!correlationIds.has(id) && !p.source.outputs.some((s) => s.id === id)) return undefined;
        }
      }
    }
    const keys = equalities.map((e) => (e!.inner as { symbol: Symbol }).symbol);
    const uniqueKeys = [...new Map(keys.map((k) => [k.id, k])).values()];
    const grouped = this.factory.aggregate(pulled.node, uniqueKeys, aggregate.aggregations);
    const criteria: EquiJoinClause[] = equalities.map((e, i) => ({ left: this.symbolOnHolder(e!.outer), right: keys[i] }));
    this.holder.node = this.factory.join('left', this.holder.node, grouped, criteria);
    // Re-evaluate the projections above the aggregation on the joined rows; patch count-like aggregates.
    const patched = new Map<number, RowExpression>();
    for (const a of aggregate.aggregations) {
      const empty = NON_NULL_ON_EMPTY[a.function.name];
      if (empty !== undefined)
        patched.set(
          a.symbol.id,
          special(
            'coalesce',
            a.symbol.type,
            symbolRef(a.symbol),
            constant(a.symbol.type.kind === 'bigint' ? empty : Number(empty), a.symbol.type),
          ),
        );
    }
    let result: RowExpression = symbolRef(output);
    for (const p of projectsAbove) {
      const byId = new Map(p.assignments.map((a) => [a.symbol.id, a.expression]));
      result = replaceSymbols(result, (s) => byId.get(s.id));
    }
    return replaceSymbols(result, (s) => patched.get(s.id));
  }

  private apply(
    applyType: 'scalar' | 'exists' | 'in',
    subquery: PlanNode,
    correlation: Symbol[],
    type: Symbol['type'],
    value?: Symbol,
    column?: Symbol,
  ): RowExpression {
    const result = this.factory.newSymbol(applyType, type);
    const sub = column ? this.factory.restrict(subquery, [column]) : subquery;
    this.holder.node = {
      kind: 'Apply',
      id: this.factory.nodeId(),
      outputs: [...this.holder.node.outputs, result],
      input: this.holder.node,
      subquery: sub,
      correlation,
      applyType,
      value,
      result,
    };
    return symbolRef(result);
  }
}

function idsOf(symbols: Symbol[]): Set<number> {
  return new Set(symbols.map((s) => s.id));
}

/** For `a = b`: which side only uses inner symbols and which only outer ones. */
function splitSides(a: RowExpression, b: RowExpression, innerIds: Set<number>): { outer: RowExpression; inner: RowExpression } | undefined {
  const isInner = (e: RowExpression) => {
    const refs = [...referencedSymbols(e).keys()];
    return refs.length > 0 && refs.every((id) => innerIds.has(id));
  };
  const isOuter = (e: RowExpression) => {
    const refs = [...referencedSymbols(e).keys()];
    return refs.length > 0 && refs.every((id) => !innerIds.has(id));
  };
  if (isInner(b) && isOuter(a)) return { outer: a, inner: b };
  if (isInner(a) && isOuter(b)) return { outer: b, inner: a };
  return undefined;
}

/**
 * Lifts the correlated conjuncts out of a subquery plan shaped Project* -> Filter -> (uncorrelated).
 * Returns the plan without them (projections extended to pass through what they need) and the
 * conjuncts, or undefined when the plan has another shape.
 */
export function pullCorrelatedFilter(
  planner: QueryPlanner,
  node: PlanNode,
  correlation: Set<number>,
): { node: PlanNode; conjuncts: RowExpression[] } | undefined {
  const factory = planner.context.factory;
  const usesOuter = (e: RowExpression) => [...referencedSymbols(e).keys()].some((id) => correlation.has(id));
  if (node.kind === 'Filter') {
    if ([...freeSymbols(node.source).keys()].some((id) => correlation.has(id))) return undefined;
    const all = extractConjuncts(node.predicate);
    const conjuncts = all.filter(usesOuter);
    const local = all.filter((c) => !usesOuter(c));
    const rest = combineConjuncts(local);
    return { node: rest ? factory.filter(node.source, rest) : node.source, conjuncts };
  }
  if (node.kind === 'Project') {
    if (node.assignments.some((a) => usesOuter(a.expression))) return undefined;
    const inner = pullCorrelatedFilter(planner, node.source, correlation);
    if (!inner) return undefined;
    const needed = new Map<number, Symbol>();
    for (const c of inner.conjuncts) referencedSymbols(c, needed);
    const have = new Set(node.outputs.map((s) => s.id));
    const passThrough = [...needed.values()].filter((s) => !correlation.has(s.id) && !have.has(s.id));
    return { node: factory.project(inner.node, [...node.assignments, ...identityAssignments(passThrough)]), conjuncts: inner.conjuncts };
  }
  return undefined;
}
