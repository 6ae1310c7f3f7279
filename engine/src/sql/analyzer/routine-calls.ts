// Calls of SQL routines: a call whose name a routine of the statement has (routine-scope.ts) calls
// the routine whose parameters its arguments fit (exactly first, else by coercion), hiding a
// built-in function of the same name and number of arguments, as Trino resolves inline functions
// first. Arguments may be named (`name => value`) after the positional ones.

import { EngineError } from '../../errors/engine-error.js';
import type { Session } from '../../spi/session.js';
import { type SqlType, typeName, typesEqual } from '../../types/types.js';
import { canCoerce } from '../../types/coercion.js';
import { isScalarFunctionName } from '../../functions/scalar/registry.js';
import type * as ast from '../parser/ast.js';
import type { RoutineCall, RowExpression } from '../planner/row-expression.js';
import { routinesOf, type RoutineDeclaration } from '../routines/routine-scope.js';
import { parametersOf } from '../routines/routine-analyzer.js';
import { functionName } from './ast-utils.js';
import { coerce } from './expression-translator.js';

interface Candidate {
  declaration: RoutineDeclaration;
  parameters: { name: string; type: SqlType }[];
}

/** The routine call `e` is, or undefined when no routine of the statement has its name. */
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
  // A built-in function of the name is hidden only by routines it could be confused with: those taking as many arguments.
  if (isScalarFunctionName(name) && !candidates.some((c) => c.parameters.length === e.args.length)) return undefined;
  const names = argumentNames(e.args);
  const values = e.args.map((a) => translate(a.kind === 'NamedArgument' ? a.value : a));
  const bound = candidates.flatMap((c) => {
    const args = bind(c, names, values);
    return args === undefined ? [] : [{ candidate: c, args }];
  });
  if (bound.length === 0) {
    const unknown = names.find(
      (n) => n !== undefined && !candidates.some((c) => c.parameters.some((p) => p.name === n.value.toLowerCase())),
    );
    if (unknown !== undefined)
      throw new EngineError('INVALID_FUNCTION_ARGUMENT', `No argument named ${unknown.value.toLowerCase()} for ${name}`, unknown.location);
    const expected = candidates.map((c) => `${name}(${c.parameters.map((p) => typeName(p.type)).join(', ')})`).join(', ');
    throw new EngineError(
      'FUNCTION_NOT_FOUND',
      `Unexpected parameters (${values.map((v) => typeName(v.type)).join(', ')}) for function ${name}. Expected: ${expected}`,
      e.location,
    );
  }
  // The best fit: the most arguments of exactly the parameter's type.
  const exactness = (b: (typeof bound)[number]) => b.args.filter((a, i) => typesEqual(a.type, b.candidate.parameters[i].type)).length;
  const best = bound.reduce((a, b) => (exactness(b) > exactness(a) ? b : a));
  const routine = scope.routine(best.candidate.declaration);
  return {
    kind: 'routine',
    routine,
    args: best.args.map((a, i) => coerce(a, routine.parameters[i].type, e.location)),
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
