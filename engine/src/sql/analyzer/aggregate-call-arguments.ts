// What an aggregate call passes to its function, grouped or over a window: its arguments (as the
// call's shape says: listagg's WITHIN GROUP, reduce_agg's lambdas), then the ORDER BY keys the
// function takes. Resolving the function and coercing to its types are the caller's.

import type { SourceLocation } from '../../errors/engine-error.js';
import type { AggregateOrdering } from '../../functions/aggregate/array-agg.js';
import type * as ast from '../parser/ast.js';
import type { AggregateFunctionHandle } from '../planner/function-handles.js';
import type { RowExpression } from '../planner/row-expression.js';
import { aggregateCallShape, checkAggregateArguments } from './aggregate-call-shape.js';
import { functionSortKeys } from './aggregate-order-by.js';
import type { TranslationContext } from './expression-translator.js';
import { lambdaAggregateCall } from './lambda-aggregate.js';
import { hasLambdaArgument } from './lambda-translator.js';

export interface AggregateCallArguments {
  /** The call's arguments then the ORDER BY keys its function takes, uncoerced. */
  args: RowExpression[];
  /** Where each argument is written (for coercion errors). */
  locations: (SourceLocation | undefined)[];
  ordering: AggregateOrdering[];
  /** A call with lambdas (reduce_agg) comes resolved, its state type unified with them. */
  lambdaHandle?: AggregateFunctionHandle;
}

/** `overWindow`: the call has OVER (see functionSortKeys). */
export function aggregateCallArguments(
  call: ast.FunctionCall,
  translate: (e: ast.Expression) => RowExpression,
  context: TranslationContext,
  overWindow = false,
): AggregateCallArguments {
  const { args: callArgs, orderBy } = aggregateCallShape(call);
  const lambdaCall = hasLambdaArgument(call) ? lambdaAggregateCall(call, translate, context) : undefined;
  const ownArgs = lambdaCall?.args ?? callArgs.map(translate);
  const sortKeys = functionSortKeys(
    call,
    orderBy.map((item) => ({ item, expression: translate(item.key) })),
    ownArgs,
    overWindow,
  );
  const args = [...ownArgs, ...sortKeys.map((k) => k.expression)];
  checkAggregateArguments(call, args);
  return {
    args,
    locations: [...(lambdaCall?.locations ?? callArgs.map((a) => a.location)), ...sortKeys.map((k) => k.item.key.location)],
    ordering: sortKeys.map(({ item }) => ({ ascending: item.ordering === 'ASC', nullsFirst: item.nullOrdering === 'FIRST' })),
    lambdaHandle: lambdaCall?.handle,
  };
}
