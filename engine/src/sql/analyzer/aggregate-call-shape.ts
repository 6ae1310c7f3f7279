// The arguments and ORDER BY keys an aggregate call passes to its function. Most calls pass what
// they say; listagg(x, 'sep' ON OVERFLOW ...) WITHIN GROUP (ORDER BY k) passes, as in Trino, the
// value, the separator ('' when absent), ON OVERFLOW ERROR (the default) as a boolean, the
// TRUNCATE filler ('...' by default) and WITH COUNT, as constants, then the WITHIN GROUP keys.

import { EngineError } from '../../errors/engine-error.js';
import { typeName } from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import { formatExpression } from '../parser/formatter.js';
import type { RowExpression } from '../planner/row-expression.js';
import { functionName } from './ast-utils.js';

export interface AggregateCallShape {
  args: ast.Expression[];
  orderBy: ast.SortItem[];
}

export function aggregateCallShape(call: ast.FunctionCall): AggregateCallShape {
  if (functionName(call) !== 'listagg') return { args: call.args, orderBy: call.orderBy ?? [] };
  const [value, separator, ...extra] = call.args;
  if (extra.length > 0 || (separator !== undefined && separator.kind !== 'StringLiteral')) {
    throw new EngineError(
      'SYNTAX_ERROR',
      'listagg takes a value and, optionally, a string literal separator',
      (separator ?? value).location,
    );
  }
  const overflow = call.listaggOverflow ?? { behavior: 'ERROR' };
  const location = call.location;
  const text = (v: string): ast.StringLiteral => ({ kind: 'StringLiteral', value: v, location });
  const flag = (v: boolean): ast.BooleanLiteral => ({ kind: 'BooleanLiteral', value: v, location });
  return {
    args: [
      value,
      text(separator?.kind === 'StringLiteral' ? separator.value : ''),
      flag(overflow.behavior === 'ERROR'),
      text(overflow.behavior === 'TRUNCATE' ? (overflow.filler ?? '...') : '...'),
      flag(overflow.behavior === 'TRUNCATE' && overflow.withCount),
    ],
    orderBy: call.withinGroup ?? [],
  };
}

/** Trino's check of listagg's value, with its message, before the function is resolved. */
export function checkAggregateArguments(call: ast.FunctionCall, args: readonly RowExpression[]): void {
  if (functionName(call) !== 'listagg') return;
  const type = args[0].type;
  if (type.kind !== 'varchar' && type.kind !== 'unknown') {
    throw new EngineError(
      'TYPE_MISMATCH',
      `Expected expression of varchar, but '${formatExpression(call.args[0])}' has ${typeName(type)} type`,
      call.location,
    );
  }
}
