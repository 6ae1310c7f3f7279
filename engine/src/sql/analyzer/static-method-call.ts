// `type::method(args)` calls (Trino's static method calls). Trino defines one on rows:
// ROW::fields(r), the field names of r's row type (NULL for an unnamed field), whatever r's value.

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';
import { typeName } from '../../types/types.js';
import type { RowExpression } from '../planner/row-expression.js';

/** Whether the call is one the engine implements (the others stay NOT_SUPPORTED). */
export function isSupportedStaticMethod(e: ast.StaticMethodCall): boolean {
  return e.target.parts.length === 1 && e.target.parts[0].value.toLowerCase() === 'row' && e.method.value.toLowerCase() === 'fields';
}

/** ROW::fields(r) as a call of the `$row_fields` function. */
export function staticMethodCall(
  e: ast.StaticMethodCall,
  translate: (e: ast.Expression) => RowExpression,
  functionCall: (name: string, args: RowExpression[]) => RowExpression,
): RowExpression {
  const args = e.args.map(translate);
  if (args.length !== 1 || args[0].type.kind !== 'row') {
    throw new EngineError('FUNCTION_NOT_FOUND', `Unexpected parameters (${args.map((a) => typeName(a.type)).join(', ')}) for function row::fields. Expected: row::fields(row)`, e.location);
  }
  return functionCall('$row_fields', args);
}
