// Functions as a plan names them: a function object (with its accumulator or evaluator factory)
// cannot be serialised, so a plan keeps the name and the argument types it was resolved with, plus
// the types the planner needs; the executor resolves the same function again from the registry
// when it builds the operators. A plan is plain data, and so is every fragment of it.

import type { AggregateFunction } from '../../functions/aggregate/aggregate-function.js';
import type { AggregateOrdering } from '../../functions/aggregate/array-agg.js';
import { resolveAggregateFunction } from '../../functions/aggregate/registry.js';
import type { WindowFunction } from '../../functions/window/window-function.js';
import { resolveWindowFunction } from '../../functions/window/registry.js';
import type { SourceLocation } from '../../errors/engine-error.js';
import type { SqlType } from '../../types/types.js';
import type { LambdaExpression } from './row-expression.js';

export interface AggregateFunctionHandle {
  name: string;
  /** The types the function was resolved with (the call's argument types before coercion). */
  resolvedWith: SqlType[];
  /** The types its arguments are coerced to. */
  argumentTypes: SqlType[];
  returnType: SqlType;
  intermediateTypes: SqlType[];
  /** ORDER BY inside the call: the keys are the last arguments (array_agg(x ORDER BY k)). */
  ordering?: AggregateOrdering[];
  /** Lambda arguments (reduce_agg's), which are no columns. */
  lambdas?: LambdaExpression[];
}

export interface WindowFunctionHandle {
  name: string;
  resolvedWith: SqlType[];
  argumentTypes: SqlType[];
  returnType: SqlType;
  /** An aggregate's ORDER BY inside the call (its keys are the last arguments). */
  ordering?: AggregateOrdering[];
  /** An aggregate's DISTINCT. */
  distinct?: boolean;
  /** An aggregate's lambda arguments (reduce_agg's). */
  lambdas?: LambdaExpression[];
}

/** Resolves an aggregate call by name and argument types: the handle the plan keeps. */
export function resolveAggregateHandle(
  name: string,
  argumentTypes: SqlType[],
  location?: SourceLocation,
  ordering: AggregateOrdering[] = [],
  lambdas: LambdaExpression[] = [],
): AggregateFunctionHandle {
  const f = resolveAggregateFunction(name, argumentTypes, location, ordering, lambdas);
  const handle: AggregateFunctionHandle = {
    name: f.name,
    resolvedWith: argumentTypes,
    argumentTypes: f.argumentTypes,
    returnType: f.returnType,
    intermediateTypes: f.intermediateTypes,
  };
  if (ordering.length > 0) handle.ordering = ordering;
  if (lambdas.length > 0) handle.lambdas = lambdas;
  return handle;
}

/** Resolves a window call (a window function or an aggregate over a window): the handle the plan keeps. */
export function resolveWindowHandle(
  name: string,
  argumentTypes: SqlType[],
  location?: SourceLocation,
  options: { ordering?: AggregateOrdering[]; distinct?: boolean; lambdas?: LambdaExpression[] } = {},
): WindowFunctionHandle {
  const f = resolveWindowFunction(name, argumentTypes, location, options);
  const handle: WindowFunctionHandle = {
    name: f.name,
    resolvedWith: argumentTypes,
    argumentTypes: f.argumentTypes,
    returnType: f.returnType,
  };
  if (options.ordering !== undefined && options.ordering.length > 0) handle.ordering = options.ordering;
  if (options.distinct === true) handle.distinct = true;
  if (options.lambdas !== undefined && options.lambdas.length > 0) handle.lambdas = options.lambdas;
  return handle;
}

/** The function a handle names, from the registry. */
export function aggregateFunctionOf(handle: AggregateFunctionHandle): AggregateFunction {
  return resolveAggregateFunction(handle.name, handle.resolvedWith, undefined, handle.ordering, handle.lambdas);
}

export function windowFunctionOf(handle: WindowFunctionHandle): WindowFunction {
  return resolveWindowFunction(handle.name, handle.resolvedWith, undefined, handle);
}
