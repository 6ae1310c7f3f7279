// Whether an expression gives the same value each time it is evaluated over the same row: only such
// an expression may move to where it runs once per row in another place (pushed down, or run on threads).

import { isDeterministicFunction } from '../../functions/scalar/registry.js';
import { children, type RowExpression } from './row-expression.js';

export function isDeterministic(e: RowExpression): boolean {
  if (e.kind === 'call' && !isDeterministicFunction(e.name)) return false;
  return children(e).every(isDeterministic);
}
