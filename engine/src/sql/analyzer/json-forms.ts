// Translates the SQL/JSON forms (JSON_EXISTS, JSON_VALUE, JSON_QUERY, JSON_OBJECT, JSON_ARRAY) into
// calls of their internal functions (sqljson-functions.ts): the path and every clause go into one
// constant spec argument, checked here (the path's syntax, PASSING names, RETURNING types), so that
// a bad path fails at analysis with its position, as in Trino.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { JsonEncoding, SqlJsonSpec } from '../../functions/scalar/json/sqljson/sqljson-functions.js';
import { DATETIME_NOT_SUPPORTED, parseJsonPath } from '../../functions/scalar/json/sqljson/path-parser.js';
import type { JsonPath } from '../../functions/scalar/json/sqljson/path-ast.js';
import { canCast } from '../../types/casts.js';
import {
  BIGINT,
  BOOLEAN,
  type SqlType,
  VARCHAR,
  functionType,
  rowOf,
  isNumeric,
  isString,
  isTemporal,
  typeName,
  varchar,
} from '../../types/types.js';
import type * as ast from '../parser/ast.js';
import type { JsonExpression, JsonFormat, JsonPathInvocation, JsonValueExpression } from '../parser/ast-json.js';
import { constant, type RowExpression } from '../planner/row-expression.js';
import { ROW_CONSTRUCTOR } from '../../functions/scalar/row-operators.js';
import { sqlTypeOf } from './type-spec.js';

type Translate = (e: ast.Expression) => RowExpression;
type Coerce = (e: RowExpression, type: SqlType, location?: SourceLocation) => RowExpression;

function encodingOf(format: JsonFormat | undefined): JsonEncoding | null {
  if (format === undefined) return null;
  return format === 'JSON ENCODING UTF16' ? 'UTF16' : format === 'JSON ENCODING UTF32' ? 'UTF32' : 'UTF8';
}

/** A nested JSON_QUERY, JSON_OBJECT or JSON_ARRAY is JSON text: FORMAT JSON is implicit. */
function isJsonReturning(e: ast.Expression): boolean {
  return e.kind === 'JsonQuery' || e.kind === 'JsonObject' || e.kind === 'JsonArray';
}

function valueFormat(v: JsonValueExpression): JsonEncoding | null {
  return v.format === undefined && isJsonReturning(v.value) ? 'UTF8' : encodingOf(v.format);
}

/** The input must be text or binary JSON; an ENCODING applies to binary input only (Trino). */
function checkInput(value: RowExpression, format: JsonFormat | undefined, location: SourceLocation): void {
  const kind = value.type.kind;
  const binary = kind === 'varbinary' || kind === 'unknown';
  if ((!binary && kind !== 'varchar' && kind !== 'char' && kind !== 'json') || (!binary && format !== undefined && format !== 'JSON')) {
    throw new EngineError(
      'TYPE_MISMATCH',
      `Cannot read input of type ${typeName(value.type)} as JSON using formatting ${format ?? 'JSON'}`,
      location,
    );
  }
}

/** The input and PASSING arguments, and the spec fields they fill. */
/**
 * A path text parsed now, so that a bad one fails at analysis, at `location`; datetime(), which
 * Trino refuses at the path's literal, at `pathLocation` when the path was written as one.
 */
export function checkedPath(text: string, location: SourceLocation, pathLocation = location): JsonPath {
  try {
    return parseJsonPath(text);
  } catch (e) {
    if (e instanceof EngineError && e.location === undefined)
      throw new EngineError(e.errorName, e.rawMessage, e.rawMessage === DATETIME_NOT_SUPPORTED ? pathLocation : location);
    throw e;
  }
}

export function jsonInvocation(
  inv: JsonPathInvocation,
  functionName: string,
  translate: Translate,
): { args: RowExpression[]; spec: SqlJsonSpec } {
  const path = checkedPath(inv.path, inv.location, inv.pathLocation);
  const input = translate(inv.input.value);
  checkInput(input, inv.input.format, inv.input.location);
  const names = inv.passing.map((p) => (p.name.quoted ? p.name.value : p.name.value.toUpperCase()));
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate !== undefined)
    throw new EngineError('DUPLICATE_PARAMETER_NAME', `${functionName} parameter name ${duplicate} is used more than once`, inv.location);
  for (const variable of path.variables) {
    if (!names.includes(variable))
      throw new EngineError(
        'INVALID_PATH',
        `no value passed for parameter ${variable}. Try quoting "${variable}" in the PASSING clause to match case`,
        inv.location,
      );
  }
  const args = [input, ...inv.passing.map((p) => translate(p.value.value))];
  const formats = [inv.input.format === undefined ? null : encodingOf(inv.input.format), ...inv.passing.map((p) => valueFormat(p.value))];
  return { args, spec: { path: inv.path, names, formats } };
}

function call(name: string, spec: SqlJsonSpec, args: RowExpression[], type: SqlType): RowExpression {
  const text = JSON.stringify(spec);
  return { kind: 'call', name, args: [constant(text, varchar(text.length)), ...args], type };
}

/** RETURNING of JSON_QUERY, JSON_OBJECT and JSON_ARRAY: a character string or varbinary (default varchar). */
export function jsonReturning(
  spec: ast.TypeSpec | undefined,
  format: JsonFormat | undefined,
  location: SourceLocation,
): { type: SqlType; encoding?: JsonEncoding } {
  if (spec === undefined) return { type: VARCHAR };
  const type = sqlTypeOf(spec);
  if (!isString(type) && type.kind !== 'varbinary')
    throw new EngineError('TYPE_MISMATCH', `Cannot output JSON value as ${typeName(type)} using formatting JSON`, location);
  return { type, encoding: type.kind === 'varbinary' ? (encodingOf(format) ?? 'UTF8') : undefined };
}

/** A DEFAULT value as a lambda of no parameters: evaluated only when its ON EMPTY / ON ERROR clause applies. */
function lazyDefault(value: RowExpression): RowExpression {
  return { kind: 'lambda', parameters: [], body: value, type: functionType([], value.type) };
}

/**
 * JSON_TABLE's DEFAULT values as one lambda `(i) -> ROW(IF(i = 0, d0), IF(i = 1, d1), ...)`: column
 * i's default is evaluated only when its clause applies, the others stay unevaluated NULLs.
 */
export function lazyDefaults(values: readonly RowExpression[]): RowExpression {
  const index: RowExpression = { kind: 'variable', name: 'default_index', type: BIGINT };
  const fields = values.map((value, i): RowExpression => {
    const chosen: RowExpression = { kind: 'call', name: 'equal', args: [index, constant(BigInt(i), BIGINT)], type: BOOLEAN };
    return { kind: 'special', form: 'if', args: [chosen, value], type: value.type };
  });
  const body: RowExpression =
    fields.length === 0
      ? constant(null, BOOLEAN)
      : { kind: 'call', name: ROW_CONSTRUCTOR, args: fields, type: rowOf(values.map((v) => ({ type: v.type }))) };
  return { kind: 'lambda', parameters: [{ name: 'default_index', type: BIGINT }], body, type: functionType([BIGINT], body.type) };
}

/**
 * A JSON_ARRAY element or JSON_OBJECT value without FORMAT: a boolean, number, string or json, else a
 * value Trino casts to varchar. As Trino, NOT_SUPPORTED for varbinary (at the value) and for a type
 * with no cast to varchar (at the call).
 */
function checkMemberValue(
  value: RowExpression,
  format: JsonEncoding | null,
  functionName: string,
  valueLocation: SourceLocation,
  callLocation: SourceLocation,
): RowExpression {
  const type = value.type;
  if (format !== null || type.kind === 'json' || type.kind === 'boolean' || isNumeric(type) || isString(type)) return value;
  if (type.kind !== 'varbinary' && canCast(type, VARCHAR)) return value;
  throw new EngineError(
    'NOT_SUPPORTED',
    `Unsupported type of value passed to ${functionName} function: ${typeName(type)}`,
    type.kind === 'varbinary' ? valueLocation : callLocation,
  );
}

export function translateJsonForm(e: JsonExpression, translate: Translate, coerce: Coerce): RowExpression {
  switch (e.kind) {
    case 'JsonExists': {
      const { args, spec } = jsonInvocation(e.invocation, 'JSON_EXISTS', translate);
      return call('$json_exists', { ...spec, onError: e.onError }, args, BOOLEAN);
    }
    case 'JsonValue': {
      const { args, spec } = jsonInvocation(e.invocation, 'JSON_VALUE', translate);
      const type = e.returning === undefined ? VARCHAR : sqlTypeOf(e.returning);
      if (!isString(type) && !isNumeric(type) && !isTemporal(type) && type.kind !== 'boolean') {
        throw new EngineError('TYPE_MISMATCH', `Invalid return type of function JSON_VALUE: ${typeName(type)}`, e.location);
      }
      const defaults = [e.onEmpty, e.onError].map((behavior) =>
        lazyDefault(behavior?.type === 'DEFAULT' ? coerce(translate(behavior.value), type, behavior.value.location) : constant(null, type)),
      );
      return call('$json_value', { ...spec, onEmpty: e.onEmpty?.type, onError: e.onError?.type }, [...defaults, ...args], type);
    }
    case 'JsonQuery': {
      const { args, spec } = jsonInvocation(e.invocation, 'JSON_QUERY', translate);
      const { type, encoding } = jsonReturning(e.returning, e.returningFormat, e.location);
      if (e.quotes !== undefined && !e.quotes.keep && e.wrapper !== undefined && e.wrapper !== 'WITHOUT') {
        throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'OMIT QUOTES behavior is not specified for WITH WRAPPER behavior', e.location);
      }
      return call(
        '$json_query',
        {
          ...spec,
          wrapper: e.wrapper,
          omitQuotes: e.quotes !== undefined && !e.quotes.keep,
          onEmpty: e.onEmpty,
          onError: e.onError,
          encoding,
        },
        args,
        type,
      );
    }
    case 'JsonArray': {
      const { type, encoding } = jsonReturning(e.returning, e.returningFormat, e.location);
      const args = e.elements.map((element) =>
        checkMemberValue(translate(element.value), valueFormat(element), 'JSON_ARRAY', element.location, e.location),
      );
      const spec: SqlJsonSpec = { formats: e.elements.map(valueFormat), absentOnNull: e.nullOnNull !== true, encoding };
      return call('$json_array', spec, args, type);
    }
    case 'JsonObject': {
      const { type, encoding } = jsonReturning(e.returning, e.returningFormat, e.location);
      const args: RowExpression[] = [];
      for (const member of e.members) {
        const key = translate(member.key);
        if (!isString(key.type) && key.type.kind !== 'unknown')
          throw new EngineError('TYPE_MISMATCH', `Invalid type of JSON object key: ${typeName(key.type)}`, member.key.location);
        args.push(
          key,
          checkMemberValue(translate(member.value.value), valueFormat(member.value), 'JSON_OBJECT', member.value.location, e.location),
        );
      }
      if (e.uniqueKeys === true && e.members.some((m) => m.value.format !== undefined)) {
        throw new EngineError(
          'NOT_SUPPORTED',
          'WITH UNIQUE KEYS behavior is not supported for JSON_OBJECT function when input expression has FORMAT',
          e.location,
        );
      }
      const spec: SqlJsonSpec = {
        formats: e.members.map((m) => valueFormat(m.value)),
        absentOnNull: e.nullOnNull === false,
        uniqueKeys: e.uniqueKeys === true,
        encoding,
      };
      return call('$json_object', spec, args, type);
    }
  }
}
