// Plans one SELECT block: FROM, WHERE, GROUP BY / aggregates / HAVING, window functions, the
// select list, DISTINCT, ORDER BY, OFFSET and LIMIT — in SQL's logical order.

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';
import type { Assignment, OrderingItem, PlanNode } from '../planner/plan.js';
import { expressionKey, symbolRef, type RowExpression, type Symbol } from '../planner/row-expression.js';
import { planAggregation, type AggregationResult } from './aggregation-planner.js';
import { findAggregates, findWindowCalls, rejectAggregatesAndWindows } from './ast-utils.js';
import {
  coerceToBoolean,
  qualifiedParts,
  rejectUnknownFunctions,
  translateExpression,
  type TranslationHook,
} from './expression-translator.js';
import type { RelationPlan } from './relation-plan.js';
import { ordinalOf, orderingItem, type QueryPlanner } from './query-planner.js';
import { planRelation } from './relation-planner.js';
import { Scope, endsWith, usable, type ColumnOrigin, type Field } from './scope.js';
import { rowExpansion, rowFieldItems } from './row-expressions.js';
import { typeName, type SqlType } from '../../types/types.js';
import { isComparable } from '../../functions/scalar/map-comparison.js';
import { subqueryHook, type PlanHolder } from './subquery-planner.js';
import { planWindows } from './window-planner.js';
import { resolveAutoGroupBy } from './auto-group-by.js';

/** One column of the select list after `*` expansion. */
interface SelectColumn {
  expression: ast.Expression | undefined; // undefined for a field from `*`
  field?: Field;
  name: string | undefined;
  location: ast.NodeBase['location'];
  /** The table column it reads unchanged: a `*` field's, or a column reference's. */
  origin?: ColumnOrigin;
  aliased: boolean;
}

export class SpecificationPlanner {
  constructor(
    private readonly planner: QueryPlanner,
    private readonly outer?: Scope,
  ) {}

  plan(
    spec: ast.QuerySpecification,
    orderBy: ast.SortItem[],
    offset?: ast.Expression,
    limit?: ast.Expression | 'ALL',
    withTies = false,
  ): RelationPlan {
    const context = this.planner.context;
    const factory = context.factory;
    const source: RelationPlan = spec.from
      ? planRelation(this.planner, spec.from, this.outer)
      : { node: factory.singleRow(), scope: new Scope([], this.outer) };
    const scope = source.scope;
    const holder: PlanHolder = { node: source.node };
    const base = { scope, session: context.session, parameters: context.parameters };
    const subqueries = subqueryHook(this.planner, holder, scope);

    if (spec.where) {
      rejectAggregatesAndWindows(spec.where, 'WHERE clause');
      const predicate = translateExpression(spec.where, { ...base, hook: subqueries });
      holder.node = factory.filter(holder.node, coerceToBoolean(predicate, 'WHERE clause', spec.where.location));
    }

    const columns = expandSelectList(spec.select.items, scope, (e) => translateExpression(e, base).type);
    const allOrderBy = [...spec.orderBy, ...orderBy];
    const orderExpressions = allOrderBy.map((o) => o.key);
    const selectExpressions = columns.flatMap((c) => (c.expression ? [c.expression] : []));
    // As Trino, an unknown function is reported before any aggregation check would look at its arguments.
    const grouped = resolveAutoGroupBy(
      spec,
      columns.map((c) => c.expression),
    );
    const groupByExpressions = (grouped.groupBy?.elements ?? []).flatMap(groupingExpressions);
    rejectUnknownFunctions(
      [...selectExpressions, ...groupByExpressions, ...(spec.having ? [spec.having] : []), ...orderExpressions],
      context.session,
    );
    const aggregateCalls = [...selectExpressions, ...(spec.having ? [spec.having] : []), ...orderExpressions].flatMap((e) =>
      findAggregates(e),
    );
    const aggregated = spec.groupBy !== undefined || aggregateCalls.length > 0 || spec.having !== undefined;

    // Hooks are tried in order: window calls, then aggregation outputs, then subqueries.
    const hooks: TranslationHook[] = [];
    let aggregation: AggregationResult | undefined;
    if (aggregated) {
      aggregation = planAggregation(
        this.planner,
        holder,
        scope,
        grouped,
        columns.map((c) => c.expression),
        aggregateCalls,
      );
      hooks.push(aggregation.hook);
    }
    hooks.push(subqueries);
    const translate = (e: ast.Expression, extra: TranslationHook[] = []): RowExpression =>
      translateExpression(e, { ...base, hook: chain([...extra, ...hooks]) });

    if (spec.having) {
      // Translate first: a subquery in HAVING joins onto holder.node.
      const predicate = coerceToBoolean(translate(spec.having), 'HAVING clause', spec.having.location);
      holder.node = factory.filter(holder.node, predicate);
    }

    const windowCalls = [...selectExpressions, ...orderExpressions].flatMap((e) => findWindowCalls(e));
    if (windowCalls.length > 0) hooks.unshift(planWindows(this.planner, holder, spec, windowCalls, (e) => translate(e), base));

    // The select list.
    const assignments: Assignment[] = [];
    const outputs: Symbol[] = [];
    for (const [i, column] of columns.entries()) {
      const field = column.field!;
      const expression = column.expression
        ? translate(column.expression)
        : aggregation
          ? aggregation.groupedField(field.symbol, field.name, column.location)
          : symbolRef(field.symbol);
      const symbol = factory.newSymbol(column.name ?? `_col${i}`, expression.type);
      assignments.push({ symbol, expression });
      outputs.push(symbol);
    }

    // ORDER BY sees the select list's names first, then the FROM clause's columns.
    const byName = (e: ast.Expression): RowExpression | undefined => {
      if (e.kind !== 'Identifier') return undefined;
      const matches = columns.map((c, i) => (c.name === e.value ? i : -1)).filter((i) => i >= 0);
      if (matches.length > 1 && new Set(matches.map((i) => expressionKey(assignments[i].expression))).size > 1) {
        throw new EngineError('AMBIGUOUS_NAME', `'${e.value}' in ORDER BY is ambiguous`, e.location);
      }
      return matches.length > 0 ? symbolRef(outputs[matches[0]]) : undefined;
    };
    const ordering: OrderingItem[] = [];
    const hidden: Assignment[] = [];
    for (const item of allOrderBy) {
      const ordinal = ordinalOf(item.key, outputs.length);
      if (ordinal !== undefined) {
        ordering.push(orderingItem(outputs[ordinal], item));
        continue;
      }
      const byAlias = byName(item.key);
      const expression = byAlias ?? translate(item.key);
      const existing = byAlias ? undefined : assignments.findIndex((a) => expressionKey(a.expression) === expressionKey(expression));
      if (byAlias && byAlias.kind === 'symbol') ordering.push(orderingItem(byAlias.symbol, item));
      else if (existing !== undefined && existing >= 0) ordering.push(orderingItem(outputs[existing], item));
      else {
        if (spec.select.distinct) {
          throw new EngineError(
            'EXPRESSION_NOT_IN_DISTINCT',
            'For SELECT DISTINCT, ORDER BY expressions must appear in select list',
            item.key.location,
          );
        }
        const symbol = factory.newSymbol('orderkey', expression.type);
        hidden.push({ symbol, expression });
        ordering.push(orderingItem(symbol, item));
      }
    }

    let node: PlanNode = factory.project(holder.node, [...assignments, ...hidden]);
    if (spec.select.distinct) {
      const incomparable = outputs.find((o) => !isComparable(o.type));
      if (incomparable !== undefined)
        throw new EngineError(
          'TYPE_MISMATCH',
          `DISTINCT can only be applied to comparable types (actual: ${typeName(incomparable.type)})`,
          spec.location,
        );
      node = factory.aggregate(node, outputs, []);
    }
    if (ordering.length > 0) node = { kind: 'Sort', id: factory.nodeId(), outputs: node.outputs, source: node, orderBy: ordering };
    node = this.planner.applyOffsetLimit(node, offset ?? spec.offset, limit ?? spec.limit, withTies);
    node = factory.restrict(node, outputs);
    const fields: Field[] = outputs.map((symbol, i) => {
      const { name, origin, aliased } = columns[i];
      return { name, qualifier: undefined, symbol, ...(origin ? { origin } : {}), ...(aliased ? { aliased } : {}) };
    });
    return { node, scope: new Scope(fields, this.outer) };
  }
}

function groupingExpressions(element: ast.GroupingElement): ast.Expression[] {
  switch (element.kind) {
    case 'GroupingSets':
      return element.sets.flat();
    case 'Rollup':
    case 'Cube':
      return element.elements.flat();
    case 'AutoGroupBy':
      return []; // resolved to a SimpleGroupBy before (resolveAutoGroupBy)
    default:
      return element.expressions;
  }
}

function chain(hooks: TranslationHook[]): TranslationHook {
  return (e, translate) => {
    for (const hook of hooks) {
      const result = hook(e, translate);
      if (result) return result;
    }
    return undefined;
  };
}

function expandSelectList(items: ast.SelectItem[], scope: Scope, typeOf: (e: ast.Expression) => SqlType): SelectColumn[] {
  const columns: SelectColumn[] = [];
  for (const item of items) {
    if (item.kind === 'AllColumns') {
      const prefix = item.prefix?.parts.map((p) => p.value);
      const fields = scope.fields.filter((f) => !f.hidden && (!prefix || (f.qualifier !== undefined && endsWith(f.qualifier, prefix))));
      const rowFields = item.target
        ? rowExpansion(item.target, typeOf(item.target), item.aliases, item.location)
        : prefix && fields.length === 0 && item.prefix
          ? rowFieldItems(item.prefix, scope, item.location)
          : undefined;
      if (rowFields) {
        for (const f of rowFields) columns.push({ expression: f.expression, name: f.name, location: item.location, aliased: false });
        continue;
      }
      if (prefix && fields.length === 0) {
        throw new EngineError('TABLE_NOT_FOUND', `Table '${prefix.join('.')}' not found`, item.location);
      }
      if (!prefix && fields.length === 0)
        throw new EngineError('COLUMN_NOT_FOUND', 'SELECT * not allowed from relation that has no columns', item.location);
      for (const f of fields)
        columns.push({
          expression: undefined,
          field: usable(f, item.location),
          name: f.name,
          location: item.location,
          ...(f.origin ? { origin: f.origin } : {}),
          aliased: false,
        });
      continue;
    }
    const name = item.alias?.value ?? implicitName(item.expression);
    const origin = columnOrigin(item.expression, scope);
    columns.push({
      expression: item.expression,
      name,
      location: item.location,
      ...(origin ? { origin } : {}),
      aliased: item.alias !== undefined,
    });
  }
  return columns;
}

/** The origin of a select item that is a plain column reference, as Trino's analysis finds it. */
function columnOrigin(e: ast.Expression, scope: Scope): ColumnOrigin | undefined {
  const parts = qualifiedParts(e);
  return parts ? scope.tryResolve(parts, e.location)?.field.origin : undefined;
}

function implicitName(e: ast.Expression): string | undefined {
  const parts = qualifiedParts(e);
  return parts ? parts[parts.length - 1] : undefined;
}
