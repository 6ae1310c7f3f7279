// Translates AST expressions into typed RowExpressions: resolves names in a scope, types literals,
// resolves functions and operators, and inserts casts for Trino's implicit coercions.
// Aggregates, window functions and subqueries are not translated here: the query planner hands
// in a hook that maps them to the symbols of the plan nodes that compute them.

import { jsonLiteral } from '../../types/json/json-parse.js';
import { translateJsonForm } from './json-forms.js';
import { castToJsonRefusal } from '../../types/json/json-cast-refusal.js';
import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { isAggregateFunctionName } from '../../functions/aggregate/registry.js';
import {
  isScalarFunctionName,
  resolveOperator,
  resolveScalarFunction,
  resolveSyntaxOperator,
  type ScalarFunctionSignature,
  type SyntaxOperatorName,
} from '../../functions/scalar/registry.js';
import { isWindowFunctionName } from '../../functions/window/registry.js';
import { canCoerce, commonSuperTypeOf } from '../../types/coercion.js';
import { parseDecimal } from '../../types/decimal.js';
import { canCast } from '../../types/casts.js';
import { rowCastMismatch } from '../../types/row-type.js';
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  INTEGER,
  INTERVAL_DAY_SECOND,
  INTERVAL_YEAR_MONTH,
  UNKNOWN,
  VARBINARY,
  VARCHAR,
  arrayOf,
  decimal,
  typeName,
  typesEqual,
  varchar,
  type SqlType,
} from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import { constant, special, specialOf, symbolRef, type RowExpression, type Symbol } from '../planner/row-expression.js';
import { currentTimeConstant, currentTimestamp } from './current-time.js';
import {
  atTimeZone,
  castExpression,
  sessionZoneCall,
  SESSION_ZONE_FUNCTION_NAMES,
  zonedLiteralType,
  zonedTimeLiteralType,
} from './time-zone-translation.js';
import { findUnknownFunction, functionName } from './ast-utils.js';
import { sqlTypeOf } from './type-spec.js';
import { rowConstructor, rowFieldByName, rowSubscript } from './row-expressions.js';
import { unsupportedNode } from './unsupported-features.js';
import { staticMethodCall } from './static-method-call.js';
import { columnMethodCall, methodCall } from './method-call.js';
import { isInstanceMethodName } from '../../functions/scalar/methods.js';
import { withSessionZones } from './implicit-zone-casts.js';
import { dependsOnLambda, hasLambdaArgument, lambdaFunctionCall, misplacedLambda, type LambdaScope } from './lambda-translator.js';

const SESSION_FUNCTIONS = ['current_user', 'current_catalog', 'current_schema', 'current_timezone'] as const;
type SessionFunction = (typeof SESSION_FUNCTIONS)[number];
import { intervalLiteralValue } from './interval-literal.js';
import type { Scope } from './scope.js';
import type { Session } from '../../spi/session.js';
import { routineCall } from './routine-calls.js';
import { currentGroups } from './current-groups.js';
import { inlineRoutineNamed, routinesOf } from '../routines/routine-scope.js';

/** Called before default translation; returns a RowExpression to use instead, or undefined. */
export type TranslationHook = (expression: ast.Expression, translate: (e: ast.Expression) => RowExpression) => RowExpression | undefined;

export interface TranslationContext {
  scope: Scope;
  session: Session;
  /** Values for `?` parameters of EXECUTE ... USING. */
  parameters: readonly RowExpression[];
  hook?: TranslationHook;
  /** Outer symbols this expression refers to (correlation), collected as found. */
  correlated?: Map<number, Symbol>;
  /** What the expression is for, used in messages: 'WHERE clause', ... */
  clause?: string;
  /** In a lambda's body: the parameters of the enclosing lambdas. */
  lambdaScope?: LambdaScope;
}

export function translateExpression(expression: ast.Expression, context: TranslationContext): RowExpression {
  const translate = (e: ast.Expression): RowExpression => {
    const hooked = context.hook === undefined || dependsOnLambda(e, context.lambdaScope) ? undefined : context.hook(e, translate);
    if (hooked) return hooked;
    return translateNode(e, context, translate);
  };
  return withSessionZones(translate(expression), context.session);
}

/** Wraps `e` in a cast to `type` unless it already has that type. */
export function coerce(e: RowExpression, type: SqlType, location?: SourceLocation): RowExpression {
  if (typesEqual(e.type, type)) return e;
  if (e.type.kind === 'unknown') return typedNull(e, type);
  if (!canCoerce(e.type, type)) {
    throw new EngineError('TYPE_MISMATCH', `Cannot coerce ${typeName(e.type)} to ${typeName(type)}`, location);
  }
  return { kind: 'cast', arg: e, type, safe: false };
}

/** NULL of `type` in place of an expression of unknown type; a described `?` takes `type` as its own. */
function typedNull(e: RowExpression, type: SqlType): RowExpression {
  if (e.kind === 'constant' && e.parameter) e.parameter.inferred ??= type;
  return constant(null, type);
}

/** Coerces an expression used as a condition to boolean, with Trino's message on failure. */
export function coerceToBoolean(e: RowExpression, what: string, location: SourceLocation): RowExpression {
  if (e.type.kind === 'boolean') return e;
  if (e.type.kind === 'unknown') return typedNull(e, BOOLEAN);
  throw new EngineError('TYPE_MISMATCH', `${what} must evaluate to a boolean: actual type ${typeName(e.type)}`, location);
}

/** The common super type of `exprs`, or a TYPE_MISMATCH naming `what`. */
export function commonTypeOrFail(exprs: readonly RowExpression[], what: string, location: SourceLocation): SqlType {
  const type = commonSuperTypeOf(exprs.map((e) => e.type));
  if (!type) {
    throw new EngineError(
      'TYPE_MISMATCH',
      `${what} must be the same type or coercible to a common type. Cannot find common type between ${exprs.map((e) => typeName(e.type)).join(', ')}`,
      location,
    );
  }
  return type;
}

type Translate = (e: ast.Expression) => RowExpression;

function translateNode(e: ast.Expression, context: TranslationContext, translate: Translate): RowExpression {
  switch (e.kind) {
    case 'Identifier':
      return resolveName([e.value], e.location, context);
    case 'Dereference':
      return dereference(e, context, translate);
    case 'NullLiteral':
      return constant(null, UNKNOWN);
    case 'BooleanLiteral':
      return constant(e.value, BOOLEAN);
    case 'LongLiteral':
      return longLiteral(e);
    case 'DecimalLiteral':
      return decimalLiteral(e.text, e.location);
    case 'DoubleLiteral':
      return constant(e.value, DOUBLE);
    case 'StringLiteral':
      return constant(e.value, varchar(e.value.length));
    case 'BinaryLiteral':
      return constant(hexToBytes(e.hex, e.location), VARBINARY);
    case 'GenericLiteral':
      return genericLiteral(e, context.session);
    case 'IntervalLiteral':
      return constant(intervalLiteralValue(e), isYearMonth(e) ? INTERVAL_YEAR_MONTH : INTERVAL_DAY_SECOND);
    case 'Parameter':
      return parameter(e, context);
    case 'ArithmeticBinary':
      return arithmetic(e, translate);
    case 'ArithmeticUnary':
      return arithmeticUnary(e, translate);
    case 'Comparison':
      return comparison(e.operator, translate(e.left), translate(e.right), e.location);
    case 'LogicalBinary':
      return logicalBinary(e, translate);
    case 'Not':
      return special('not', BOOLEAN, coerceToBoolean(translate(e.value), 'Value of logical NOT expression', e.value.location));
    case 'IsNull':
      return isNull(e, translate);
    case 'IsDistinctFrom':
      return isDistinctFrom(e, translate);
    case 'Between':
      return between(e, translate);
    case 'BooleanTest':
      return booleanTest(e, translate(e.value));
    case 'InList':
      return inList(e, translate);
    case 'Like':
      return like(e, translate);
    case 'SearchedCase':
      return searchedCaseOf(e, translate);
    case 'SimpleCase':
      return simpleCaseOf(e, translate);
    case 'Cast':
      return cast(e, translate, context.session);
    case 'AtTimeZone':
      return atTimeZone(
        translate(e.value),
        e.zone && translate(e.zone),
        context.session,
        (name, args) => functionCall(name, args, e.location),
        e.location,
      );
    case 'Extract':
      return functionCall(EXTRACT_FUNCTIONS[e.field] ?? e.field.toLowerCase(), [translate(e.value)], e.location);
    case 'FunctionCall':
      return translateFunctionCall(e, translate, context);
    case 'CurrentTime':
      return currentTimeConstant(e, context.session);
    case 'Concat':
      return operatorCall('concat', [translate(e.left), translate(e.right)], e.location);
    case 'Row':
      return rowConstructor(e, translate);
    case 'AllColumns':
      throw new EngineError('SYNTAX_ERROR', 'Unexpected *', e.location);
    case 'Subquery':
    case 'Exists':
    case 'InSubquery':
    case 'QuantifiedComparison':
      throw new EngineError('NOT_SUPPORTED', 'Subqueries are not supported in this position', e.location);
    case 'Array':
      return arrayConstructor(e, translate);
    case 'Subscript':
      return subscript(e, translate);
    case 'Overlay':
      return syntaxOperatorCall(
        'overlay',
        translateAll(e.length ? [e.value, e.replacement, e.start, e.length] : [e.value, e.replacement, e.start], translate),
        e.location,
      );
    case 'Lambda':
      throw misplacedLambda(e);
    case 'StaticMethodCall':
      return staticMethodCall(e, translate, (signature, args) => boundCall(signature, args, e.location));
    case 'MethodCall':
      return methodCall(translate(e.base), e.method, translateAll(e.args, translate), e.location, (signature, args) =>
        boundCall(signature, args, e.location),
      );
    case 'MatchPredicate':
    case 'Unique':
    case 'Measure':
    case 'NamedArgument':
    case 'CaseOperand':
      throw unsupportedNode(e);
    case 'JsonExists':
    case 'JsonValue':
    case 'JsonQuery':
    case 'JsonObject':
    case 'JsonArray':
      return translateJsonForm(e, translate, coerce);
  }
}

// The translations of the nodes with operands, each in its own function: translation recurses
// through translateNode once per nesting level, and a small frame there is what lets 1,000 levels fit.

/** `a.b`: a qualified column name when one resolves, else field `b` of the row `a` (always when `a` starts with a lambda parameter, which hides columns). */
function dereference(e: ast.DereferenceExpression, context: TranslationContext, translate: Translate): RowExpression {
  const parts = qualifiedParts(e);
  const ofLambdaParameter = parts !== undefined && context.lambdaScope?.get(parts[0]) !== undefined;
  if (parts && !ofLambdaParameter && (context.scope.tryResolve(parts, e.location) || !resolvesAsRowBase(e.base, context)))
    return resolveName(parts, e.location, context);
  return rowFieldByName(translate(e.base), e);
}

/** Whether the base of `a.b` names something (a column, or itself a field of one) that may be a row. */
function resolvesAsRowBase(base: ast.Expression, context: TranslationContext): boolean {
  const parts = qualifiedParts(base);
  if (!parts) return true;
  return (
    context.scope.tryResolve(parts, base.location) !== undefined || (base.kind === 'Dereference' && resolvesAsRowBase(base.base, context))
  );
}

function parameter(e: ast.Parameter, context: TranslationContext): RowExpression {
  const value = context.parameters[e.index];
  if (!value) {
    throw new EngineError(
      'INVALID_PARAMETER_USAGE',
      `Incorrect number of parameters: expected at least ${e.index + 1} but found ${context.parameters.length}`,
      e.location,
    );
  }
  return value;
}

function arithmetic(e: ast.ArithmeticBinary, translate: Translate): RowExpression {
  return operatorCall(ARITHMETIC[e.operator], [translate(e.left), translate(e.right)], e.location);
}

function arithmeticUnary(e: ast.ArithmeticUnary, translate: Translate): RowExpression {
  const value = translate(e.value);
  return e.operator === '+' ? value : operatorCall('negate', [value], e.location);
}

function logicalBinary(e: ast.LogicalBinary, translate: Translate): RowExpression {
  const left = coerceToBoolean(translate(e.left), 'Left side of logical expression', e.left.location);
  const right = coerceToBoolean(translate(e.right), 'Right side of logical expression', e.right.location);
  return special(e.operator === 'AND' ? 'and' : 'or', BOOLEAN, left, right);
}

function isNull(e: ast.IsNullPredicate, translate: Translate): RowExpression {
  const test = special('is_null', BOOLEAN, translate(e.value));
  return e.negated ? special('not', BOOLEAN, test) : test;
}

function isDistinctFrom(e: ast.IsDistinctFrom, translate: Translate): RowExpression {
  const distinct = operatorCall('is_distinct_from', [translate(e.left), translate(e.right)], e.location);
  return e.negated ? special('not', BOOLEAN, distinct) : distinct;
}

function between(e: ast.BetweenPredicate, translate: Translate): RowExpression {
  const args = [translate(e.value), translate(e.min), translate(e.max)];
  const type = commonTypeOrFail(args, 'BETWEEN operands', e.location);
  const form = e.symmetry === 'SYMMETRIC' ? 'between_symmetric' : 'between';
  const test = special(form, BOOLEAN, ...args.map((a) => coerce(a, type, e.location)));
  return e.negated ? special('not', BOOLEAN, test) : test;
}

function inList(e: ast.InListPredicate, translate: Translate): RowExpression {
  const args = [translate(e.value), ...e.list.map(translate)];
  const type = commonTypeOrFail(args, 'IN value and list items', e.location);
  const test = specialOf(
    'in',
    BOOLEAN,
    args.map((a) => coerce(a, type, e.location)),
  );
  return e.negated ? special('not', BOOLEAN, test) : test;
}

function like(e: ast.LikePredicate, translate: Translate): RowExpression {
  // A char(n) value stays char: LIKE matches it padded to n, as Trino's like(char(x), pattern) does.
  const value = translate(e.value);
  const patterns = [translate(e.pattern), ...(e.escape ? [translate(e.escape)] : [])].map((a) => toVarchar(a, e.location));
  const test = special('like', BOOLEAN, value.type.kind === 'char' ? value : toVarchar(value, e.location), ...patterns);
  return e.negated ? special('not', BOOLEAN, test) : test;
}

function searchedCaseOf(e: ast.SearchedCase, translate: Translate): RowExpression {
  const branches: CaseBranch[] = new Array(e.whenClauses.length);
  for (let i = 0; i < branches.length; i++) {
    const w = e.whenClauses[i];
    branches[i] = { condition: coerceToBoolean(translate(w.operand), 'CASE WHEN clause', w.operand.location), result: translate(w.result) };
  }
  return searchedCase(branches, e.defaultValue ? translate(e.defaultValue) : undefined, e.location);
}

function simpleCaseOf(e: ast.SimpleCase, translate: Translate): RowExpression {
  const operand = translate(e.operand);
  const branches: CaseBranch[] = [];
  for (const w of e.whenClauses)
    branches.push({ condition: comparison('=', operand, translate(w.operand), w.location), result: translate(w.result) });
  return searchedCase(branches, e.defaultValue ? translate(e.defaultValue) : undefined, e.location);
}

function cast(e: ast.Cast, translate: Translate, session: Session): RowExpression {
  const value = translate(e.value);
  const type = sqlTypeOf(e.type);
  if (value.type.kind === 'unknown') return constant(null, type);
  // Trino refuses a cast that does not exist at analysis, even for TRY_CAST and for no rows.
  if (!canCast(value.type, type)) {
    const refusal = type.kind === 'json' ? castToJsonRefusal(value.type, (t) => canCast(t, VARCHAR)) : undefined;
    throw refusal ?? new EngineError('TYPE_MISMATCH', rowCastMismatch(value.type, type), e.location);
  }
  return castExpression(value, type, e.safe, session);
}

/**
 * `x IS [NOT] TRUE | FALSE | UNKNOWN`: never NULL. IS TRUE is `coalesce(x, false)`, IS FALSE is
 * `coalesce(NOT x, false)`, IS UNKNOWN is `x IS NULL`; NOT negates the result. x is evaluated once.
 */
function booleanTest(e: ast.BooleanTest, value: RowExpression): RowExpression {
  if (value.type.kind !== 'boolean' && value.type.kind !== 'unknown') {
    throw new EngineError(
      'TYPE_MISMATCH',
      `Boolean test value must evaluate to a boolean (actual: ${typeName(value.type)})`,
      e.value.location,
    );
  }
  const operand = coerce(value, BOOLEAN, e.location);
  const test =
    e.truthValue === 'UNKNOWN'
      ? special('is_null', BOOLEAN, operand)
      : special('coalesce', BOOLEAN, e.truthValue === 'TRUE' ? operand : special('not', BOOLEAN, operand), constant(false, BOOLEAN));
  return e.negated ? special('not', BOOLEAN, test) : test;
}

const ARITHMETIC: Record<ast.ArithmeticOperator, string> = { '+': 'add', '-': 'subtract', '*': 'multiply', '/': 'divide', '%': 'modulus' };
const COMPARISON: Record<ast.ComparisonOperator, string> = {
  '=': 'equal',
  '<>': 'not_equal',
  '<': 'less_than',
  '<=': 'less_than_or_equal',
  '>': 'greater_than',
  '>=': 'greater_than_or_equal',
};
const EXTRACT_FUNCTIONS: Partial<Record<ast.ExtractField, string>> = {
  DAY_OF_MONTH: 'day',
  DOW: 'day_of_week',
  DOY: 'day_of_year',
  YOW: 'year_of_week',
};

export function comparison(
  operator: ast.ComparisonOperator,
  left: RowExpression,
  right: RowExpression,
  location: SourceLocation,
): RowExpression {
  return operatorCall(COMPARISON[operator], [left, right], location);
}

export function operatorCall(name: string, args: RowExpression[], location: SourceLocation): RowExpression {
  const signature = resolveOperator(
    name as Parameters<typeof resolveOperator>[0],
    args.map((a) => a.type),
    location,
  );
  return {
    kind: 'call',
    name: signature.name,
    args: args.map((a, i) => coerce(a, signature.argumentTypes[i], location)),
    type: signature.returnType,
  };
}

export function functionCall(name: string, args: RowExpression[], location: SourceLocation): RowExpression {
  return boundCall(
    resolveScalarFunction(
      name,
      args.map((a) => a.type),
      location,
    ),
    args,
    location,
  );
}

/** A call of the resolved `signature`, its arguments coerced to the signature's types. */
function boundCall(signature: ScalarFunctionSignature, args: RowExpression[], location: SourceLocation): RowExpression {
  return {
    kind: 'call',
    name: signature.name,
    args: args.map((a, i) => coerce(a, signature.argumentTypes[i], location)),
    type: signature.returnType,
  };
}

/** `ARRAY[a, b, ...]`: the elements coerced to their common super type; `ARRAY[]` is array(unknown). */
function arrayConstructor(e: ast.ArrayConstructor, translate: Translate): RowExpression {
  const items = translateAll(e.items, translate);
  if (items.length === 0) return constant([], arrayOf(UNKNOWN));
  return syntaxOperatorCall('array_constructor', items, e.location);
}

/** `base[index]` on an array (1-based), a map (by key) or a row (a constant 1-based field index). */
function subscript(e: ast.Subscript, translate: Translate): RowExpression {
  const base = translate(e.base);
  if (base.type.kind === 'row') return rowSubscript(base, e.index, e.location, translate);
  if (base.type.kind !== 'array' && base.type.kind !== 'map' && base.type.kind !== 'variant' && base.type.kind !== 'unknown') {
    throw new EngineError('TYPE_MISMATCH', `Cannot use ${typeName(base.type)} for subscript`, e.location);
  }
  return syntaxOperatorCall('subscript', [base, translate(e.index)], e.location);
}

function syntaxOperatorCall(name: SyntaxOperatorName, args: RowExpression[], location: SourceLocation): RowExpression {
  const signature = resolveSyntaxOperator(
    name,
    args.map((a) => a.type),
    location,
  );
  return {
    kind: 'call',
    name: signature.name,
    args: args.map((a, i) => coerce(a, signature.argumentTypes[i], location)),
    type: signature.returnType,
  };
}

/** Functions with their own translation below (not in a registry). */
const SPECIAL_FUNCTIONS: ReadonlySet<string> = new Set([
  'coalesce',
  'nullif',
  'if',
  'try',
  'typeof',
  'grouping',
  'now',
  'current_groups',
  ...SESSION_FUNCTIONS,
  ...SESSION_ZONE_FUNCTION_NAMES,
]);

/** Whether `name` is a function of any kind: special, scalar, aggregate or window. */
export function isKnownFunctionName(name: string): boolean {
  const key = name.toLowerCase();
  return SPECIAL_FUNCTIONS.has(key) || isScalarFunctionName(key) || isAggregateFunctionName(key) || isWindowFunctionName(key);
}

/** Whether `a.m(...)` may be a method call on a column `a` (known once names resolve). */
function mayBeMethodCall(name: string): boolean {
  const parts = name.split('.');
  return parts.length === 2 && isInstanceMethodName(parts[1]);
}

/** FUNCTION_NOT_FOUND for the first call in `expressions` to a function that does not exist, whatever its arguments. */
export function rejectUnknownFunctions(expressions: readonly ast.Expression[], session: Session): void {
  const routines = routinesOf(session);
  const known = (name: string) => isKnownFunctionName(name) || routines?.has(name) === true;
  for (const e of expressions) {
    const unknown = findUnknownFunction(e, (name) => known(name) || mayBeMethodCall(name));
    if (unknown)
      throw new EngineError('FUNCTION_NOT_FOUND', `Function '${functionName(unknown).toLowerCase()}' not registered`, unknown.location);
  }
}

function translateFunctionCall(e: ast.FunctionCall, translate: Translate, context: TranslationContext): RowExpression {
  const name = functionName(e);
  if (e.window) throw new EngineError('NOT_SUPPORTED', `Window function ${name} is not allowed here`, e.location);
  // count(*) is a call without arguments, as in Trino: an inline routine count() takes it.
  if (e.distinct || e.filter || (e.starArg && !inlineRoutineNamed(name)) || e.orderBy) {
    throw new EngineError('FUNCTION_NOT_FOUND', `Function '${name}' not registered`, e.location);
  }
  const resolves = (receiver: string) =>
    context.lambdaScope?.has(receiver) === true || context.scope.tryResolve([receiver], e.location) !== undefined;
  const asMethod = columnMethodCall(e, resolves, translate, (signature, args) => boundCall(signature, args, e.location));
  if (asMethod !== undefined) return asMethod;
  const routine = routineCall(e, translate, context.session);
  if (routine) return routine;
  const named = e.args.find((a) => a.kind === 'NamedArgument');
  if (named) throw new EngineError('NOT_SUPPORTED', 'Named function arguments are not supported', named.location);
  // Special functions in a function of their own: nested calls recurse through this one, kept small.
  const special = SPECIAL_TRANSLATIONS.get(name);
  if (special) return special(e, translate, context);
  if (hasLambdaArgument(e) && isScalarFunctionName(name)) return lambdaFunctionCall(e, name, translate, context);
  // The arguments in a loop here, not in a helper: nested calls recurse through this frame.
  const args: RowExpression[] = new Array(e.args.length);
  for (let i = 0; i < args.length; i++) args[i] = translate(e.args[i]);
  const zoned = sessionZoneCall(name, args, context.session, (n, a) => functionCall(n, a, e.location));
  if (zoned !== undefined) return zoned;
  return name === 'coalesce' ? coalesce(args, e.location) : functionCall(name, args, e.location);
}

type SpecialTranslation = (e: ast.FunctionCall, translate: Translate, context: TranslationContext) => RowExpression;

/** The special functions with a translation of their own from the call's syntax, called directly: nested calls recurse through them. */
const SPECIAL_TRANSLATIONS: ReadonlyMap<string, SpecialTranslation> = new Map<string, SpecialTranslation>([
  ['nullif', nullIf],
  ['if', ifCall],
  ['try', tryCall],
  ['typeof', typeofCall],
  ['now', (e, _translate, context) => (e.args.length > 0 ? functionCall('now', [], e.location) : currentTimestamp(context.session))],
  [
    'current_groups',
    (e, translate, context) => currentGroups(e, () => translateAll(e.args, translate).map((a) => typeName(a.type)), context.session),
  ],
  ...SESSION_FUNCTIONS.map((name): [string, SpecialTranslation] => [
    name,
    (e, _translate, context) => sessionFunction(name, e, context.session),
  ]),
]);

/** coalesce(...) over its translated arguments (translated with those of ordinary calls, one frame less per level). */
function coalesce(args: RowExpression[], location: SourceLocation): RowExpression {
  const type = commonTypeOrFail(args, 'All COALESCE operands', location);
  return special('coalesce', type, ...args.map((a) => coerce(a, type, location)));
}

function nullIf(e: ast.FunctionCall, translate: Translate): RowExpression {
  if (e.args.length !== 2) throw new EngineError('INVALID_ARGUMENTS', 'NULLIF requires two arguments', e.location);
  const [a, b] = translateAll(e.args, translate);
  const type = commonTypeOrFail([a, b], 'NULLIF operands', e.location);
  return special('nullif', a.type, a, coerce(b, type, e.location), ...(typesEqual(type, a.type) ? [] : [constant(null, type)]));
}

function ifCall(e: ast.FunctionCall, translate: Translate): RowExpression {
  if (e.args.length < 2 || e.args.length > 3) throw new EngineError('INVALID_ARGUMENTS', 'IF requires two or three arguments', e.location);
  const condition = coerceToBoolean(translate(e.args[0]), 'IF condition', e.args[0].location);
  return searchedCase([{ condition, result: translate(e.args[1]) }], e.args[2] ? translate(e.args[2]) : undefined, e.location);
}

function tryCall(e: ast.FunctionCall, translate: Translate): RowExpression {
  if (e.args.length !== 1) throw new EngineError('INVALID_ARGUMENTS', 'TRY requires one argument', e.location);
  const value = translate(e.args[0]);
  return special('try', value.type, value);
}

/** typeof(x): the name of x's type, known at analysis (x is not evaluated). */
function typeofCall(e: ast.FunctionCall, translate: Translate): RowExpression {
  if (e.args.length !== 1)
    throw new EngineError('TYPE_MISMATCH', `Unexpected parameters for function typeof. Expected: typeof(t)`, e.location);
  const name = typeName(translate(e.args[0]).type);
  return constant(name, varchar(name.length));
}

/** `translate` of each expression, in a loop (Array.map would add a frame per nesting level). */
function translateAll(expressions: readonly ast.Expression[], translate: Translate): RowExpression[] {
  const result: RowExpression[] = new Array(expressions.length);
  for (let i = 0; i < expressions.length; i++) result[i] = translate(expressions[i]);
  return result;
}

/** Functions whose value is a fact of the session, fixed for the query. */
function sessionFunction(name: SessionFunction, e: ast.FunctionCall, session: Session): RowExpression {
  if (e.args.length > 0)
    throw new EngineError('TYPE_MISMATCH', `Unexpected parameters for function ${name}. Expected: ${name}()`, e.location);
  const value = {
    current_user: session.user,
    current_catalog: session.catalog,
    current_schema: session.schema,
    current_timezone: session.timeZone,
  }[name];
  return value === undefined ? constant(null, varchar()) : constant(value, varchar(value.length));
}

interface CaseBranch {
  condition: RowExpression;
  result: RowExpression;
}

function searchedCase(branches: CaseBranch[], defaultValue: RowExpression | undefined, location: SourceLocation): RowExpression {
  const results = branches.map((b) => b.result);
  if (defaultValue) results.push(defaultValue);
  const type = commonTypeOrFail(results, 'All CASE results', location);
  const args: RowExpression[] = [];
  for (const b of branches) args.push(b.condition, coerce(b.result, type, location));
  args.push(defaultValue ? coerce(defaultValue, type, location) : constant(null, type));
  return special('switch', type, ...args);
}

function toVarchar(e: RowExpression, location: SourceLocation): RowExpression {
  if (e.type.kind === 'varchar') return e;
  if (e.type.kind === 'char' || e.type.kind === 'unknown') return coerce(e, varchar(), location);
  throw new EngineError('TYPE_MISMATCH', `Left side of LIKE expression must evaluate to a varchar (actual: ${typeName(e.type)})`, location);
}

function resolveName(parts: string[], location: SourceLocation, context: TranslationContext): RowExpression {
  const parameterType = parts.length === 1 ? context.lambdaScope?.get(parts[0]) : undefined;
  if (parameterType !== undefined) return { kind: 'variable', name: parts[0], type: parameterType };
  const resolved = context.scope.resolve(parts, location);
  if (resolved.depth > 0) context.correlated?.set(resolved.field.symbol.id, resolved.field.symbol);
  return symbolRef(resolved.field.symbol);
}

/** `a.b.c` as name parts, or undefined when the base is not a plain name. */
export function qualifiedParts(e: ast.Expression): string[] | undefined {
  if (e.kind === 'Identifier') return [e.value];
  if (e.kind === 'Dereference') {
    const base = qualifiedParts(e.base);
    return base ? [...base, e.field.value] : undefined;
  }
  return undefined;
}

const MAX_INT = 2147483647n;
const MIN_INT = -2147483648n;
const MAX_BIGINT = 9223372036854775807n;
const MIN_BIGINT = -9223372036854775808n;

function longLiteral(e: ast.LongLiteral): RowExpression {
  if (e.value >= MIN_INT && e.value <= MAX_INT) return constant(Number(e.value), INTEGER);
  if (e.value >= MIN_BIGINT && e.value <= MAX_BIGINT) return constant(e.value, BIGINT);
  throw new EngineError('INVALID_LITERAL', `Invalid numeric literal: ${e.text}`, e.location);
}

function decimalLiteral(text: string, location: SourceLocation): RowExpression {
  const parsed = parseDecimal(text);
  if (!parsed || parsed.precision > 38) throw new EngineError('INVALID_LITERAL', `Invalid decimal literal: ${text}`, location);
  return constant(parsed.unscaled, decimal(parsed.precision, parsed.scale));
}

function genericLiteral(e: ast.GenericLiteral, session: Session): RowExpression {
  const name = e.type.name;
  if (name === 'decimal' && e.type.parameters.length === 0) return decimalLiteral(e.value.trim(), e.location);
  let type = sqlTypeOf(e.type);
  if (type.kind === 'json') return constant(jsonLiteral(e.value, e.location), type);
  // Trino types a TIMESTAMP literal that ends in a zone `timestamp(p) with time zone`.
  const zoned = zonedLiteralType(type, e.value, e.type.parameters.length > 0, e.location);
  if (zoned !== undefined) return castExpression(constant(e.value, varchar(e.value.length)), zoned, false, session);
  const zonedTime = zonedTimeLiteralType(type, e.value, e.type.parameters.length > 0);
  if (zonedTime !== undefined) return { kind: 'cast', arg: constant(e.value, varchar(e.value.length)), type: zonedTime, safe: false };
  if (type.kind === 'time' && ZONED_TIME.test(e.value)) {
    // Trino's time with time zone has offsets only: a zone name is not a time literal.
    throw new EngineError('INVALID_LITERAL', `'${e.value}' is not a valid TIME literal`, e.location);
  }
  if ((type.kind === 'timestamp' || type.kind === 'time') && e.type.parameters.length === 0)
    type = { kind: type.kind, precision: literalPrecision(type.kind, e.value, e.location) };
  if (type.kind === 'char' && e.type.parameters.length === 0) type = { kind: 'char', length: e.value.length };
  if (type.kind === 'varchar' && e.type.parameters.length === 0) type = varchar(e.value.length);
  // A typed literal is a cast of its text, checked now: a bad literal is an error at analysis time.
  return { kind: 'cast', arg: constant(e.value, varchar(e.value.length)), type, safe: false };
}

/** A time of day followed by a zone: an offset (`+01:00`) or a zone name (`UTC`, `Europe/Paris`). */
const ZONED_TIME = /\d:\d\d(?::\d\d(?:\.\d*)?)?\s*(?:[+-]\d{1,2}(?::?\d\d)?|[A-Za-z][\w/+-]*)\s*$/;

/** The precision of TIMESTAMP or TIME text: its fraction digits, at most 12 (Trino's message and code beyond). */
function literalPrecision(kind: 'timestamp' | 'time', text: string, location: SourceLocation): number {
  const m = /\.(\d+)/.exec(text.trim());
  const digits = m ? m[1].length : 0;
  if (digits > 12)
    throw new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `${kind.toUpperCase()} precision must be in range [0, 12]: ${digits}`, location);
  return digits;
}

function isYearMonth(e: ast.IntervalLiteral): boolean {
  return e.startField === 'YEAR' || e.startField === 'MONTH';
}

function hexToBytes(hex: string, location: SourceLocation): Uint8Array {
  const clean = hex.replace(/\s+/g, '');
  if (clean.length % 2 !== 0 || /[^0-9a-fA-F]/.test(clean)) {
    throw new EngineError('INVALID_LITERAL', 'Binary literal must contain an even number of digits', location);
  }
  return Uint8Array.from(Buffer.from(clean, 'hex'));
}
