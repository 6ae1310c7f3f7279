// Plans the relations of FROM: tables, CTE references, aliases, subqueries, VALUES and joins.

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';
import { splitEquiConjuncts } from '../planner/join-predicates.js';
import type { Assignment, PlanNode } from '../planner/plan.js';
import { combineConjuncts, extractConjuncts } from '../planner/plan-factory.js';
import { special, symbolRef, type RowExpression } from '../planner/row-expression.js';
import { commonSuperType } from '../../types/coercion.js';
import { typeName } from '../../types/types.js';
import { coerce, coerceToBoolean, translateExpression } from './expression-translator.js';
import { visibleFields, type RelationPlan } from './relation-plan.js';
import { QueryPlanner } from './query-planner.js';
import { Scope, type Field } from './scope.js';
import { subqueryHook } from './subquery-planner.js';
import { unsupportedNode } from './unsupported-features.js';
import { planView } from './view-planner.js';
import { qualifiedObjectName } from '../metadata/qualified-name.js';
import { readRelation } from '../../security/access-control/relation-reads.js';
import { planStandaloneUnnest, planUnnestJoin, unnestTarget, type UnnestTarget } from './unnest-planner.js';
import { planSample } from './sample-planner.js';
import { isLateral, planLateralRight } from './lateral-planner.js';
import { misplacedNearest, nearestOf, planNearestJoin } from './nearest-planner.js';
import { planTableFunction } from './table-functions/table-function-planner.js';
import type { PlannerContext } from '../planner/planner-context.js';

export function planRelation(planner: QueryPlanner, relation: ast.Relation, outer?: Scope): RelationPlan {
  const context = planner.context;
  switch (relation.kind) {
    case 'Table': {
      const parts = relation.name.parts.map((p) => p.value);
      const cte = parts.length === 1 ? planner.ctes.get(parts[0]) : undefined;
      if (cte) {
        const plan = cte.expand ? cte.expand() : new QueryPlanner(context, cte.ctes).planQuery(cte.query, undefined);
        const names = cte.columnAliases?.map((a) => a.value);
        const fields = visibleFields(plan);
        if (names && names.length !== fields.length) {
          throw new EngineError(
            'MISMATCHED_COLUMN_ALIASES',
            `WITH column alias list has ${names.length} entries but WITH query(${parts[0]}) has ${fields.length} columns`,
            relation.location,
          );
        }
        return withOuter(QueryPlanner.relabel(plan, [parts[0]], names ?? fields.map((f) => f.name)), outer);
      }
      const table = context.metadata.resolveTable(relation.name);
      if (table === undefined) {
        const view = context.metadata.resolveView(relation.name);
        const name = qualifiedObjectName(relation.name, context.session);
        if (view !== undefined) return readRelation(context, name, () => planView(planner, relation, name, view, outer), view);
        throw new EngineError(
          'TABLE_NOT_FOUND',
          `Table '${name.catalog}.${name.schema}.${name.name}' does not exist`,
          relation.name.location,
        );
      }
      return readRelation(context, { catalog: table.catalog, schema: table.schema, name: table.name }, () => {
        const outputs = table.columns.map((c) => context.factory.newSymbol(c.name, c.type));
        const node: PlanNode = { kind: 'TableScan', id: context.factory.nodeId(), outputs, table, columns: table.columns };
        const qualifier = [table.catalog, table.schema, table.name];
        const origin = { catalog: table.catalog, schema: table.schema, table: table.name };
        return {
          node,
          scope: new Scope(
            outputs.map((symbol, i) => ({ name: table.columns[i].name, qualifier, symbol, origin })),
            outer,
          ),
        };
      });
    }
    case 'AliasedRelation':
      return aliasRelation(planRelation(planner, relation.relation, outer), relation, context);
    case 'SubqueryRelation':
    case 'Lateral': {
      const plan = planner.planQuery(relation.query, outer);
      return withOuter(QueryPlanner.relabel(plan, undefined), outer);
    }
    case 'ValuesRelation':
      return withOuter(planner.planValues(relation.values), outer);
    case 'Join':
      return planJoin(planner, relation, outer);
    case 'Unnest':
      return planStandaloneUnnest(planner, { unnest: relation }, outer);
    case 'SampledRelation':
      return planSample(planner, relation, planRelation(planner, relation.relation, outer));
    case 'JsonTable':
      return planStandaloneUnnest(planner, unnestTarget(relation) as UnnestTarget, outer);
    case 'Nearest':
      throw misplacedNearest(relation);
    case 'TableFunctionInvocation':
      return planTableFunction(planner, relation, outer);
    case 'PatternRecognitionRelation':
      throw unsupportedNode(relation);
  }
}

/** `inner AS alias [(columns)]`: its visible columns under the alias's names. */
export function aliasRelation(inner: RelationPlan, relation: ast.AliasedRelation, context: PlannerContext): RelationPlan {
  const fields = visibleFields(inner);
  const names = relation.columnNames?.map((c) => c.value);
  if (names && names.length !== fields.length) {
    const has =
      relation.relation.kind === 'TableFunctionInvocation'
        ? `table function has ${fields.length} proper columns`
        : `'${relation.alias.value}' has ${fields.length} columns available`;
    throw new EngineError('MISMATCHED_COLUMN_ALIASES', `Column alias list has ${names.length} entries but ${has}`, relation.location);
  }
  const plan = QueryPlanner.relabel(inner, [relation.alias.value], names ?? fields.map((f) => f.name));
  return { node: QueryPlanner.outputVisible(inner, context), scope: plan.scope };
}

function withOuter(plan: RelationPlan, outer: Scope | undefined): RelationPlan {
  return { node: plan.node, scope: plan.scope.withOuter(outer) };
}

function planJoin(planner: QueryPlanner, join: ast.Join, outer?: Scope): RelationPlan {
  const context = planner.context;
  const left = planRelation(planner, join.left, outer);
  const unnest = unnestTarget(join.right);
  if (unnest !== undefined) return planUnnestJoin(planner, join, left, unnest);
  const nearest = nearestOf(join.right);
  if (nearest !== undefined) return planNearestJoin(planner, join, nearest, left, outer);
  let right: RelationPlan;
  if (isLateral(join.right)) {
    const lateral = planLateralRight(planner, join, left, outer);
    if (lateral.joined) return lateral.joined;
    right = lateral.right;
  } else right = planRelation(planner, join.right, outer);
  const fields = [...left.scope.fields, ...right.scope.fields];
  const scope = new Scope(fields, outer);
  const type =
    join.type === 'IMPLICIT' || join.type === 'CROSS' ? 'inner' : (join.type.toLowerCase() as 'inner' | 'left' | 'right' | 'full');

  if (!join.criteria) {
    return { node: context.factory.join('inner', left.node, right.node, []), scope };
  }
  if (join.criteria.kind === 'NaturalJoin') throw unsupportedNode(join);
  if (join.criteria.kind === 'JoinUsing') return planUsingJoin(planner, join, type, left, right, join.criteria.columns, outer);

  // ON: plan subqueries of the condition above the join (only allowed for inner joins).
  const holder = { node: context.factory.join(type, left.node, right.node, []) as PlanNode };
  const condition = coerceToBoolean(
    translateExpression(join.criteria.expression, {
      scope,
      session: context.session,
      parameters: context.parameters,
      hook: subqueryHook(planner, () => holder, scope),
    }),
    'JOIN ON clause',
    join.criteria.expression.location,
  );
  if (holder.node.kind !== 'Join' || holder.node.left !== left.node || holder.node.right !== right.node) {
    if (type !== 'inner')
      throw new EngineError('NOT_SUPPORTED', 'Subqueries in the ON clause of an outer join are not supported', join.location);
    return { node: context.factory.filter(holder.node, condition), scope };
  }
  return { node: buildJoin(planner, type, left.node, right.node, condition), scope };
}

/** A join node whose equi-conjuncts of `condition` become hash keys (projecting expressions when needed). */
export function buildJoin(
  planner: QueryPlanner,
  type: 'inner' | 'left' | 'right' | 'full',
  leftNode: PlanNode,
  rightNode: PlanNode,
  condition: RowExpression | undefined,
): PlanNode {
  const factory = planner.context.factory;
  const split = splitEquiConjuncts(extractConjuncts(condition), leftNode.outputs, rightNode.outputs, (name, t) =>
    factory.newSymbol(name, t),
  );
  const leftSide = factory.projectExtending(leftNode, split.leftAssignments);
  const rightSide = factory.projectExtending(rightNode, split.rightAssignments);
  const node = factory.join(type, leftSide, rightSide, split.criteria, combineConjuncts(split.residual));
  if (split.leftAssignments.length === 0 && split.rightAssignments.length === 0) return node;
  return factory.restrict(node, [...leftNode.outputs, ...rightNode.outputs]);
}

function planUsingJoin(
  planner: QueryPlanner,
  join: ast.Join,
  type: 'inner' | 'left' | 'right' | 'full',
  left: RelationPlan,
  right: RelationPlan,
  columns: ast.Identifier[],
  outer?: Scope,
): RelationPlan {
  const factory = planner.context.factory;
  const conjuncts: RowExpression[] = [];
  const usingFields: Field[] = [];
  const coalesced: Assignment[] = [];
  const leftUsed = new Set<number>();
  const rightUsed = new Set<number>();
  for (const column of columns) {
    const l = left.scope.resolve([column.value], column.location).field;
    const r = right.scope.resolve([column.value], column.location).field;
    const type0 = commonSuperType(l.symbol.type, r.symbol.type);
    if (!type0) {
      throw new EngineError(
        'TYPE_MISMATCH',
        `Column '${column.value}' is of type ${typeName(l.symbol.type)} on the left and ${typeName(r.symbol.type)} on the right`,
        column.location,
      );
    }
    const le = coerce(symbolRef(l.symbol), type0);
    const re = coerce(symbolRef(r.symbol), type0);
    conjuncts.push({ kind: 'call', name: 'equal', args: [le, re], type: { kind: 'boolean' } });
    leftUsed.add(l.symbol.id);
    rightUsed.add(r.symbol.id);
    if (type === 'full') {
      const symbol = factory.newSymbol(column.value, type0);
      coalesced.push({ symbol, expression: special('coalesce', type0, le, re) });
      usingFields.push({ name: column.value, qualifier: undefined, symbol });
    } else {
      const source = type === 'right' ? r : l;
      usingFields.push({
        name: column.value,
        qualifier: undefined,
        symbol: source.symbol,
        ...(source.origin ? { origin: source.origin } : {}),
      });
    }
  }
  let node = buildJoin(planner, type, left.node, right.node, combineConjuncts(conjuncts));
  node = factory.projectExtending(node, coalesced);
  // The USING columns come first; each side's copy stays reachable by its qualified name.
  const hide = (f: Field, used: Set<number>): Field => (used.has(f.symbol.id) ? { ...f, hidden: true } : f);
  const fields = [...usingFields, ...left.scope.fields.map((f) => hide(f, leftUsed)), ...right.scope.fields.map((f) => hide(f, rightUsed))];
  return { node, scope: new Scope(fields, outer) };
}
