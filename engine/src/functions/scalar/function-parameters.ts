// Function-typed parameters of signatures (Trino's `function(T,U)`), and how lambda arguments bind
// to them: the lambda's parameter types come from type variables the other arguments bound, its
// body is analyzed with them (by the caller, through LambdaArgument), and the body's type binds the
// function's return variable. A return variable that a plain argument bound too (reduce's state S)
// widens to the body's type, and the lambdas are analyzed again, until nothing changes.
//
// A function taking a lambda declares the parameter with functionOf (`functionOf([K, V], BOOLEAN)` for
// Trino's `function(K,V,boolean)`), its variables bound by the other parameters' patterns, and
// computes its return type from the bound function types with lambdaResult; its body receives the
// compiled lambda as a JS function over scalars (null for SQL NULL). See array-lambda-functions.ts.

import { commonSuperType } from '../../types/coercion.js';
import { type SqlType, functionType, typeName, typesEqual } from '../../types/types.js';

/** A type inside a function pattern: an exact type or a type variable. */
export type FunctionTypePart = SqlType | { readonly variable: string };

/** `function(A1, ..., An, R)`: a parameter that takes a lambda of n parameters. */
export interface FunctionPattern {
  readonly functionOf: readonly FunctionTypePart[];
  readonly returns: FunctionTypePart;
}

/**
 * A lambda among a call's arguments, as the binder sees it: its number of parameters, and the type
 * of its body for given parameter types (analyzing the body, which may fail with the body's error
 * or with Trino's error for a lambda of another arity; undefined when it does not fit).
 */
export interface LambdaArgument {
  readonly lambdaArity: number;
  bodyType(parameterTypes: readonly SqlType[]): SqlType | undefined;
}

/** An argument's type at binding: a value's type, or a lambda to be typed. */
export type ArgumentType = SqlType | LambdaArgument;

/** `function(parameters..., returns)` in a signature. */
export function functionOf(parameters: FunctionPattern['functionOf'], returns: FunctionPattern['returns']): FunctionPattern {
  return { functionOf: parameters, returns };
}

/** The return type of the lambda bound at `position` (for a template's computed return type). */
export function lambdaResult(boundTypes: readonly SqlType[], position: number): SqlType {
  const type = boundTypes[position];
  if (type.kind !== 'function') throw new Error(`argument ${position} is bound to ${typeName(type)}, not a function type`);
  return type.returnType;
}

export function isLambdaArgument(a: ArgumentType): a is LambdaArgument {
  return 'lambdaArity' in a;
}

export function isFunctionPattern(p: object): p is FunctionPattern {
  return 'functionOf' in p;
}

/** `function(T,U)` as signatures are listed. */
export function formatFunctionPattern(p: FunctionPattern): string {
  return `function(${[...p.functionOf, p.returns].map((t) => ('variable' in t ? t.variable : typeName(t))).join(',')})`;
}

/** How an argument type shows in "Unexpected parameters (...)": a lambda as Trino shows one, `<function>`. */
export function argumentTypeName(a: ArgumentType): string {
  return isLambdaArgument(a) ? '<function>' : typeName(a);
}

/**
 * A bound function type as an argument (a compiled call binding its own resolved types again): it
 * fits only the parameter types it was bound with.
 */
export function asLambdaArgument(a: ArgumentType): ArgumentType {
  if (isLambdaArgument(a) || a.kind !== 'function') return a;
  return {
    lambdaArity: a.arguments.length,
    bodyType: (parameterTypes) =>
      parameterTypes.length === a.arguments.length && parameterTypes.every((t, i) => typesEqual(t, a.arguments[i]))
        ? a.returnType
        : undefined,
  };
}

/** Rounds of widening a return variable before giving up (each round analyzes the lambdas again). */
const MAX_ROUNDS = 8;

/**
 * Binds the function parameters at `positions` to their lambdas, extending `variables`; the bound
 * function types by position, or undefined when a lambda does not fit.
 */
export function bindFunctionArguments(
  patterns: ReadonlyMap<number, FunctionPattern>,
  actual: readonly ArgumentType[],
  variables: Map<string, SqlType>,
): Map<number, SqlType> | undefined {
  const bound = new Map<number, SqlType>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let changed = false;
    for (const [position, pattern] of patterns) {
      const lambda = actual[position];
      if (!isLambdaArgument(lambda)) return undefined;
      const parameterTypes = pattern.functionOf.map((part) => resolvePart(part, variables));
      if (parameterTypes.some((t) => t === undefined)) continue;
      const parameters = parameterTypes as SqlType[];
      const body = lambda.bodyType(parameters);
      if (body === undefined) return undefined;
      const returnType = bindReturn(pattern.returns, body, variables);
      if (returnType === undefined) return undefined;
      if (returnType.changed) changed = true;
      bound.set(position, functionType(parameters, returnType.type));
    }
    if (!changed) return bound.size === patterns.size ? bound : undefined;
  }
  return undefined;
}

function resolvePart(part: FunctionTypePart, variables: ReadonlyMap<string, SqlType>): SqlType | undefined {
  return 'variable' in part ? variables.get(part.variable) : part;
}

/**
 * The lambda's return type given its body's. As in Trino, a body's type is never coerced: an exact
 * return type must be the body's; a variable binds to the body's type, or, bound already to a
 * narrower type, widens to the body's (`changed`: the lambdas that use it are analyzed again, and
 * must then return it exactly).
 */
function bindReturn(
  part: FunctionTypePart,
  body: SqlType,
  variables: Map<string, SqlType>,
): { type: SqlType; changed: boolean } | undefined {
  if (!('variable' in part)) return typesEqual(part, body) ? { type: part, changed: false } : undefined;
  const current = variables.get(part.variable);
  if (current !== undefined && typesEqual(current, body)) return { type: current, changed: false };
  if (current !== undefined && !typesEqual(commonSuperType(current, body) ?? current, body)) return undefined;
  variables.set(part.variable, body);
  return { type: body, changed: true };
}
