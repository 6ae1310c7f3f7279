// Entry point of analysis: a query AST to a logical plan with named, typed output columns.

import type { StatementMetadata } from '../metadata/statement-metadata.js';
import type { OutputColumn } from '../../spi/statement-result.js';
import type * as ast from '../parser/ast.js';
import type { PlanNode } from '../planner/plan.js';
import type { RowExpression } from '../planner/row-expression.js';
import type { ExpressionEvaluator } from '../planner/expression-evaluator.js';
import { PlannerContext } from '../planner/planner-context.js';
import { visibleFields } from './relation-plan.js';
import { QueryPlanner } from './query-planner.js';
import { planWithSessionZones } from './implicit-zone-casts.js';
import type { Field } from './scope.js';
import { checkQueryReads } from '../../security/access-control/read-checks.js';
import { routinesOf, withRoutines } from '../routines/routine-scope.js';
import { withInlineRoutines } from '../routines/inline-routines.js';

export interface AnalyzedQuery {
  root: PlanNode;
  columns: OutputColumn[];
  /** The output fields the columns come from: their origins and aliases (DESCRIBE OUTPUT). */
  fields: Field[];
  context: PlannerContext;
}

export function analyzeQuery(
  query: ast.Query,
  metadata: StatementMetadata,
  evaluator: ExpressionEvaluator,
  parameters: readonly RowExpression[] = [],
): AnalyzedQuery {
  const context = new PlannerContext(metadata, evaluator, parameters);
  return withRoutines(metadata.session, withInlineRoutines(query, metadata.session, routinesOf(metadata.session)), () => {
    const plan = new QueryPlanner(context).planQuery(query);
    const fields = visibleFields(plan);
    const root = planWithSessionZones(
      context.factory.restrict(
        plan.node,
        fields.map((f) => f.symbol),
      ),
      metadata.session,
    );
    checkQueryReads(metadata, root);
    return { root, columns: fields.map((f, i) => ({ name: f.name ?? `_col${i}`, type: f.symbol.type })), fields, context };
  });
}
