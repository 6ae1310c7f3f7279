// ORDER BY inside an aggregate call, checked as Trino checks it: its keys must be orderable, and
// with DISTINCT they must be arguments of the call (the rows a DISTINCT call keeps would otherwise
// have no one order). Only an order-sensitive function (array_agg, listagg, map_agg,
// multimap_agg) gets the keys; for any other the ORDER BY is dropped, as Trino's
// PruneOrderByInAggregation drops it: count(x ORDER BY y) is count(x).

import { EngineError } from '../../errors/engine-error.js';
import { isOrderSensitiveAggregate } from '../../functions/aggregate/registry.js';
import { isOrderable } from '../../functions/scalar/map-comparison.js';
import { typeName } from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import { expressionKey, type RowExpression } from '../planner/row-expression.js';
import { functionName } from './ast-utils.js';

export interface CallSortKey {
  item: ast.SortItem;
  expression: RowExpression;
}

/**
 * The sort keys the call's function takes (its ORDER BY, checked, or none). Over a window (as in
 * Trino) DISTINCT may sort by keys outside the arguments, and the keys then also tell rows apart,
 * so a DISTINCT call keeps them whatever its function.
 */
export function functionSortKeys(
  call: ast.FunctionCall,
  keys: readonly CallSortKey[],
  args: readonly RowExpression[],
  overWindow = false,
): CallSortKey[] {
  for (const { expression } of keys) {
    if (!isOrderable(expression.type))
      throw new EngineError(
        'TYPE_MISMATCH',
        `ORDER BY can only be applied to orderable types (actual: ${typeName(expression.type)})`,
        call.location,
      );
  }
  if (overWindow) return call.distinct || isOrderSensitiveAggregate(functionName(call)) ? [...keys] : [];
  if (call.distinct) {
    const argumentKeys = new Set(args.map(expressionKey));
    const outside = keys.find((k) => !argumentKeys.has(expressionKey(k.expression)));
    if (outside !== undefined)
      throw new EngineError(
        'EXPRESSION_NOT_IN_DISTINCT',
        'For aggregate function with DISTINCT, ORDER BY expressions must appear in arguments',
        outside.item.key.location,
      );
  }
  return isOrderSensitiveAggregate(functionName(call)) ? [...keys] : [];
}
