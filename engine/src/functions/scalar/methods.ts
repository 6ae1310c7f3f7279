// Trino's methods: instance methods on values ('abc'.length()) and static methods on types
// (varchar::chr(65)). Each is a declared set per receiver type (Trino's VarcharMethods and
// CharMethods), not every function taking the value first: a method resolves among the overloads
// of the plain function of its name whose first parameter is the receiver's type family (an
// instance method) and whose arity is one the method declares.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { SqlType } from '../../types/types.js';
import type { ArgumentType } from './function-parameters.js';
import { type ScalarFunctionSignature, resolveScalarFunctionAmong } from './registry.js';
import type { ParamPattern, SignatureTemplate } from './signature.js';

/** Method name -> the argument counts it takes (after the receiver, for an instance method). */
type MethodSet = ReadonlyMap<string, readonly number[]>;

/** Instance methods by the receiver type's base name. */
const INSTANCE_METHODS: ReadonlyMap<string, MethodSet> = new Map([
  [
    'varchar',
    new Map([
      ['length', [0]],
      ['lower', [0]],
      ['upper', [0]],
      ['replace', [1, 2]],
      ['reverse', [0]],
      ['strpos', [1, 2]],
      ['substring', [1, 2]],
      ['split', [1, 2]],
      ['trim', [0, 1]],
      ['ltrim', [0, 1]],
      ['rtrim', [0, 1]],
      ['lpad', [2]],
      ['rpad', [2]],
      ['to_utf8', [0]],
      ['starts_with', [1]],
      ['ends_with', [1]],
      ['translate', [2]],
    ]),
  ],
  [
    'char',
    new Map([
      ['length', [0]],
      ['reverse', [0]],
      ['substring', [1, 2]],
      ['lower', [0]],
      ['upper', [0]],
      ['lpad', [2]],
      ['to_utf8', [0]],
    ]),
  ],
]);

/** Static methods by the receiver type's name (ROW::fields has a translation of its own: static-method-call.ts). */
const STATIC_METHODS: ReadonlyMap<string, MethodSet> = new Map([
  [
    'varchar',
    new Map([
      ['chr', [1]],
      ['from_utf8', [1, 2]],
    ]),
  ],
]);

/** Whether some type has an instance method of this name (a call `a.name(...)` may be one). */
export function isInstanceMethodName(name: string): boolean {
  const lower = name.toLowerCase();
  return [...INSTANCE_METHODS.values()].some((methods) => methods.has(lower));
}

/** `receiver.method(args)`: `argumentTypes` start with the receiver's. FUNCTION_NOT_FOUND as Trino when no method fits. */
export function resolveInstanceMethod(
  method: string,
  argumentTypes: readonly SqlType[],
  location: SourceLocation,
): ScalarFunctionSignature {
  const base = argumentTypes[0].kind;
  const arities = INSTANCE_METHODS.get(base)?.get(method.toLowerCase()) ?? [];
  const accepts = (t: SignatureTemplate) => !t.variadic && arities.includes(t.params.length - 1) && isOfBase(t.params[0], base);
  return resolveScalarFunctionAmong(method, accepts, argumentTypes, location);
}

/** `type::method(args)` for a type name other than ROW. */
export function resolveStaticMethod(
  typeName: string,
  method: string,
  argumentTypes: readonly ArgumentType[],
  location: SourceLocation,
): ScalarFunctionSignature {
  const arities = STATIC_METHODS.get(typeName)?.get(method.toLowerCase());
  if (arities === undefined) throw new EngineError('FUNCTION_NOT_FOUND', `Function '${method.toLowerCase()}' not registered`, location);
  return resolveScalarFunctionAmong(method, (t) => !t.variadic && arities.includes(t.params.length), argumentTypes, location);
}

/** Whether a declared parameter takes values of the type base `base` (varchar(x), char(x), ...). */
function isOfBase(parameter: ParamPattern, base: string): boolean {
  if ('family' in parameter) return parameter.family === base;
  return 'kind' in parameter && parameter.kind === base;
}
