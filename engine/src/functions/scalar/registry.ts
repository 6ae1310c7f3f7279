// The scalar function registry: resolves a call by name and argument types to a signature (the types
// to coerce the arguments to, the return type), and hands the expression compiler the body.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { type SqlType, typeName, typesEqual } from '../../types/types.js';
import type { FunctionInfo } from '../function-info.js';
import { NUMERIC_ARITHMETIC_OPERATORS } from './arithmetic-operators.js';
import { NUMBER_OPERATORS } from './number-operators.js';
import { NUMBER_FUNCTIONS } from './number-functions.js';
import { ARRAY_FUNCTIONS, ARRAY_OPERATORS } from './array-functions.js';
import { ARRAY_SHAPE_FUNCTIONS } from './array-shape-functions.js';
import { ARRAY_LAMBDA_FUNCTIONS } from './array-lambda-functions.js';
import { BINARY_FUNCTIONS } from './binary/binary-functions.js';
import { BITWISE_FUNCTIONS } from './bitwise-functions.js';
import { BUCKET_AND_RADIX_FUNCTIONS } from './bucket-and-radix-functions.js';
import { CHAR_FUNCTIONS } from './char-functions.js';
import { COMPARISON_OPERATORS } from './comparison-operators.js';
import { DATA_SIZE_FUNCTIONS } from './data-size-functions.js';
import { DATETIME_FUNCTIONS } from './datetime-functions.js';
import { DURATION_FUNCTIONS } from './duration-functions.js';
import { ADDRESS_FUNCTIONS } from './address-functions.js';
import { COLOR_FUNCTIONS } from './color-functions.js';
import { SYSTEM_FUNCTIONS } from './system-functions.js';
import { ANALYZER_FUNCTION_INFOS } from './analyzer-function-infos.js';
import { SKETCH_FUNCTIONS } from '../sketch/sketch-functions.js';
import { QDIGEST_FUNCTIONS } from '../sketch/qdigest-functions.js';
import { FORMAT_FUNCTIONS } from './format/format-function.js';
import { JSON_FUNCTIONS } from './json/json-functions.js';
import { SQL_JSON_FUNCTIONS } from './json/sqljson/sqljson-functions.js';
import { JSON_TABLE_FUNCTION } from './json/sqljson/json-table-function.js';
import { MAP_ENTRY_FUNCTIONS, MAP_FUNCTIONS, MAP_OPERATORS } from './map-functions.js';
import { MAP_BUILDING_FUNCTIONS } from './map-building-functions.js';
import { MAP_LAMBDA_FUNCTIONS } from './map-lambda-functions.js';
import { MAP_VECTOR_FUNCTIONS } from './map-vector-functions.js';
import { MATH_FUNCTIONS } from './math-functions.js';
import { OPERATOR_SYMBOLS, type OperatorName } from './operator-names.js';
import { REGEXP_FUNCTIONS } from './regexp-functions.js';
import { rowOperatorImplementation } from './row-operators.js';
import { ROW_FUNCTIONS } from './row-functions.js';
import {
  type BoundSignature,
  type ScalarFunctionDefinition,
  type ScalarImplementation,
  type SignatureTemplate,
  bindSignature,
  chooseBinding,
  formatTemplate,
  formatTemplateReturnType,
} from './signature.js';
import { DISTRIBUTION_FUNCTIONS } from './statistics/distribution-functions.js';
import { STRING_DISTANCE_FUNCTIONS } from './string-distance-functions.js';
import { STRING_FUNCTIONS, STRING_OPERATORS } from './string-functions.js';
import { WORD_STEM_FUNCTIONS } from './word-stem.js';
import { VARIANT_FUNCTIONS, VARIANT_OPERATORS } from './variant-functions.js';
import { type ArgumentType, argumentTypeName } from './function-parameters.js';
import { TEMPORAL_OPERATORS } from './temporal-operators.js';
import { URL_FUNCTIONS } from './url-functions.js';
import { SESSION_ZONE_FUNCTION_INFOS, ZONED_TIMESTAMP_FUNCTIONS, ZONED_TIMESTAMP_OPERATORS } from './zoned-timestamp-functions.js';
import { ZONED_TIME_FUNCTIONS, ZONED_TIME_OPERATORS } from './zoned-time-functions.js';
import { NANOS_TIMESTAMP_FUNCTIONS } from './nanos-timestamp-functions.js';
import { PARSE_DATETIME_FUNCTIONS } from './parse-datetime.js';
import { checkLongPlainCall, implementWithLongPlain } from './long-plain-lift.js';

export type { OperatorName } from './operator-names.js';

export interface ScalarFunctionSignature {
  /** The registry name to put in a RowExpression call (canonical: ceiling resolves to ceil). */
  name: string;
  /** The types the caller must coerce the arguments to. */
  argumentTypes: SqlType[];
  returnType: SqlType;
  deterministic: boolean;
}

interface Entry {
  readonly name: string;
  readonly definition: ScalarFunctionDefinition;
  /** The description of each signature: that of the definition declaring it (array_sort's comparator form has its own). */
  readonly descriptions: ReadonlyMap<SignatureTemplate, string>;
  readonly signatures: readonly SignatureTemplate[];
}

function index(definitions: readonly ScalarFunctionDefinition[]): Map<string, Entry> {
  const byName = new Map<string, Entry>();
  for (const definition of definitions) {
    const [canonical] = definition.names;
    for (const name of definition.names) {
      const existing = byName.get(name);
      // Several definitions of one name (numeric and temporal `add`) merge their signatures.
      const signatures = existing === undefined ? definition.signatures : [...existing.signatures, ...definition.signatures];
      const descriptions = new Map(existing?.descriptions ?? []);
      for (const template of definition.signatures) descriptions.set(template, definition.description);
      byName.set(name, { name: canonical, definition: existing?.definition ?? definition, signatures, descriptions });
    }
  }
  return byName;
}

const FUNCTIONS = index([
  ...MATH_FUNCTIONS,
  ...NUMBER_FUNCTIONS,
  ...STRING_FUNCTIONS,
  ...CHAR_FUNCTIONS,
  ...REGEXP_FUNCTIONS,
  ...DATETIME_FUNCTIONS,
  ...ARRAY_FUNCTIONS,
  ...ARRAY_SHAPE_FUNCTIONS,
  ...BINARY_FUNCTIONS,
  ...BITWISE_FUNCTIONS,
  ...STRING_DISTANCE_FUNCTIONS,
  ...URL_FUNCTIONS,
  ...DURATION_FUNCTIONS,
  ...DISTRIBUTION_FUNCTIONS,
  ...BUCKET_AND_RADIX_FUNCTIONS,
  ...DATA_SIZE_FUNCTIONS,
  ...ARRAY_LAMBDA_FUNCTIONS,
  ...FORMAT_FUNCTIONS,
  ...MAP_FUNCTIONS,
  ...MAP_ENTRY_FUNCTIONS,
  ...MAP_LAMBDA_FUNCTIONS,
  ...MAP_BUILDING_FUNCTIONS,
  ...ZONED_TIMESTAMP_FUNCTIONS,
  ...ZONED_TIME_FUNCTIONS,
  ...NANOS_TIMESTAMP_FUNCTIONS,
  ...PARSE_DATETIME_FUNCTIONS,
  ...MAP_VECTOR_FUNCTIONS,
  ...ROW_FUNCTIONS,
  ...JSON_FUNCTIONS,
  ...SQL_JSON_FUNCTIONS,
  JSON_TABLE_FUNCTION,
  ...ADDRESS_FUNCTIONS,
  ...COLOR_FUNCTIONS,
  ...SYSTEM_FUNCTIONS,
  ...SKETCH_FUNCTIONS,
  ...QDIGEST_FUNCTIONS,
  ...WORD_STEM_FUNCTIONS,
  ...VARIANT_FUNCTIONS,
]);
const OPERATORS = index([
  ...NUMERIC_ARITHMETIC_OPERATORS,
  ...NUMBER_OPERATORS,
  ...TEMPORAL_OPERATORS,
  ...COMPARISON_OPERATORS,
  ...ARRAY_OPERATORS,
  ...STRING_OPERATORS,
  ...MAP_OPERATORS,
  ...ZONED_TIMESTAMP_OPERATORS,
  ...ZONED_TIME_OPERATORS,
  ...VARIANT_OPERATORS,
]);

function bindAll(entry: Entry, argumentTypes: readonly ArgumentType[]): BoundSignature | undefined {
  const candidates: BoundSignature[] = [];
  for (const template of entry.signatures) {
    const bound = bindSignature(template, argumentTypes);
    if (bound !== undefined) candidates.push(bound);
  }
  return chooseBinding(argumentTypes, candidates);
}

function toSignature(entry: Entry, bound: BoundSignature, location?: SourceLocation): ScalarFunctionSignature {
  checkLongPlainCall(entry.name, bound, location);
  return {
    name: entry.name,
    argumentTypes: bound.argumentTypes,
    returnType: bound.returnType,
    deterministic: entry.definition.deterministic ?? true,
  };
}

/**
 * Resolves a function call; FUNCTION_NOT_FOUND for an unknown name and, as in Trino, for unusable
 * arguments ("Unexpected parameters ... Expected: ..."). A lambda argument is typed while binding, once the other arguments fixed its parameters.
 */
export function resolveScalarFunction(
  name: string,
  argumentTypes: readonly ArgumentType[],
  location?: SourceLocation,
): ScalarFunctionSignature {
  return resolveScalarFunctionAmong(name, undefined, argumentTypes, location);
}

/** As resolveScalarFunction, among the signatures `accepts` keeps (a method's overloads of the function): none kept reads as an unknown name. */
export function resolveScalarFunctionAmong(
  name: string,
  accepts: ((template: SignatureTemplate) => boolean) | undefined,
  argumentTypes: readonly ArgumentType[],
  location?: SourceLocation,
): ScalarFunctionSignature {
  const lower = name.toLowerCase();
  const found = FUNCTIONS.get(lower);
  const entry = found === undefined || accepts === undefined ? found : { ...found, signatures: found.signatures.filter(accepts) };
  if (entry === undefined || entry.signatures.length === 0)
    throw new EngineError('FUNCTION_NOT_FOUND', `Function '${lower}' not registered`, location);
  const bound = atCall(location, () => bindAll(entry, argumentTypes));
  if (bound === undefined) {
    const expected = [...new Set(entry.signatures.map((s) => formatTemplate(lower, s)))].sort().join(', ');
    throw new EngineError(
      'FUNCTION_NOT_FOUND',
      `Unexpected parameters (${argumentTypes.map(argumentTypeName).join(', ')}) for function ${lower}. Expected: ${expected}`,
      location,
    );
  }
  return toSignature(entry, bound, location);
}

/** Runs `f`, giving an error it raises without a position (a result type that cannot exist) the call's. */
function atCall<T>(location: SourceLocation | undefined, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof EngineError && e.location === undefined && location !== undefined)
      throw new EngineError(e.errorName, e.rawMessage, location);
    throw e;
  }
}

/** Operators of the syntax that are no SQL-callable function: `a[i]`, `ARRAY[...]`, `OVERLAY(... PLACING ...)`. */
export type SyntaxOperatorName = 'subscript' | 'array_constructor' | 'overlay';

/** Resolves an operator of the syntax that is no SQL-callable function. */
export function resolveSyntaxOperator(
  name: SyntaxOperatorName,
  argumentTypes: readonly SqlType[],
  location?: SourceLocation,
): ScalarFunctionSignature {
  const entry = OPERATORS.get(name) as Entry;
  const bound = atCall(location, () => bindAll(entry, argumentTypes));
  if (bound === undefined) {
    const types = argumentTypes.map(typeName);
    const message = SYNTAX_OPERATOR_MISMATCH[name](types);
    throw new EngineError('TYPE_MISMATCH', message, location);
  }
  return toSignature(entry, bound, location);
}

const SYNTAX_OPERATOR_MISMATCH: Record<SyntaxOperatorName, (types: string[]) => string> = {
  subscript: (types) => `Cannot use ${types[1]} for subscript of ${types[0]}`,
  array_constructor: (types) => `All ARRAY elements must be the same type: ${types.join(', ')}`,
  overlay: (types) =>
    `Unexpected parameters (${types.join(', ')}) for OVERLAY. Expected: OVERLAY(varchar PLACING varchar FROM bigint [FOR bigint])`,
};

/** Resolves an operator; TYPE_MISMATCH with Trino's wording when no signature accepts the arguments. */
export function resolveOperator(
  operator: OperatorName,
  argumentTypes: readonly SqlType[],
  location?: SourceLocation,
): ScalarFunctionSignature {
  if (operator === 'concat') return resolveScalarFunction('concat', argumentTypes, location);
  const entry = OPERATORS.get(operator);
  const bound = entry === undefined ? undefined : bindAll(entry, argumentTypes);
  if (entry === undefined || bound === undefined) {
    throw new EngineError('TYPE_MISMATCH', operatorMismatchMessage(operator, argumentTypes.map(typeName)), location);
  }
  return toSignature(entry, bound, location);
}

function operatorMismatchMessage(operator: Exclude<OperatorName, 'concat'>, types: string[]): string {
  switch (operator) {
    case 'negate':
      return `Cannot negate ${types[0]}`;
    case 'is_distinct_from':
      return `Cannot check if ${types[0]} is distinct from ${types[1]}`;
    default:
      return `Cannot apply operator: ${types[0]} ${OPERATOR_SYMBOLS[operator]} ${types[1]}`;
  }
}

export function isScalarFunctionName(name: string): boolean {
  return FUNCTIONS.has(name.toLowerCase());
}

/** Whether the named function or operator always returns the same result for the same arguments. */
export function isDeterministicFunction(name: string): boolean {
  const entry = FUNCTIONS.get(name) ?? OPERATORS.get(name);
  return entry === undefined || (entry.definition.deterministic ?? true);
}

/** Every function signature, for SHOW FUNCTIONS (operators are not listed, as in Trino). */
export function listScalarFunctions(): FunctionInfo[] {
  const infos: FunctionInfo[] = [...SESSION_ZONE_FUNCTION_INFOS, ...ANALYZER_FUNCTION_INFOS];
  for (const [name, entry] of FUNCTIONS) {
    if (name.startsWith('$') || entry.definition.hidden === true) continue; // internal forms the analyzer calls ($from_iso8601_timestamp)
    for (const template of entry.signatures) {
      const shown = formatTemplate(name, template);
      infos.push({
        name,
        returnType: formatTemplateReturnType(template),
        argumentTypes: splitArguments(shown.slice(name.length + 1, -1)),
        functionType: 'scalar',
        deterministic: entry.definition.deterministic ?? true,
        description: entry.descriptions.get(template) ?? entry.definition.description,
      });
    }
  }
  return infos.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function splitArguments(text: string): string[] {
  return text === '' ? [] : text.split(/, (?![^(]*\))/);
}

const implementations = new Map<string, ScalarImplementation>();

/**
 * The body of a resolved call (`name` as resolveScalarFunction/resolveOperator returned it, the
 * argument types after coercion). Throws when no signature takes these exact types: a planner bug.
 */
export function scalarImplementation(name: string, argumentTypes: readonly SqlType[], returnType: SqlType): ScalarImplementation {
  const key = `${name}(${argumentTypes.map(typeName).join(',')}):${typeName(returnType)}`;
  const cached = implementations.get(key) ?? rowOperatorImplementation(name);
  if (cached !== undefined) return cached;
  const entry = OPERATORS.get(name) ?? FUNCTIONS.get(name);
  if (entry === undefined) throw new EngineError('FUNCTION_NOT_FOUND', `Function '${name}' not registered`);
  for (const template of entry.signatures) {
    const bound = bindSignature(template, argumentTypes);
    if (bound !== undefined && bound.argumentTypes.every((t, i) => typesEqual(t, argumentTypes[i]))) {
      const implementation = implementWithLongPlain(name, template, bound.argumentTypes, returnType);
      implementations.set(key, implementation);
      return implementation;
    }
  }
  throw new EngineError('GENERIC_INTERNAL_ERROR', `No implementation of ${name}(${argumentTypes.map(typeName).join(', ')})`);
}
