// Calls of SQL routines: a call whose name a routine of the statement has (routine-scope.ts) calls
// the routine whose parameters its arguments fit (exactly first, else by coercion), searched in
// Trino's order (inline routines, built-in functions, sql.path's routines). Arguments may be named
// (`name => value`) after the positional ones.

import { EngineError } from '../../errors/engine-error.js';
import type { Session } from '../../spi/session.js';
import { type SqlType, typeName, typesEqual } from '../../types/types.js';
import { canCoerce } from '../../types/coercion.js';
import { isScalarFunctionName, resolveScalarFunction } from '../../functions/scalar/registry.js';
import { isAggregateFunctionName } from '../../functions/aggregate/registry.js';
import { isWindowFunctionName } from '../../functions/window/registry.js';
import type * as ast from '../parser/ast.js';
import type { RoutineCall, RowExpression } from '../planner/row-expression.js';
import { routinesOf, type RoutineDeclaration, type RoutineScope } from '../routines/routine-scope.js';
import { parametersOf } from '../routines/routine-analyzer.js';
import { functionName } from './ast-utils.js';
import { coerce, isKnownFunctionName } from './expression-translator.js';
import { hasLambdaArgument } from './lambda-translator.js';

interface Candidate {
  declaration: RoutineDeclaration;
  parameters: { name: string; type: SqlType }[];
}

/**
 * The routine call `e` is, or undefined when it calls a built-in function. A simple name is looked
 * up along Trino's path: the query's inline routines, then the built-in functions, then the
 * routines of the schemas on sql.path; the first whose candidates the arguments fit wins. An inline
 * routine named like an aggregate hides the aggregate (ast-utils.ts isAggregateCall), so a call it
 * does not fit names the inline routines it could have meant.
 */
export function routineCall(
  e: ast.FunctionCall,
  translate: (e: ast.Expression) => RowExpression,
  session: Session,
): RoutineCall | undefined {
  const scope = routinesOf(session);
  const name = functionName(e).toLowerCase();
  const declarations = scope?.candidates(name) ?? [];
  if (scope === undefined || declarations.length === 0) return undefined;
  const candidates: Candidate[] = declarations.map((declaration) => ({ declaration, parameters: parametersOf(declaration.specification) }));
  const builtin = !name.includes('.') && isKnownFunctionName(name);
  // A lambda argument has no type of its own: such a call is the built-in's.
  if (builtin && hasLambdaArgument(e)) return undefined;
  const names = argumentNames(e.args);
  const values = e.args.map((a) => translate(a.kind === 'NamedArgument' ? a.value : a));
  const inline = candidates.filter((c) => c.declaration.inline);
  const onPath = candidates.filter((c) => !c.declaration.inline);
  const fromInline = bestFit(inline, names, values);
  if (fromInline !== undefined) return invoke(scope, fromInline, e);
  const hiddenAggregate = inline.length > 0 && (isAggregateFunctionName(name) || isWindowFunctionName(name));
  if (builtin && !hiddenAggregate && (names.every((n) => n === undefined) ? builtinFits(name, values) : onPath.length === 0))
    return undefined;
  const fromPath = bestFit(onPath, names, values);
  if (fromPath !== undefined) return invoke(scope, fromPath, e);
  if (builtin && !hiddenAggregate) return undefined; // the built-in's own error names its signatures
  const unknown = names.find((n) => n !== undefined && !candidates.some((c) => c.parameters.some((p) => p.name === n.value.toLowerCase())));
  if (unknown !== undefined)
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `No argument named ${unknown.value.toLowerCase()} for ${name}`, unknown.location);
  const expected = candidates.map((c) => `${name}(${c.parameters.map((p) => typeName(p.type)).join(', ')})`).join(', ');
  throw new EngineError(
    'FUNCTION_NOT_FOUND',
    `Unexpected parameters (${values.map((v) => typeName(v.type)).join(', ')}) for function ${name}. Expected: ${expected}`,
    e.location,
  );
}

/** Whether the built-in scalar function `name` takes these arguments (special forms always do: they are the built-in's). */
function builtinFits(name: string, values: readonly RowExpression[]): boolean {
  if (!isScalarFunctionName(name)) return true;
  try {
    resolveScalarFunction(
      name,
      values.map((v) => v.type),
      undefined,
    );
    return true;
  } catch (error) {
    if (error instanceof EngineError && error.errorName === 'FUNCTION_NOT_FOUND') return false;
    throw error;
  }
}

interface Fit {
  candidate: Candidate;
  args: RowExpression[];
}

/** The candidate the arguments fit best (the most arguments of exactly the parameter's type), or undefined when they fit none. */
function bestFit(
  candidates: readonly Candidate[],
  names: readonly (ast.Identifier | undefined)[],
  values: readonly RowExpression[],
): Fit | undefined {
  const bound = candidates.flatMap((candidate) => {
    const args = bind(candidate, names, values);
    return args === undefined ? [] : [{ candidate, args }];
  });
  if (bound.length === 0) return undefined;
  const exactness = (b: Fit) => b.args.filter((a, i) => typesEqual(a.type, b.candidate.parameters[i].type)).length;
  return bound.reduce((a, b) => (exactness(b) > exactness(a) ? b : a));
}

function invoke(scope: RoutineScope, fit: Fit, e: ast.FunctionCall): RoutineCall {
  const routine = scope.routine(fit.candidate.declaration);
  return {
    kind: 'routine',
    routine,
    args: fit.args.map((a, i) => coerce(a, routine.parameters[i].type, e.location)),
    type: routine.returnType,
  };
}

/** Each argument's name (undefined for a positional one), checking positional ones come first and no name is given twice. */
function argumentNames(args: readonly ast.Expression[]): (ast.Identifier | undefined)[] {
  const seen = new Set<string>();
  let named = false;
  return args.map((a) => {
    if (a.kind !== 'NamedArgument') {
      if (named) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'Positional arguments cannot follow named arguments', a.location);
      return undefined;
    }
    named = true;
    const key = a.name.value.toLowerCase();
    if (seen.has(key)) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Duplicate named argument: ${key}`, a.name.location);
    seen.add(key);
    return a.name;
  });
}

/** The arguments in parameter order when they fit the candidate's parameters, else undefined. */
function bind(
  candidate: Candidate,
  names: readonly (ast.Identifier | undefined)[],
  values: readonly RowExpression[],
): RowExpression[] | undefined {
  const { parameters } = candidate;
  if (parameters.length !== values.length) return undefined;
  const ordered: RowExpression[] = new Array(parameters.length);
  for (let i = 0; i < values.length; i++) {
    const name = names[i];
    const position = name === undefined ? i : parameters.findIndex((p) => p.name === name.value.toLowerCase());
    if (position < 0 || ordered[position] !== undefined) return undefined;
    ordered[position] = values[i];
  }
  const fits = ordered.every(
    (a, i) => a.type.kind === 'unknown' || typesEqual(a.type, parameters[i].type) || canCoerce(a.type, parameters[i].type),
  );
  return fits ? ordered : undefined;
}
