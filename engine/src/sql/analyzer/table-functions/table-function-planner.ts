// Plans `TABLE(name(arguments))` in FROM: Trino's built-in table functions (system.builtin), found
// by their bare or fully qualified name, with their arguments bound as Trino binds them
// (table-function-arguments.ts). Each function plans to ordinary plan nodes: its relation then
// joins, filters and distributes like any other.

import { EngineError } from '../../../errors/engine-error.js';
import type { Scalar } from '../../../types/scalar.js';
import { typeName, type SqlType } from '../../../types/types.js';
import { canCoerce } from '../../../types/coercion.js';
import type * as ast from '../../parser/ast.js';
import type { TableArgument, TableFunctionInvocation } from '../../parser/ast-relations.js';
import { expressionChildren } from '../ast-utils.js';
import { coerce, translateExpression } from '../expression-translator.js';
import type { QueryPlanner } from '../query-planner.js';
import type { RelationPlan } from '../relation-plan.js';
import { planRelation } from '../relation-planner.js';
import { Scope } from '../scope.js';
import { bindArguments, type ArgumentAnalyzer, type ArgumentSpecification, type BoundArgument } from './table-function-arguments.js';
import { checkCopartitioning } from './copartitioning.js';
import { EXCLUDE_COLUMNS_FUNCTION } from './exclude-columns-function.js';
import { SEQUENCE_FUNCTION } from './sequence-function.js';
import type { PlannerContext } from '../../planner/planner-context.js';

/** A built-in table function. */
export interface TableFunction {
  /** Its name in system.builtin. */
  name: string;
  arguments: readonly ArgumentSpecification[];
  /** Its relation, given its arguments (its own checks fail without a position, as Trino's functions' do). */
  plan(context: PlannerContext, args: ReadonlyMap<string, BoundArgument>): RelationPlan;
}

const BUILTIN_TABLE_FUNCTIONS = new Map<string, TableFunction>([SEQUENCE_FUNCTION, EXCLUDE_COLUMNS_FUNCTION].map((f) => [f.name, f]));

export function planTableFunction(planner: QueryPlanner, invocation: TableFunctionInvocation, outer: Scope | undefined): RelationPlan {
  // Function names compare in lower case, quoted or not (as Trino's QualifiedName parts).
  const parts = invocation.name.parts.map((p) => p.value.toLowerCase());
  const builtin = parts.length === 1 || (parts.length === 3 && parts[0] === 'system' && parts[1] === 'builtin');
  const tableFunction = builtin ? BUILTIN_TABLE_FUNCTIONS.get(parts[parts.length - 1]) : undefined;
  if (tableFunction === undefined)
    throw new EngineError('FUNCTION_NOT_FOUND', `Table function '${parts.join('.')}' not registered`, invocation.name.location);
  const args = bindArguments(tableFunction.arguments, invocation, argumentAnalyzer(planner, outer));
  checkCopartitioning(invocation, planner.context.session);
  const plan = tableFunction.plan(planner.context, args);
  return { node: plan.node, scope: new Scope(plan.scope.fields, outer) };
}

function argumentAnalyzer(planner: QueryPlanner, outer: Scope | undefined): ArgumentAnalyzer {
  const context = planner.context;
  return {
    scalar(expression: ast.Expression, type: SqlType): Scalar {
      const subquery = findNode(
        expression,
        (e) => e.kind === 'Subquery' || e.kind === 'Exists' || e.kind === 'InSubquery' || e.kind === 'QuantifiedComparison',
      );
      if (subquery) throw new EngineError('EXPRESSION_NOT_CONSTANT', 'Constant expression cannot contain a subquery', subquery.location);
      // A described statement's `?` has no value yet, and the function's result columns may depend on it.
      const parameter = findNode(expression, (e) => e.kind === 'Parameter');
      if (parameter && context.parameters.some((p) => p.kind === 'constant' && p.parameter !== undefined)) {
        throw new EngineError('NOT_SUPPORTED', 'DESCRIBE is not supported if a table function uses parameters', parameter.location);
      }
      const translated = translateExpression(expression, {
        scope: new Scope([]),
        session: context.session,
        parameters: context.parameters,
      });
      if (translated.type.kind !== 'unknown' && !canCoerce(translated.type, type)) {
        throw new EngineError('TYPE_MISMATCH', `Cannot cast type ${typeName(translated.type)} to ${typeName(type)}`, expression.location);
      }
      return context.evaluator.evaluateConstant(coerce(translated, type, expression.location));
    },
    table(argument: TableArgument, specification: ArgumentSpecification, location): RelationPlan {
      // Both built-in functions' table arguments have row semantics: they take no partitioning, ordering or empty behavior.
      const misplaced = argument.partitionBy
        ? 'Partitioning'
        : argument.orderBy
          ? 'Ordering'
          : argument.emptyBehavior
            ? 'Empty behavior'
            : undefined;
      if (misplaced)
        throw new EngineError(
          'INVALID_FUNCTION_ARGUMENT',
          `Invalid argument ${specification.name}. ${misplaced} specified for table argument with row semantics`,
          location,
        );
      return planRelation(planner, argument.relation, outer);
    },
  };
}

function findNode(e: ast.Expression, matches: (e: ast.Expression) => boolean): ast.Expression | undefined {
  if (matches(e)) return e;
  for (const child of expressionChildren(e)) {
    const found = findNode(child, matches);
    if (found) return found;
  }
  return undefined;
}
