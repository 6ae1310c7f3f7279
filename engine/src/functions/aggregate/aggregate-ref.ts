// Aggregate functions by name: a function object (with its accumulator factory) cannot cross a
// thread or the network, so a plan names it, and the reader resolves the name again in its own registry.

import type { AggregateFunction } from './aggregate-function.js';
import { resolveAggregateFunction } from './registry.js';
import { typesEqual, type SqlType } from '../../types/types.js';
import type { LambdaExpression } from '../../sql/planner/row-expression.js';

export interface AggregateRef {
  name: string;
  argumentTypes: SqlType[];
  ordering?: { ascending: boolean; nullsFirst: boolean }[];
  lambdas?: LambdaExpression[];
}

/**
 * The reference a worker resolves back to `f`, or undefined when resolving it would not give a
 * function with the same result and intermediate types (then it must stay in this thread).
 */
export function aggregateRef(f: AggregateFunction): AggregateRef | undefined {
  const ref: AggregateRef = { name: f.name, argumentTypes: f.argumentTypes };
  if (f.ordering !== undefined && f.ordering.length > 0) ref.ordering = [...f.ordering];
  if (f.lambdas !== undefined) ref.lambdas = [...f.lambdas];
  let resolved: AggregateFunction;
  try {
    resolved = resolveAggregateRef(ref);
  } catch {
    return undefined;
  }
  const same = (a: readonly SqlType[], b: readonly SqlType[]) => a.length === b.length && a.every((t, i) => typesEqual(t, b[i]));
  const matches =
    typesEqual(resolved.returnType, f.returnType) &&
    same(resolved.intermediateTypes, f.intermediateTypes) &&
    same(resolved.argumentTypes, f.argumentTypes);
  return matches ? ref : undefined;
}

export function resolveAggregateRef(ref: AggregateRef): AggregateFunction {
  return resolveAggregateFunction(ref.name, ref.argumentTypes, undefined, ref.ordering, ref.lambdas);
}
