// The SQL/JSON functions behind JSON_EXISTS, JSON_VALUE, JSON_QUERY, JSON_OBJECT and JSON_ARRAY. The
// analyzer (json-forms.ts) calls them as $json_exists(spec, input, passing...) and so on: `spec` is a
// constant JSON text holding the path and the clauses; the other arguments are the row's values.
// Errors are handled by the ON EMPTY / ON ERROR clauses as Trino's Json*Function classes handle them.

import { EngineError } from '../../../../errors/engine-error.js';
import type { ErrorName } from '../../../../errors/error-codes.js';
import type { Scalar } from '../../../../types/scalar.js';
import { castFunction } from '../../../../types/casts.js';
import { JsonObject, type JsonNode, JsonSyntaxError, parseJsonText, writeJsonText } from '../../../../types/json/json-node.js';
import { type SqlType, VARCHAR, typeName } from '../../../../types/types.js';
import { type ScalarFunctionDefinition, type ScalarImplementation, body } from '../../signature.js';
import { functionOf, lambdaResult } from '../../function-parameters.js';
import type { JsonPath } from './path-ast.js';
import { evaluatePath } from './path-evaluator.js';
import {
  type Item,
  PathEvaluationError,
  isStructured,
  itemAsJson,
  itemAsSqlValue,
  outputNumberText,
  sqlValueAsItem,
} from './path-items.js';
import { parseJsonPath } from './path-parser.js';
import { javaHashMapOrder } from './java-hash-order.js';

export type JsonEncoding = 'UTF8' | 'UTF16' | 'UTF32';

/** The constant description of one SQL/JSON call. */
export interface SqlJsonSpec {
  readonly path?: string;
  /** PASSING names, in argument order after the input. */
  readonly names?: string[];
  /** Per value argument (input, passing values, or elements / member values): read as JSON text (FORMAT JSON), with its encoding when binary. */
  readonly formats?: Array<JsonEncoding | null>;
  readonly onError?: string;
  readonly onEmpty?: string;
  readonly wrapper?: 'WITHOUT' | 'CONDITIONAL' | 'UNCONDITIONAL';
  readonly omitQuotes?: boolean;
  readonly absentOnNull?: boolean;
  readonly uniqueKeys?: boolean;
  /** Encoding of a varbinary result. */
  readonly encoding?: JsonEncoding;
}

/** The JSON text of `value` could not be read: ON ERROR handles it. */
class JsonInputError extends Error {}
/** A result that breaks the function's rules (several items for JSON_VALUE ...): ON ERROR handles it. */
class JsonResultError extends Error {
  constructor(
    message: string,
    readonly errorName: ErrorName,
  ) {
    super(message);
  }
}

/** Jackson's default reader, which Trino's SQL/JSON input functions use, allows 1000 levels. */
const INPUT_MAX_DEPTH = 1000;

const specs = new Map<string, { spec: SqlJsonSpec; path?: JsonPath }>();

/** Path texts parsed once each, for the columns of JSON_TABLE. */
const paths = new Map<string, JsonPath>();

export function pathOf(text: string): JsonPath {
  let path = paths.get(text);
  if (path === undefined) {
    path = parseJsonPath(text);
    if (paths.size > 1000) paths.clear();
    paths.set(text, path);
  }
  return path;
}

export function specOf(text: string): { spec: SqlJsonSpec; path?: JsonPath } {
  let parsed = specs.get(text);
  if (parsed === undefined) {
    const spec = JSON.parse(text) as SqlJsonSpec;
    parsed = { spec, path: spec.path === undefined ? undefined : pathOf(spec.path) };
    if (specs.size > 1000) specs.clear();
    specs.set(text, parsed);
  }
  return parsed;
}

function decode(value: Scalar, encoding: JsonEncoding | null): string {
  if (!(value instanceof Uint8Array)) return value as string;
  const label = encoding === 'UTF16' ? 'utf-16le' : 'utf-8';
  if (encoding === 'UTF32') {
    let out = '';
    const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
    for (let i = 0; i + 3 < value.byteLength; i += 4) out += String.fromCodePoint(view.getUint32(i, true));
    return out;
  }
  return new TextDecoder(label).decode(value);
}

/** A value given as JSON text (FORMAT JSON, or of type json): its parsed item. */
function readJson(value: Scalar, encoding: JsonEncoding | null): JsonNode {
  try {
    return parseJsonText(decode(value, encoding), INPUT_MAX_DEPTH);
  } catch (e) {
    if (e instanceof JsonSyntaxError || e instanceof RangeError) throw new JsonInputError(e.message);
    throw e;
  }
}

function argumentItem(value: Scalar, type: SqlType, format: JsonEncoding | null | undefined): Item {
  if (value === null) return null;
  if (format !== undefined && format !== null) return readJson(value, format);
  if (type.kind === 'json') return readJson(value, null);
  return sqlValueAsItem(value, type);
}

/** The input item and the PASSING variables of a call, from `args` (after the spec). */
export function pathInputs(
  spec: SqlJsonSpec,
  types: readonly SqlType[],
  args: readonly Scalar[],
): { root: Item; variables: Map<string, Item> } {
  const formats = spec.formats ?? [];
  const root = readJson(args[0], formats[0] ?? null);
  const variables = new Map<string, Item>();
  (spec.names ?? []).forEach((name, i) => variables.set(name, argumentItem(args[i + 1], types[i + 1], formats[i + 1])));
  return { root, variables };
}

/** Evaluates the call's path: input and PASSING arguments from `args` (after the spec). */
function runPath(spec: SqlJsonSpec, path: JsonPath, types: readonly SqlType[], args: readonly Scalar[]): Item[] {
  const { root, variables } = pathInputs(spec, types, args);
  return evaluatePath(path, root, variables);
}

/** The error ERROR ON ERROR raises for a failure of any kind. */
export function raised(e: unknown): EngineError {
  if (e instanceof JsonInputError) return new EngineError('JSON_INPUT_CONVERSION_ERROR', 'conversion to JSON failed: ');
  if (e instanceof PathEvaluationError) return new EngineError('PATH_EVALUATION_ERROR', `path evaluation failed: ${e.message}`);
  if (e instanceof JsonResultError)
    return new EngineError(e.errorName, `${RESULT_ERROR_PREFIX[e.errorName as keyof typeof RESULT_ERROR_PREFIX]}${e.message}`);
  return e as EngineError;
}

/** How Trino's JsonValueResultException and JsonOutputConversionException begin their messages. */
const RESULT_ERROR_PREFIX = {
  JSON_VALUE_RESULT_ERROR: 'cannot extract SQL scalar from JSON: ',
  JSON_OUTPUT_CONVERSION_ERROR: 'conversion from JSON failed: ',
};

/** Whether `e` is malformed input or a failed path: what JSON_TABLE's own ON ERROR clause handles (a column's clauses handle the rest). */
export function isInputOrPathError(e: unknown): boolean {
  return e instanceof JsonInputError || e instanceof PathEvaluationError;
}

/** Whether `e` is a failure the ON ERROR clause handles (a data error, not a bug). */
export function handled(e: unknown): boolean {
  return (
    e instanceof JsonInputError ||
    e instanceof PathEvaluationError ||
    e instanceof JsonResultError ||
    (e instanceof EngineError && e.errorType === 'USER_ERROR')
  );
}

function existsImplementation(types: readonly SqlType[]): ScalarImplementation {
  return body(
    (specText: string, ...args: Scalar[]) => {
      if (args[0] === null) return null;
      const { spec, path } = specOf(specText);
      try {
        return runPath(spec, path as JsonPath, types.slice(1), args).length > 0;
      } catch (e) {
        if (!handled(e)) throw e;
        switch (spec.onError ?? 'FALSE') {
          case 'TRUE':
            return true;
          case 'UNKNOWN':
            return null;
          case 'ERROR':
            throw raised(e);
          default:
            return false;
        }
      }
    },
    { acceptsNulls: true, mayReturnNull: true },
  );
}

/** The ON EMPTY / ON ERROR clauses of JSON_VALUE (and of a JSON_TABLE value column). */
export interface ValueBehavior {
  readonly onEmpty?: string;
  readonly onError?: string;
}

/** A DEFAULT value, evaluated only when its clause applies (a failure of the ON EMPTY one goes to ON ERROR). */
export type LazyDefault = () => Scalar;

/** JSON_VALUE's result: the single scalar item of the path's result, cast to `returnType`, or what the clauses say. */
export function valueResult(
  evaluate: () => Item[],
  behavior: ValueBehavior,
  returnType: SqlType,
  emptyDefault?: LazyDefault,
  errorDefault?: LazyDefault,
): Scalar {
  const onError = (e: unknown): Scalar => {
    if (!handled(e)) throw e;
    if (behavior.onError === 'ERROR') throw raised(e);
    return behavior.onError === 'DEFAULT' && errorDefault !== undefined ? errorDefault() : null;
  };
  let items: Item[];
  try {
    items = evaluate();
  } catch (e) {
    return onError(e);
  }
  if (items.length === 0) {
    // ERROR ON EMPTY fails whatever ON ERROR says; only a failing DEFAULT goes on to ON ERROR.
    if (behavior.onEmpty === 'ERROR') throw raised(new JsonResultError('JSON path found no items', 'JSON_VALUE_RESULT_ERROR'));
    if (behavior.onEmpty !== 'DEFAULT' || emptyDefault === undefined) return null;
    try {
      return emptyDefault();
    } catch (e) {
      return onError(e);
    }
  }
  try {
    if (items.length > 1) throw new JsonResultError('JSON path found multiple items', 'JSON_VALUE_RESULT_ERROR');
    if (isStructured(items[0]))
      throw new JsonResultError('JSON path found an item that cannot be converted to an SQL value', 'JSON_VALUE_RESULT_ERROR');
    const { type, value } = itemAsSqlValue(items[0]);
    if (value === null) return null;
    try {
      return (castFunction(type, returnType) as (v: Scalar) => Scalar)(value);
    } catch {
      throw new JsonResultError(
        `Cannot cast value of type ${typeName(type)} to declared return type of function JSON_VALUE: ${typeName(returnType)}`,
        'JSON_VALUE_RESULT_ERROR',
      );
    }
  } catch (e) {
    return onError(e);
  }
}

/** $json_value(spec, emptyDefault, errorDefault, input, passing...): the defaults are lambdas of no parameters. */
function valueImplementation(types: readonly SqlType[], returnType: SqlType): ScalarImplementation {
  return body(
    (specText: string, emptyDefault: LazyDefault, errorDefault: LazyDefault, ...args: Scalar[]) => {
      if (args[0] === null) return null;
      const { spec, path } = specOf(specText);
      return valueResult(() => runPath(spec, path as JsonPath, types.slice(3), args), spec, returnType, emptyDefault, errorDefault);
    },
    { acceptsNulls: true, mayReturnNull: true },
  );
}

const OUTPUT_STYLE = { sortKeys: false, number: outputNumberText };

/** A JSON result as the RETURNING type: character text, or bytes in the requested encoding. */
function output(text: string, returnType: SqlType, encoding: JsonEncoding | undefined): Scalar {
  if (returnType.kind === 'varbinary') return encode(text, encoding ?? 'UTF8');
  return (castFunction(VARCHAR, returnType) as (v: Scalar) => Scalar)(text);
}

function encode(text: string, encoding: JsonEncoding): Uint8Array {
  if (encoding === 'UTF8') return new Uint8Array(Buffer.from(text, 'utf8'));
  if (encoding === 'UTF16') return new Uint8Array(Buffer.from(text, 'utf16le'));
  const codePoints = [...text].map((c) => c.codePointAt(0) as number);
  const out = new Uint8Array(codePoints.length * 4);
  const view = new DataView(out.buffer);
  codePoints.forEach((c, i) => view.setUint32(i * 4, c, true));
  return out;
}

function queryBehavior(behavior: string | undefined, error: () => EngineError): string | null {
  switch (behavior) {
    case 'ERROR':
      throw error();
    case 'EMPTY ARRAY':
      return '[]';
    case 'EMPTY OBJECT':
      return '{}';
    default:
      return null;
  }
}

/** The clauses of JSON_QUERY (and of a JSON_TABLE query column). */
export type QueryBehavior = Pick<SqlJsonSpec, 'wrapper' | 'omitQuotes' | 'onEmpty' | 'onError' | 'encoding'>;

/** JSON_QUERY's result: the path's result as JSON text under the clauses, in `returnType`. */
export function queryResult(evaluate: () => Item[], spec: QueryBehavior, returnType: SqlType): Scalar {
  const result = (text: string | null): Scalar => (text === null ? null : output(text, returnType, spec.encoding));
  const onError = (e: unknown): Scalar => {
    if (!handled(e)) throw e;
    return result(queryBehavior(spec.onError, () => raised(e)));
  };
  let items: Item[];
  try {
    items = evaluate();
  } catch (e) {
    return onError(e);
  }
  // An empty result is the ON EMPTY case whatever the wrapper; ERROR ON EMPTY fails whatever ON ERROR says.
  if (items.length === 0)
    return result(
      queryBehavior(spec.onEmpty, () => raised(new JsonResultError('JSON path found no items', 'JSON_OUTPUT_CONVERSION_ERROR'))),
    );
  try {
    return result(queryText(spec, items));
  } catch (e) {
    return onError(e);
  }
}

function queryImplementation(types: readonly SqlType[], returnType: SqlType): ScalarImplementation {
  return body(
    (specText: string, ...args: Scalar[]) => {
      if (args[0] === null) return null;
      const { spec, path } = specOf(specText);
      return queryResult(() => runPath(spec, path as JsonPath, types.slice(1), args), spec, returnType);
    },
    { acceptsNulls: true, mayReturnNull: true },
  );
}

/** The JSON text of a non-empty path result under the wrapper and quotes clauses. */
function queryText(spec: QueryBehavior, items: Item[]): string {
  const wrap = spec.wrapper === 'UNCONDITIONAL' || (spec.wrapper === 'CONDITIONAL' && !(items.length === 1 && isStructured(items[0])));
  if (wrap) return writeJsonText(items.map(itemAsJson), OUTPUT_STYLE);
  if (items.length > 1) throw new JsonResultError('JSON path found multiple items', 'JSON_OUTPUT_CONVERSION_ERROR');
  const item = itemAsJson(items[0]);
  if (spec.omitQuotes && typeof item === 'string') return item;
  return writeJsonText(item, OUTPUT_STYLE);
}

/** An element or member value of JSON_ARRAY / JSON_OBJECT as a JSON value (undefined: absent). */
function elementJson(value: Scalar, type: SqlType, format: JsonEncoding | null | undefined): JsonNode {
  if (format === undefined || format === null) {
    if (type.kind !== 'json') return itemAsJson(sqlValueAsItem(value, type));
  }
  try {
    return readJson(value, format ?? null);
  } catch (e) {
    if (e instanceof JsonInputError) throw raised(e);
    throw e;
  }
}

function arrayImplementation(types: readonly SqlType[], returnType: SqlType): ScalarImplementation {
  return body(
    (specText: string, ...args: Scalar[]) => {
      const { spec } = specOf(specText);
      const elements: JsonNode[] = [];
      args.forEach((value, i) => {
        if (value === null) {
          if (!spec.absentOnNull) elements.push(null);
        } else {
          elements.push(elementJson(value, types[i + 1], spec.formats?.[i]));
        }
      });
      return output(writeJsonText(elements, OUTPUT_STYLE), returnType, spec.encoding);
    },
    { acceptsNulls: true },
  );
}

function objectImplementation(types: readonly SqlType[], returnType: SqlType): ScalarImplementation {
  return body(
    (specText: string, ...args: Scalar[]) => {
      const { spec } = specOf(specText);
      const members = new Map<string, JsonNode>();
      for (let i = 0; i < args.length; i += 2) {
        const key = args[i];
        if (key === null)
          throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'null value passed for JSON object key to JSON_OBJECT function');
        const value = args[i + 1];
        if (value === null && spec.absentOnNull) continue;
        const name = typeof key === 'string' ? key : String(key);
        if (members.has(name)) {
          if (spec.uniqueKeys) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'duplicate key passed to JSON_OBJECT function');
          // The standard keeps both entries; Trino (and so the engine) cannot hold them.
          throw new EngineError('NOT_SUPPORTED', 'cannot construct a JSON object with duplicate key');
        }
        members.set(name, value === null ? null : elementJson(value, types[i + 2], spec.formats?.[i / 2]));
      }
      // Members in the order Trino's HashMap gives them.
      const ordered = new Map(javaHashMapOrder([...members.keys()]).map((k) => [k, members.get(k) as JsonNode]));
      return output(writeJsonText(new JsonObject(ordered), OUTPUT_STYLE), returnType, spec.encoding);
    },
    { acceptsNulls: true },
  );
}

function internal(
  name: string,
  implement: (types: readonly SqlType[], returnType: SqlType) => ScalarImplementation,
): ScalarFunctionDefinition {
  return {
    names: [name],
    description: `The SQL/JSON form ${name.slice(1).toUpperCase()}`,
    signatures: [{ params: [{ family: 'varchar' }, { anyType: true }], variadic: { minArgs: 1 }, returnType: VARCHAR, implement }],
  };
}

const R = { variable: 'R' } as const;

/** Internal forms (names starting with `$` are not listed by SHOW FUNCTIONS). */
export const SQL_JSON_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  internal('$json_exists', existsImplementation),
  {
    names: ['$json_value'],
    description: 'The SQL/JSON form JSON_VALUE',
    signatures: [
      {
        params: [{ family: 'varchar' }, functionOf([], R), functionOf([], R), { anyType: true }],
        variadic: { minArgs: 4 },
        returnType: (types) => lambdaResult(types, 1),
        implement: valueImplementation,
      },
    ],
  },
  internal('$json_query', queryImplementation),
  internal('$json_array', arrayImplementation),
  internal('$json_object', objectImplementation),
];
