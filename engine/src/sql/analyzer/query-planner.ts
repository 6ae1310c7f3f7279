// Plans queries: WITH, set operations, VALUES, ORDER BY / OFFSET / LIMIT over a query body, and
// the relations of FROM. SELECT blocks are planned by SpecificationPlanner.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { Scalar } from '../../types/scalar.js';
import { BIGINT, typeName } from '../../types/types.js';
import { isOrderable } from '../../functions/scalar/map-comparison.js';
import type * as ast from '../parser/ast.js';
import type { OrderingItem, PlanNode } from '../planner/plan.js';
import { constant, symbolRef, type RowExpression, type Symbol } from '../planner/row-expression.js';
import { resolveWindowHandle } from '../planner/function-handles.js';
import { planRelation } from './relation-planner.js';
import { planSetOperation } from './set-operation-planner.js';
import { SpecificationPlanner } from './specification-planner.js';
import { coerce, commonTypeOrFail, comparison, translateExpression } from './expression-translator.js';
import { DEFAULT_FRAME_WITH_ORDER } from './window-planner.js';
import type { PlannerContext } from '../planner/planner-context.js';
import { visibleFields, type NamedQuery, type RelationPlan } from './relation-plan.js';
import { Scope, type Field } from './scope.js';
import { recursiveWithQuery } from './recursive-query-planner.js';
import { withSessionZones } from './implicit-zone-casts.js';

export class QueryPlanner {
  constructor(
    readonly context: PlannerContext,
    /** CTEs in scope, by name. */
    readonly ctes: Map<string, NamedQuery> = new Map(),
  ) {}

  /** Plans a full query; `outer` is the scope of an enclosing query (for correlated subqueries). */
  planQuery(query: ast.Query, outer?: Scope): RelationPlan {
    const planner = query.with ? this.withCtes(query.with) : this;
    if (query.body.kind === 'QuerySpecification') {
      return new SpecificationPlanner(planner, outer).plan(query.body, query.orderBy, query.offset, query.limit, query.withTies);
    }
    const body = planner.planQueryBody(query.body, outer);
    return planner.planOrderAndLimit(body, query.orderBy, query.offset, query.limit, query.withTies);
  }

  planQueryBody(body: ast.QueryBody, outer?: Scope): RelationPlan {
    switch (body.kind) {
      case 'QuerySpecification':
        return new SpecificationPlanner(this, outer).plan(body, [], undefined, undefined);
      case 'SetOperation':
        return planSetOperation(this, body, outer);
      case 'Values':
        return this.planValues(body);
      case 'Table':
        return planRelation(this, body, outer);
      case 'SubqueryBody':
        return this.planQuery(body.query, outer);
    }
  }

  /** ORDER BY over a query body that is not a plain SELECT: only output columns are visible. */
  private planOrderAndLimit(
    plan: RelationPlan,
    orderBy: ast.SortItem[],
    offset?: ast.Expression,
    limit?: ast.Expression | 'ALL',
    withTies = false,
  ): RelationPlan {
    let node = plan.node;
    if (orderBy.length > 0) {
      const fields = visibleFields(plan);
      const extra: { symbol: Symbol; expression: RowExpression }[] = [];
      const items: OrderingItem[] = orderBy.map((item) => {
        const ordinal = ordinalOf(item.key, fields.length);
        let symbol: Symbol;
        if (ordinal !== undefined) symbol = fields[ordinal].symbol;
        else {
          const e = translateExpression(item.key, {
            scope: new Scope(fields),
            session: this.context.session,
            parameters: this.context.parameters,
          });
          if (e.kind === 'symbol') symbol = e.symbol;
          else {
            symbol = this.context.factory.newSymbol('sortkey', e.type);
            extra.push({ symbol, expression: e });
          }
        }
        return orderingItem(symbol, item);
      });
      node = this.context.factory.projectExtending(node, extra);
      node = { kind: 'Sort', id: this.context.factory.nodeId(), outputs: node.outputs, source: node, orderBy: items };
      if (extra.length > 0) node = this.context.factory.restrict(node, plan.node.outputs);
    }
    node = this.applyOffsetLimit(node, offset, limit, withTies);
    return { node, scope: plan.scope };
  }

  applyOffsetLimit(node: PlanNode, offset?: ast.Expression, limit?: ast.Expression | 'ALL', withTies = false): PlanNode {
    const offsetRows = offset ? this.rowCount(offset, 'OFFSET') : 0;
    const limitRows = limit === undefined || limit === 'ALL' ? Infinity : this.rowCount(limit, 'LIMIT');
    if (withTies && limit !== undefined && limit !== 'ALL') return this.limitWithTies(node, offsetRows, limitRows, limit.location);
    if (offsetRows === 0 && limitRows === Infinity) return node;
    if (node.kind === 'Sort' && offsetRows === 0) {
      return {
        kind: 'TopN',
        id: this.context.factory.nodeId(),
        outputs: node.outputs,
        source: node.source,
        orderBy: node.orderBy,
        count: limitRows,
      };
    }
    return { kind: 'Limit', id: this.context.factory.nodeId(), outputs: node.outputs, source: node, count: limitRows, offset: offsetRows };
  }

  /**
   * FETCH FIRST n ROWS WITH TIES: the rows whose rank() in the ORDER BY is at most n — the first n
   * rows and those that tie with the n-th — kept in that order.
   */
  private limitWithTies(node: PlanNode, offsetRows: number, limitRows: number, location: SourceLocation): PlanNode {
    if (node.kind !== 'Sort') throw new EngineError('MISSING_ORDER_BY', 'FETCH FIRST WITH TIES clause requires ORDER BY', location);
    if (offsetRows > 0) throw new EngineError('NOT_SUPPORTED', 'OFFSET with FETCH FIRST ... WITH TIES is not supported', location);
    const factory = this.context.factory;
    const rank = factory.newSymbol('rank', BIGINT);
    const window: PlanNode = {
      kind: 'Window',
      id: factory.nodeId(),
      outputs: [...node.source.outputs, rank],
      source: node.source,
      partitionBy: [],
      orderBy: node.orderBy,
      functions: [
        {
          symbol: rank,
          function: resolveWindowHandle('rank', [], location),
          arguments: [],
          frame: DEFAULT_FRAME_WITH_ORDER,
          ignoreNulls: false,
        },
      ],
    };
    const kept = factory.filter(window, comparison('<=', symbolRef(rank), constant(BigInt(limitRows), BIGINT), location));
    const sorted: PlanNode = { kind: 'Sort', id: factory.nodeId(), outputs: kept.outputs, source: kept, orderBy: node.orderBy };
    return factory.restrict(sorted, node.outputs);
  }

  private rowCount(e: ast.Expression, clause: string): number {
    const expression = translateExpression(e, { scope: new Scope([]), session: this.context.session, parameters: this.context.parameters });
    // A described `?` is a bigint row count, with no value to plan with: plan no limit and no offset.
    if (expression.kind === 'constant' && expression.parameter) {
      coerce(expression, BIGINT);
      return clause === 'LIMIT' ? Infinity : 0;
    }
    const value = this.context.evaluator.evaluateConstant(expression);
    const n = typeof value === 'bigint' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
      throw new EngineError('INVALID_ARGUMENTS', `${clause} row count must be a non-negative integer`, e.location);
    }
    return n;
  }

  /** Evaluates an expression with no column references. */
  constantValue(e: ast.Expression, scope: Scope = new Scope([])): Scalar {
    return this.context.evaluator.evaluateConstant(
      translateExpression(e, { scope, session: this.context.session, parameters: this.context.parameters }),
    );
  }

  planValues(values: ast.Values): RelationPlan {
    const session = this.context.session;
    const scope = new Scope([]);
    const rows = values.rows.map((row) =>
      (row.kind === 'Row' ? row.items : [row]).map((e) => translateExpression(e, { scope, session, parameters: this.context.parameters })),
    );
    const width = rows[0].length;
    for (const [i, row] of rows.entries()) {
      if (row.length !== width)
        throw new EngineError('TYPE_MISMATCH', `Values rows have mismatched sizes: ${width} vs ${row.length}`, values.rows[i].location);
    }
    const types = Array.from({ length: width }, (_, c) =>
      commonTypeOrFail(
        rows.map((r) => r[c]),
        'Values',
        values.location,
      ),
    );
    const outputs = types.map((t, c) => this.context.factory.newSymbol(`_col${c}`, t));
    const constants = rows.map((row) =>
      row.map((e, c) => this.context.evaluator.evaluateConstant(withSessionZones(coerce(e, types[c], values.location), session))),
    );
    const node: PlanNode = { kind: 'Values', id: this.context.factory.nodeId(), outputs, rows: constants };
    return { node, scope: new Scope(outputs.map((symbol) => ({ name: undefined, qualifier: undefined, symbol }))) };
  }

  /** A planner that sees the CTEs of `with` (each CTE sees those defined before it). */
  private withCtes(withClause: ast.With): QueryPlanner {
    const ctes = new Map(this.ctes);
    for (const q of withClause.queries) {
      if (withClause.queries.filter((o) => o.name.value === q.name.value).length > 1) {
        throw new EngineError('DUPLICATE_NAMED_QUERY', `WITH query name '${q.name.value}' specified more than once`, q.location);
      }
      const visible = new Map(ctes);
      ctes.set(
        q.name.value,
        withClause.recursive ? recursiveWithQuery(this, q, visible) : { query: q.query, columnAliases: q.columnAliases, ctes: visible },
      );
    }
    return new QueryPlanner(this.context, ctes);
  }

  /** Re-labels a relation's fields with new names/qualifier (aliases). */
  static relabel(plan: RelationPlan, qualifier: string[] | undefined, names?: (string | undefined)[]): RelationPlan {
    const fields = visibleFields(plan);
    const relabeled: Field[] = fields.map((f, i) => ({
      name: names ? names[i] : f.name,
      qualifier,
      symbol: f.symbol,
      ...(f.origin ? { origin: f.origin } : {}),
    }));
    return { node: plan.node, scope: new Scope(relabeled, plan.scope.outer) };
  }

  /** Makes the node output exactly the visible fields, in order. */
  static outputVisible(plan: RelationPlan, context: PlannerContext): PlanNode {
    return context.factory.restrict(
      plan.node,
      visibleFields(plan).map((f) => f.symbol),
    );
  }
}

export function ordinalOf(e: ast.Expression, count: number): number | undefined {
  if (e.kind !== 'LongLiteral') return undefined;
  const n = Number(e.value);
  if (n < 1 || n > count)
    throw new EngineError('INVALID_COLUMN_REFERENCE', `ORDER BY position ${e.value} is not in select list`, e.location);
  return n - 1;
}

export function orderingItem(symbol: Symbol, item: ast.SortItem): OrderingItem {
  if (!isOrderable(symbol.type))
    throw new EngineError(
      'TYPE_MISMATCH',
      `${typeName(symbol.type)} is not orderable, and therefore cannot be used in ORDER BY`,
      item.location,
    );
  const ascending = item.ordering === 'ASC';
  return { symbol, ascending, nullsFirst: item.nullOrdering === 'FIRST' };
}
