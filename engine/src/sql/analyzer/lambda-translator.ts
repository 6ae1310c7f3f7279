// Calls with lambda arguments (`transform(a, x -> x + 1)`): the other arguments are translated
// first, then the function's signature fixes each lambda's parameter types, and the lambda's body is
// translated with its parameters in scope (shadowing columns of the same name; other names resolve
// as usual, so a body may capture the row's columns). As in Trino, a lambda is only ever a function
// argument, and its body holds no subquery, aggregation or window function.

import { EngineError } from '../../errors/engine-error.js';
import type { LambdaArgument } from '../../functions/scalar/function-parameters.js';
import { resolveScalarFunction } from '../../functions/scalar/registry.js';
import { type SqlType, typeName } from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import type { LambdaExpression, RowExpression } from '../planner/row-expression.js';
import { containsSubquery, expressionChildren, rejectAggregatesAndWindows } from './ast-utils.js';
import { coerce, translateExpression, type TranslationContext } from './expression-translator.js';

/** The lambda parameters in scope in a lambda's body, by name, with their types. */
export type LambdaScope = ReadonlyMap<string, SqlType>;

/** Whether any argument of the call is a lambda. */
export function hasLambdaArgument(e: ast.FunctionCall): boolean {
  return e.args.some((a) => a.kind === 'Lambda');
}

/** A call of scalar function `name` with lambda arguments. */
export function lambdaFunctionCall(
  e: ast.FunctionCall,
  name: string,
  translate: (e: ast.Expression) => RowExpression,
  context: TranslationContext,
): RowExpression {
  const values: Array<RowExpression | undefined> = [];
  const lambdas: Array<TypedLambda | undefined> = [];
  const argumentTypes = e.args.map((arg, i) => {
    if (arg.kind === 'Lambda') return (lambdas[i] = new TypedLambda(arg, context));
    return (values[i] = translate(arg)).type;
  });
  const signature = resolveScalarFunction(name, argumentTypes, e.location);
  const args = e.args.map(
    (arg, i) => lambdas[i]?.expression(signature.argumentTypes[i]) ?? coerce(values[i]!, signature.argumentTypes[i], arg.location),
  );
  return { kind: 'call', name: signature.name, args, type: signature.returnType };
}

/** A lambda argument to bind to function types (as a scalar call's lambdas are); a aggregate call's too. */
export function lambdaArgument(
  lambda: ast.Lambda,
  context: TranslationContext,
): LambdaArgument & { expression(type: SqlType): LambdaExpression } {
  return new TypedLambda(lambda, context);
}

/** The error for a lambda that is not a function's argument. */
export function misplacedLambda(e: ast.Lambda): EngineError {
  return new EngineError('TYPE_MISMATCH', 'Lambda expression should always be used inside a function', e.location);
}

/**
 * Whether `e` may refer to a parameter of an enclosing lambda (or is a lambda): such an expression
 * means something else outside the lambda, so hooks that map whole expressions (GROUP BY keys)
 * must not look at it.
 */
export function dependsOnLambda(e: ast.Expression, scope: LambdaScope | undefined): boolean {
  if (e.kind === 'Lambda') return true;
  if (scope === undefined) return false;
  if (e.kind === 'Identifier') return scope.has(e.value);
  for (const child of expressionChildren(e)) if (dependsOnLambda(child, scope)) return true;
  return false;
}

/** A lambda argument being bound: its body is translated once per set of parameter types asked for. */
class TypedLambda implements LambdaArgument {
  private readonly bodies = new Map<string, RowExpression>();

  constructor(
    private readonly lambda: ast.Lambda,
    private readonly context: TranslationContext,
  ) {
    checkBody(lambda.body);
  }

  get lambdaArity(): number {
    return this.lambda.parameters.length;
  }

  bodyType(parameterTypes: readonly SqlType[]): SqlType {
    return this.body(parameterTypes).type;
  }

  /** The lambda bound to function type `type` (its body coerced to the function's return type). */
  expression(type: SqlType): LambdaExpression {
    if (type.kind !== 'function') throw new Error(`a lambda bound to ${typeName(type)}`);
    const body = coerce(this.body(type.arguments), type.returnType, this.lambda.body.location);
    const parameters = this.lambda.parameters.map((p, i) => ({ name: p.value, type: type.arguments[i] }));
    return { kind: 'lambda', parameters, body, type };
  }

  private body(parameterTypes: readonly SqlType[]): RowExpression {
    const parameters = this.lambda.parameters;
    if (parameterTypes.length !== parameters.length) {
      throw new EngineError(
        'INVALID_PARAMETER_USAGE',
        `Expected a lambda that takes ${parameterTypes.length} argument(s) but got ${parameters.length}`,
        this.lambda.location,
      );
    }
    const key = parameterTypes.map(typeName).join(',');
    let body = this.bodies.get(key);
    if (body === undefined) {
      const scope = new Map(this.context.lambdaScope ?? []);
      parameters.forEach((p, i) => scope.set(p.value, parameterTypes[i]));
      body = translateExpression(this.lambda.body, { ...this.context, lambdaScope: scope });
      this.bodies.set(key, body);
    }
    return body;
  }
}

/** Trino's refusals of what a lambda body may not hold. */
function checkBody(body: ast.Expression): void {
  rejectAggregatesAndWindows(body, 'Lambda expression');
  if (containsSubquery(body)) throw new EngineError('NOT_SUPPORTED', 'Lambda expression cannot contain subqueries', body.location);
}
