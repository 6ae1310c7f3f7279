// `value.method(args)` calls (Trino's instance methods, functions/scalar/methods.ts). Written on a
// plain name, `s.length()` reads as a method call when `s` resolves as a column (or lambda
// parameter) and the method fits, as in Trino (SQL:2023 6.3 SR 2); otherwise as a function named `s.length`.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { resolveInstanceMethod } from '../../functions/scalar/methods.js';
import type * as ast from '../parser/ast.js';
import type { RowExpression } from '../planner/row-expression.js';
import type { BoundCall } from './static-method-call.js';

export function methodCall(
  receiver: RowExpression,
  method: ast.Identifier,
  args: RowExpression[],
  location: SourceLocation,
  call: BoundCall,
): RowExpression {
  const all = [receiver, ...args];
  return call(
    resolveInstanceMethod(
      method.value,
      all.map((a) => a.type),
      location,
    ),
    all,
  );
}

/**
 * `a.m(args)` as a method call on the column (or lambda parameter) `a`, or undefined when the call
 * is no plain two-part call, `a` does not resolve, or no method `m` fits (then it is a function call).
 */
export function columnMethodCall(
  e: ast.FunctionCall,
  resolves: (name: string) => boolean,
  translate: (e: ast.Expression) => RowExpression,
  call: BoundCall,
): RowExpression | undefined {
  if (
    e.name.parts.length !== 2 ||
    e.distinct ||
    e.starArg ||
    e.filter ||
    e.orderBy ||
    e.window ||
    e.nullTreatment ||
    e.processingMode ||
    e.withinGroup
  )
    return undefined;
  const [receiverName, method] = e.name.parts;
  if (!resolves(receiverName.value)) return undefined;
  const receiver = translate(receiverName);
  const args = e.args.map(translate);
  try {
    return methodCall(receiver, method, args, e.location, call);
  } catch (error) {
    if (error instanceof EngineError && error.errorName === 'FUNCTION_NOT_FOUND') return undefined;
    throw error;
  }
}
