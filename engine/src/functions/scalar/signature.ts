// Declared signatures of scalar functions and operators, and how actual argument types bind to
// them under Trino's implicit coercions.

import type { Scalar } from '../../types/scalar.js';
import { canCoerce, coerceTypeBase, commonSuperTypeOf } from '../../types/coercion.js';
import { type SqlType, mapOf, typeName, typesEqual } from '../../types/types.js';
import {
  type ArgumentType,
  type FunctionPattern,
  asLambdaArgument,
  bindFunctionArguments,
  formatFunctionPattern,
  isFunctionPattern,
  isLambdaArgument,
} from './function-parameters.js';

/** Families of parametric types a parameter may accept whole: decimal(p,s), varchar(x), ... */
export type TypeFamily = 'decimal' | 'varchar' | 'char' | 'timestamp' | 'time' | 'timestamp with time zone' | 'time with time zone';

/**
 * One declared parameter: an exact type (arguments coerce to it), any member of a family (an
 * argument of another family is coerced into it, e.g. integer -> decimal(10,0)), or a type variable
 * bound to the common super type of every argument that uses it.
 */
export type ParamPattern =
  | SqlType
  | { family: TypeFamily; strict?: boolean }
  | { variable: string }
  | ArrayPattern
  | FunctionPattern
  | MapPattern
  | AnyTypePattern;

/** An argument of any type, taken as it is (format's arguments; Trino binds them as one row). */
export interface AnyTypePattern {
  readonly anyType: true;
}

/**
 * `array(T)` (depth 1) or `array(array(T))` (depth 2) over the type variable T: the element type
 * an argument brings binds T together with the plain uses of T. A NULL argument fits only in
 * templates without plain uses of T (cardinality(NULL); never `concat(NULL, 'a')`).
 */
export interface ArrayPattern {
  readonly arrayOf: string;
  readonly depth?: 2;
}

/** `map(K, V)` over the type variables K and V: a map argument binds both (map-functions.ts). */
export interface MapPattern {
  readonly mapOf: readonly [key: string, value: string];
}

/**
 * A function body. `invoke` receives the arguments' scalar values (page.ts representation; a
 * lambda as a JS function over such values) and returns the result's, or null for SQL NULL. Unless `acceptsNulls`, it is never called with a NULL
 * argument: the caller yields NULL instead (RETURNS NULL ON NULL INPUT).
 */
export interface ScalarImplementation {
  invoke(...args: Scalar[]): Scalar;
  /** Whether invoke can return null for non-null arguments. */
  readonly mayReturnNull: boolean;
  /** Whether invoke is called with NULL arguments too (IS DISTINCT FROM). */
  readonly acceptsNulls: boolean;
  /**
   * The same computation as a JS expression over argument expressions, for the expression compiler
   * to inline in hot loops (only for one-operator bodies such as `a < b`).
   */
  readonly inline?: (args: readonly string[]) => string;
}

export interface SignatureTemplate {
  readonly params: readonly ParamPattern[];
  /** The last parameter repeats; at least `minArgs` arguments. */
  readonly variadic?: { minArgs: number };
  readonly returnType: SqlType | ((argumentTypes: readonly SqlType[]) => SqlType);
  /** How SHOW FUNCTIONS names a computed return type when it is not the first parameter's family. */
  readonly returnTypeDisplay?: string;
  /** A constraint on the bound argument types beyond the patterns (`T:orderable`). */
  readonly accepts?: (argumentTypes: readonly SqlType[]) => boolean;
  /** The body for these exact (bound) argument types and return type. */
  readonly implement: (argumentTypes: readonly SqlType[], returnType: SqlType) => ScalarImplementation;
}

export interface ScalarFunctionDefinition {
  /** The canonical name first, then aliases. */
  readonly names: readonly string[];
  readonly description: string;
  /** False for random(): never folded, never cached by value. Default true. */
  readonly deterministic?: boolean;
  /** Left out of SHOW FUNCTIONS, as Trino hides version(). */
  readonly hidden?: boolean;
  readonly signatures: readonly SignatureTemplate[];
}

/** Wraps a plain function as an implementation that never sees NULLs and never returns NULL. */
export function body(
  invoke: (...args: never[]) => Scalar,
  options: { mayReturnNull?: boolean; acceptsNulls?: boolean; inline?: (args: readonly string[]) => string } = {},
): ScalarImplementation {
  return {
    invoke: invoke as (...args: Scalar[]) => Scalar,
    mayReturnNull: options.mayReturnNull ?? false,
    acceptsNulls: options.acceptsNulls ?? false,
    inline: options.inline,
  };
}

/**
 * A body that is one JS operator on primitive values: `(a, b) => a < b` and its inline form come
 * from the same operator text, so the compiled and the interpreted paths cannot disagree.
 */
export function operatorBody(operator: string, wrap?: 'Math.fround'): ScalarImplementation {
  const expression = (a: string, b: string) => (wrap === undefined ? `(${a} ${operator} ${b})` : `${wrap}(${a} ${operator} ${b})`);
  const invoke = new Function('a', 'b', `return ${expression('a', 'b')};`) as (a: never, b: never) => Scalar;
  return body(invoke, { inline: ([a, b]) => expression(a, b) });
}

export interface BoundSignature {
  readonly template: SignatureTemplate;
  /** The types the caller must coerce the arguments to. */
  readonly argumentTypes: SqlType[];
  readonly returnType: SqlType;
}

function isFamily(p: ParamPattern): p is { family: TypeFamily; strict?: boolean } {
  return 'family' in p;
}
function isAnyType(p: ParamPattern): p is AnyTypePattern {
  return 'anyType' in p;
}
function isVariable(p: ParamPattern): p is { variable: string } {
  return 'variable' in p;
}
function isArrayPattern(p: ParamPattern): p is ArrayPattern {
  return 'arrayOf' in p;
}
function isMapPattern(p: ParamPattern): p is MapPattern {
  return 'mapOf' in p;
}
function variablesOf(p: ParamPattern): readonly string[] {
  return isVariable(p) ? [p.variable] : isArrayPattern(p) ? [p.arrayOf] : isMapPattern(p) ? p.mapOf : [];
}

/** The type of variable `name` an argument of type `actual` brings to pattern `p` (null: none, a NULL; undefined: no fit). */
function boundElement(p: ParamPattern, actual: SqlType, name: string): SqlType | null | undefined {
  if (isMapPattern(p)) {
    if (actual.kind === 'unknown') return null;
    if (actual.kind !== 'map') return undefined;
    return name === p.mapOf[0] ? actual.key : actual.value;
  }
  if (!isArrayPattern(p)) return actual;
  let t = actual;
  for (let level = 0; level < (p.depth ?? 1); level++) {
    if (t.kind === 'unknown') return null;
    if (t.kind !== 'array') return undefined;
    t = t.element;
  }
  return t;
}

function wrapArray(element: SqlType, depth: number): SqlType {
  let t = element;
  for (let level = 0; level < depth; level++) t = { kind: 'array', element: t };
  return t;
}

function expandParams(template: SignatureTemplate, count: number): readonly ParamPattern[] | undefined {
  const { params, variadic } = template;
  if (variadic === undefined) return count === params.length ? params : undefined;
  if (count < variadic.minArgs || count < params.length - 1) return undefined;
  const last = params[params.length - 1];
  return Array.from({ length: count }, (_, i) => (i < params.length - 1 ? params[i] : last));
}

/**
 * Binds actual argument types to a template, or undefined when they cannot coerce to it. Lambdas
 * bind to function parameters only, after the other arguments bound the variables they take.
 */
export function bindSignature(template: SignatureTemplate, arguments_: readonly ArgumentType[]): BoundSignature | undefined {
  const params = expandParams(template, arguments_.length);
  if (params === undefined) return undefined;
  const functions = new Map<number, FunctionPattern>();
  const lambdas = arguments_.map(asLambdaArgument);
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (isFunctionPattern(p)) functions.set(i, p);
    else if (isLambdaArgument(lambdas[i])) return undefined;
  }
  // Function parameters stand aside while the value arguments bind the variables.
  const actual = lambdas.map((a) => (isLambdaArgument(a) ? ({ kind: 'unknown' } as SqlType) : a));

  const variables = new Map<string, SqlType>();
  for (const name of new Set(params.flatMap(variablesOf))) {
    const plainUse = params.some((q) => isVariable(q) && q.variable === name);
    const uses: SqlType[] = [];
    for (let i = 0; i < params.length; i++) {
      if (!variablesOf(params[i]).includes(name)) continue;
      const element = boundElement(params[i], actual[i], name);
      if (element === undefined || (element === null && plainUse)) return undefined;
      if (element !== null) uses.push(element);
    }
    const bound = uses.length === 0 ? ({ kind: 'unknown' } as SqlType) : commonSuperTypeOf(uses);
    if (bound === undefined) return undefined;
    variables.set(name, bound);
  }
  const functionTypes = functions.size === 0 ? undefined : bindFunctionArguments(functions, lambdas, variables);
  if (functions.size > 0 && functionTypes === undefined) return undefined;

  const argumentTypes: SqlType[] = [];
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    let target: SqlType | undefined;
    if (isFunctionPattern(p)) {
      argumentTypes.push(functionTypes!.get(i)!);
      continue;
    }
    if (isVariable(p)) target = variables.get(p.variable);
    else if (isAnyType(p)) target = actual[i];
    else if (isArrayPattern(p)) target = wrapArray(variables.get(p.arrayOf) as SqlType, p.depth ?? 1);
    else if (isMapPattern(p)) target = mapOf(variables.get(p.mapOf[0]) as SqlType, variables.get(p.mapOf[1]) as SqlType);
    else if (isFamily(p))
      target = p.strict && actual[i].kind !== p.family && actual[i].kind !== 'unknown' ? undefined : coerceTypeBase(actual[i], p.family);
    else target = p;
    if (target === undefined || !canCoerce(actual[i], target)) return undefined;
    argumentTypes.push(target);
  }
  if (template.accepts !== undefined && !template.accepts(argumentTypes)) return undefined;
  const returnType = typeof template.returnType === 'function' ? template.returnType(argumentTypes) : template.returnType;
  return { template, argumentTypes, returnType };
}

/**
 * The best of several applicable bindings, as Trino chooses: an exact match (no coercion) first,
 * else the most specific one (whose parameter types coerce to every other's), else the first declared.
 */
export function chooseBinding(actual: readonly ArgumentType[], candidates: readonly BoundSignature[]): BoundSignature | undefined {
  if (candidates.length <= 1) return candidates[0];
  const exact = candidates.find((c) =>
    c.argumentTypes.every((t, i) => {
      const a = actual[i];
      return isLambdaArgument(a) || typesEqual(t, a);
    }),
  );
  if (exact !== undefined) return exact;
  const mostSpecific = candidates.find((c) =>
    candidates.every((d) => d === c || c.argumentTypes.every((t, i) => canCoerce(t, d.argumentTypes[i]))),
  );
  return mostSpecific ?? candidates[0];
}

/** A template as Trino lists it in "Expected: ..." messages: `abs(decimal(p,s))`, `concat(varchar(x), ...)`. */
export function formatTemplate(name: string, template: SignatureTemplate): string {
  const shown = template.params.map((p) => {
    if (isFunctionPattern(p)) return formatFunctionPattern(p);
    if (isAnyType(p)) return 'T';
    if (isVariable(p)) return p.variable;
    if (isArrayPattern(p)) return p.depth === 2 ? `array(array(${p.arrayOf}))` : `array(${p.arrayOf})`;
    if (isMapPattern(p)) return `map(${p.mapOf.join(',')})`;
    if (isFamily(p)) return FAMILY_DISPLAY[p.family];
    return typeName(p);
  });
  if (template.variadic !== undefined) shown[shown.length - 1] += '...';
  return `${name}(${shown.join(', ')})`;
}

const FAMILY_DISPLAY: Record<TypeFamily, string> = {
  decimal: 'decimal(p,s)',
  varchar: 'varchar(x)',
  char: 'char(x)',
  timestamp: 'timestamp(p)',
  time: 'time(p)',
  'timestamp with time zone': 'timestamp(p) with time zone',
  'time with time zone': 'time(p) with time zone',
};

/** The returned type of a template as SHOW FUNCTIONS prints it. */
export function formatTemplateReturnType(template: SignatureTemplate): string {
  if (typeof template.returnType !== 'function') return typeName(template.returnType);
  if (template.returnTypeDisplay !== undefined) return template.returnTypeDisplay;
  const probe = template.params.map((p) =>
    isFamily(p) || isAnyType(p) || isVariable(p) || isArrayPattern(p) || isFunctionPattern(p) || isMapPattern(p)
      ? undefined
      : (p as SqlType),
  );
  if (probe.every((t) => t !== undefined)) return typeName(template.returnType(probe as SqlType[]));
  const family = template.params.find(isFamily);
  if (family !== undefined) return FAMILY_DISPLAY[family.family];
  const variable = template.params.find(isVariable);
  return variable !== undefined ? variable.variable : 'unknown';
}
