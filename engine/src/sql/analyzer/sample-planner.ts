// TABLESAMPLE as Trino runs it. The percentage is a constant from 0 to 100. 0 is an empty relation
// and 100 the relation itself. BERNOULLI keeps each row with the ratio's probability (a filter
// `random() < ratio`). SYSTEM keeps each split of the relation's table with that probability, when
// the relation reads exactly one table (as Trino samples the split source); over anything else it
// samples nothing, as in Trino.

import { EngineError } from '../../errors/engine-error.js';
import { canCoerce } from '../../types/coercion.js';
import { DOUBLE } from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import { sources, type PlanNode, type TableScanNode } from '../planner/plan.js';
import { mapSources } from '../planner/optimizer/rewrite-plan.js';
import { call, constant } from '../planner/row-expression.js';
import { expressionChildren } from './ast-utils.js';
import { coerce, comparison, translateExpression } from './expression-translator.js';
import type { QueryPlanner } from './query-planner.js';
import type { RelationPlan } from './relation-plan.js';
import { Scope } from './scope.js';

export function planSample(planner: QueryPlanner, relation: ast.SampledRelation, source: RelationPlan): RelationPlan {
  const ratio = sampleRatio(planner, relation.percentage);
  const factory = planner.context.factory;
  if (ratio === 1) return source;
  let node: PlanNode;
  if (ratio === 0) node = { kind: 'Values', id: factory.nodeId(), outputs: source.node.outputs, rows: [] };
  else if (relation.sampleType === 'BERNOULLI') {
    const location = relation.location;
    node = factory.filter(source.node, comparison('<', call('random', DOUBLE), constant(ratio, DOUBLE), location));
  } else node = sampleSplits(source.node, ratio);
  return { node, scope: source.scope };
}

/** The percentage / 100, with Trino's checks. */
function sampleRatio(planner: QueryPlanner, percentage: ast.Expression): number {
  const location = percentage.location;
  if (refersToColumns(percentage))
    throw new EngineError('EXPRESSION_NOT_CONSTANT', 'Sample percentage cannot contain column references', location);
  const context = planner.context;
  const expression = translateExpression(percentage, { scope: new Scope([]), session: context.session, parameters: context.parameters });
  if (expression.type.kind === 'unknown') throw new EngineError('INVALID_ARGUMENTS', 'Sample percentage cannot be NULL', location);
  if (!canCoerce(expression.type, DOUBLE))
    throw new EngineError('TYPE_MISMATCH', 'Sample percentage should be a numeric expression', location);
  const value = context.evaluator.evaluateConstant(coerce(expression, DOUBLE));
  if (value === null) throw new EngineError('INVALID_ARGUMENTS', 'Sample percentage cannot be NULL', location);
  const number = Number(value);
  if (number < 0) throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', 'Sample percentage must be greater than or equal to 0', location);
  if (number > 100) throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', 'Sample percentage must be less than or equal to 100', location);
  return number / 100;
}

function refersToColumns(e: ast.Expression): boolean {
  if (e.kind === 'Identifier' || e.kind === 'Dereference') return true;
  return expressionChildren(e).some(refersToColumns);
}

/** The plan with its one table scan keeping each split with probability `ratio`; unchanged when it reads no table or several. */
function sampleSplits(root: PlanNode, ratio: number): PlanNode {
  const scans: TableScanNode[] = [];
  const visit = (node: PlanNode) => {
    if (node.kind === 'TableScan') scans.push(node);
    else for (const source of sources(node)) visit(source);
  };
  visit(root);
  if (scans.length !== 1) return root;
  const [scan] = scans;
  const sampled: TableScanNode = { ...scan, splitSampleRatio: (scan.splitSampleRatio ?? 1) * ratio };
  const replace = (node: PlanNode): PlanNode => (node === scan ? sampled : mapSources(node, replace));
  return replace(root);
}
