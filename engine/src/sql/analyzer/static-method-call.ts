// `type::method(args)` calls (Trino's static methods). The receiver must name a type (else
// TYPE_NOT_FOUND); its methods are declared per type (functions/scalar/methods.ts), and ROW::fields(r)
// gives the field names of r's row type (NULL for an unnamed field), whatever r's value.

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';
import { parseTypeSpec } from '../../types/parse-type.js';
import { typeName } from '../../types/types.js';
import { resolveStaticMethod } from '../../functions/scalar/methods.js';
import { type ScalarFunctionSignature, resolveScalarFunction } from '../../functions/scalar/registry.js';
import type { RowExpression } from '../planner/row-expression.js';

/** A resolved signature applied to arguments (their coercions added). */
export type BoundCall = (signature: ScalarFunctionSignature, args: RowExpression[]) => RowExpression;

/** Parametric types with no default instance: still type names a static method may be called on. */
const PARAMETRIC_BASES = new Set(['row', 'array', 'map']);

export function staticMethodCall(e: ast.StaticMethodCall, translate: (e: ast.Expression) => RowExpression, call: BoundCall): RowExpression {
  const receiver = e.target.parts.length === 1 ? e.target.parts[0].value.toLowerCase() : undefined;
  if (receiver === undefined || !isTypeName(receiver)) {
    throw new EngineError('TYPE_NOT_FOUND', `Unknown type: ${e.target.parts.map((p) => p.value.toLowerCase()).join('.')}`, e.location);
  }
  const args = e.args.map(translate);
  if (receiver === 'row' && e.method.value.toLowerCase() === 'fields') return rowFields(args, e, call);
  return call(
    resolveStaticMethod(
      receiver,
      e.method.value,
      args.map((a) => a.type),
      e.location,
    ),
    args,
  );
}

function isTypeName(name: string): boolean {
  if (PARAMETRIC_BASES.has(name)) return true;
  try {
    parseTypeSpec(name, []);
    return true;
  } catch (error) {
    if (error instanceof EngineError && error.errorName === 'TYPE_NOT_FOUND') return false;
    throw error;
  }
}

/** ROW::fields(r) as a call of the `$row_fields` function. */
function rowFields(args: RowExpression[], e: ast.StaticMethodCall, call: BoundCall): RowExpression {
  if (args.length !== 1 || args[0].type.kind !== 'row') {
    throw new EngineError(
      'FUNCTION_NOT_FOUND',
      `Unexpected parameters (${args.map((a) => typeName(a.type)).join(', ')}) for function row::fields. Expected: row::fields(row)`,
      e.location,
    );
  }
  return call(resolveScalarFunction('$row_fields', [args[0].type], e.location), args);
}
