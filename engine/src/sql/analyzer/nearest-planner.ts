// Plans `left JOIN NEAREST (FROM r [WHERE c] MATCH k op v)` as Trino defines it: for each left row,
// of the rows of r that pass c and the MATCH comparison, the one whose k is nearest v (the largest k
// for < and <=, the smallest for > and >=); CROSS, INNER and comma joins drop left rows without
// one, LEFT joins keep them with NULLs. Ties in k keep any one of the tied rows, as in Trino.
//
// It becomes one as-of join (JoinNode.nearest): the equalities of c between a left and an r
// expression are its hash keys, so that it is partitioned by them on a cluster, and the rest of c
// with the MATCH comparison is its filter; no per-row subquery. r is uncorrelated (c and MATCH
// alone may refer to the left side), as in Trino.

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';
import type { NearestMatch, PlanNode } from '../planner/plan.js';
import { combineConjuncts, extractConjuncts } from '../planner/plan-factory.js';
import { splitEquiConjuncts } from '../planner/join-predicates.js';
import { referencedSymbols, symbolRef, type RowExpression } from '../planner/row-expression.js';
import { coerceToBoolean, translateExpression } from './expression-translator.js';
import type { RelationPlan } from './relation-plan.js';
import type { QueryPlanner } from './query-planner.js';
import { aliasRelation, planRelation } from './relation-planner.js';
import { Scope } from './scope.js';

const JOINS_ALLOWED = 'NEAREST is only supported on the right side of CROSS JOIN, INNER JOIN, LEFT JOIN, or an implicit join';

/** The NEAREST relation on the right of a join (possibly aliased), if it is one. */
export function nearestOf(relation: ast.Relation): ast.Nearest | undefined {
  if (relation.kind === 'AliasedRelation') return nearestOf(relation.relation);
  return relation.kind === 'Nearest' ? relation : undefined;
}

/** NEAREST anywhere else than on the right of a join. */
export function misplacedNearest(nearest: ast.Nearest): EngineError {
  return new EngineError('NOT_SUPPORTED', JOINS_ALLOWED, nearest.location);
}

export function planNearestJoin(
  planner: QueryPlanner,
  join: ast.Join,
  nearest: ast.Nearest,
  left: RelationPlan,
  outer: Scope | undefined,
): RelationPlan {
  checkJoin(join);
  const context = planner.context;
  const factory = context.factory;
  const source = planRelation(planner, nearest.relation, outer);
  // WHERE and MATCH see the FROM relation's columns first, then the left side's.
  const clauseScope = new Scope(source.scope.fields, new Scope(left.scope.fields, outer));
  const translate = (e: ast.Expression) =>
    translateExpression(e, { scope: clauseScope, session: context.session, parameters: context.parameters });
  const where = nearest.where && coerceToBoolean(translate(nearest.where), 'NEAREST WHERE clause', nearest.where.location);
  const matchExpression = coerceToBoolean(translate(nearest.match), 'NEAREST MATCH clause', nearest.match.location);

  const sourceIds = new Set(source.node.outputs.map((s) => s.id));
  const leftIds = new Set(left.node.outputs.map((s) => s.id));
  const match = analyzeMatch(nearest.match, matchExpression, sourceIds, leftIds);
  // The two sides of MATCH become symbols of the two inputs (they are of one type: the comparison's).
  const key = factory.newSymbol('nearest_key', match.candidate.type);
  const value = factory.newSymbol('nearest_value', match.value.type);
  const candidates = factory.projectExtending(source.node, [{ symbol: key, expression: match.candidate }]);
  const probes = factory.projectExtending(left.node, [{ symbol: value, expression: match.value }]);
  const comparison: RowExpression = {
    ...match.call,
    args: match.call.args.map((_, i) => symbolRef(i === match.candidateArgument ? key : value)),
  };

  const split = splitEquiConjuncts(extractConjuncts(where), left.node.outputs, candidates.outputs, (name, type) =>
    factory.newSymbol(name, type),
  );
  const probe = factory.projectExtending(probes, split.leftAssignments);
  const build = factory.projectExtending(candidates, split.rightAssignments);
  const type = join.type === 'LEFT' ? 'left' : 'inner';
  const nearestMatch: NearestMatch = { key, operator: match.operator, value };
  const node: PlanNode = {
    ...factory.join(type, probe, build, split.criteria, combineConjuncts([...split.residual, comparison])),
    nearest: nearestMatch,
  };

  const right = join.right.kind === 'AliasedRelation' ? aliasRelation(source, join.right, context) : source;
  return {
    node: factory.restrict(node, [...left.node.outputs, ...right.node.outputs]),
    scope: new Scope([...left.scope.fields, ...right.scope.fields], outer),
  };
}

/** The join types and conditions Trino allows around NEAREST, with its messages. */
function checkJoin(join: ast.Join): void {
  const criteria = join.criteria;
  if (criteria?.kind === 'JoinUsing')
    throw new EngineError('NOT_SUPPORTED', 'JOIN USING involving NEAREST is not supported', join.location);
  const onTrue = criteria?.kind === 'JoinOn' && criteria.expression.kind === 'BooleanLiteral' && criteria.expression.value;
  if ((join.type === 'INNER' || join.type === 'LEFT') && !onTrue) {
    const location = criteria?.kind === 'JoinOn' ? criteria.expression.location : join.location;
    throw new EngineError('NOT_SUPPORTED', `${join.type} JOIN involving NEAREST is only supported with condition ON TRUE`, location);
  }
  if (join.type !== 'CROSS' && join.type !== 'IMPLICIT' && join.type !== 'INNER' && join.type !== 'LEFT') {
    throw new EngineError('NOT_SUPPORTED', `${join.type} JOIN involving NEAREST is not supported`, join.location);
  }
}

interface AnalyzedMatch {
  call: Extract<RowExpression, { kind: 'call' }>;
  /** The argument of `call` over the FROM relation (0 or 1). */
  candidateArgument: number;
  candidate: RowExpression;
  /** The other argument (over the left side, or constant). */
  value: RowExpression;
  /** The comparison with the FROM relation's expression on its left. */
  operator: NearestMatch['operator'];
}

const FLIPPED: Record<ast.ComparisonOperator, ast.ComparisonOperator> = {
  '=': '=',
  '<>': '<>',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};

/** MATCH must compare one FROM relation expression with one other expression by <, <=, > or >= (Trino's checks, in its order). */
function analyzeMatch(match: ast.Expression, translated: RowExpression, sourceIds: Set<number>, leftIds: Set<number>): AnalyzedMatch {
  if (match.kind !== 'Comparison' || translated.kind !== 'call' || translated.args.length !== 2) {
    throw new EngineError('NOT_SUPPORTED', 'NEAREST MATCH clause must be a comparison expression', match.location);
  }
  const refersTo = (e: RowExpression, ids: Set<number>) => [...referencedSymbols(e).keys()].some((id) => ids.has(id));
  const [a, b] = translated.args;
  const aFrom = refersTo(a, sourceIds);
  if (aFrom === refersTo(b, sourceIds)) {
    throw new EngineError(
      'NOT_SUPPORTED',
      'NEAREST MATCH clause must compare one FROM relation expression with one non-FROM expression',
      match.location,
    );
  }
  if ((aFrom && refersTo(a, leftIds)) || (!aFrom && refersTo(b, leftIds))) {
    throw new EngineError(
      'NOT_SUPPORTED',
      'NEAREST MATCH clause must keep FROM relation and non-FROM expressions on opposite sides',
      match.location,
    );
  }
  const operator = aFrom ? match.operator : FLIPPED[match.operator];
  if (operator === '=' || operator === '<>')
    throw new EngineError('NOT_SUPPORTED', 'NEAREST MATCH clause must use <, <=, >, or >=', match.location);
  const candidateArgument = aFrom ? 0 : 1;
  return {
    call: translated,
    candidateArgument,
    candidate: translated.args[candidateArgument],
    value: translated.args[1 - candidateArgument],
    operator,
  };
}
