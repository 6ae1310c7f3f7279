// Plans LATERAL (query) in FROM: the query sees the columns of the relations left of it. An
// uncorrelated one is an ordinary join. A correlated one runs once per left row (a lateral Apply)
// for CROSS, comma, INNER and LEFT joins; its ON condition becomes a filter of the subquery, so a
// LEFT join keeps the rows the condition rejects all matches of, with NULLs. RIGHT and FULL joins
// cannot refer to the left side (Trino's INVALID_COLUMN_REFERENCE), and USING cannot correlate.

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';
import type { LateralApplyNode } from '../planner/plan.js';
import { freeSymbols } from '../planner/plan-symbols.js';
import { coerceToBoolean, translateExpression } from './expression-translator.js';
import type { RelationPlan } from './relation-plan.js';
import type { QueryPlanner } from './query-planner.js';
import { planRelation } from './relation-planner.js';
import { Scope } from './scope.js';

/** Whether the relation is LATERAL (query), possibly under an alias. */
export function isLateral(relation: ast.Relation): boolean {
  return relation.kind === 'Lateral' || (relation.kind === 'AliasedRelation' && relation.relation.kind === 'Lateral');
}

/**
 * The right side of `left JOIN LATERAL (...)`, planned where it sees the left side; `correlated`
 * when it refers to it, and then already joined with it (else the caller joins the two as usual).
 */
export function planLateralRight(
  planner: QueryPlanner,
  join: ast.Join,
  left: RelationPlan,
  outer?: Scope,
): { right: RelationPlan; joined?: RelationPlan } {
  const right = planRelation(planner, join.right, new Scope(left.scope.fields, outer));
  const leftSymbols = new Set(left.node.outputs.map((s) => s.id));
  const references = () => [...freeSymbols(right.node).values()].filter((s) => leftSymbols.has(s.id));
  if (references().length === 0) return { right: { node: right.node, scope: right.scope.withOuter(outer) } };
  if (join.type === 'RIGHT' || join.type === 'FULL') {
    throw new EngineError('INVALID_COLUMN_REFERENCE', `LATERAL reference not allowed in ${join.type} JOIN`, join.right.location);
  }
  if (join.criteria && join.criteria.kind !== 'JoinOn') {
    throw new EngineError('NOT_SUPPORTED', 'Correlated join with criteria other than ON is not supported', join.location);
  }
  const context = planner.context;
  const scope = new Scope([...left.scope.fields, ...right.scope.fields], outer);
  let subquery = right.node;
  if (join.criteria) {
    const condition = coerceToBoolean(
      translateExpression(join.criteria.expression, { scope, session: context.session, parameters: context.parameters }),
      'JOIN ON clause',
      join.criteria.expression.location,
    );
    if (!(condition.kind === 'constant' && condition.value === true)) subquery = context.factory.filter(subquery, condition);
  }
  const correlation = [...freeSymbols(subquery).values()].filter((s) => leftSymbols.has(s.id));
  const node: LateralApplyNode = {
    kind: 'Apply',
    id: context.factory.nodeId(),
    outputs: [...left.node.outputs, ...subquery.outputs],
    input: left.node,
    subquery,
    correlation,
    applyType: 'lateral',
    outer: join.type === 'LEFT',
  };
  return { right, joined: { node, scope } };
}
