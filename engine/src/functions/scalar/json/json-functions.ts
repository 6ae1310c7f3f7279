// Trino's json functions (functions/json.md, "Other JSON functions"): json_parse, json_format,
// is_json_scalar, json_array_length/contains/get, json_extract, json_extract_scalar, json_size. Each
// takes json or varchar text; malformed text gives NULL where Trino's gives NULL, an error where it fails.

import { EngineError } from '../../../errors/engine-error.js';
import type { Scalar } from '../../../types/scalar.js';
import { formatDoubleAsText } from '../../../types/number-format.js';
import {
  JsonNumber,
  JsonObject,
  type JsonNode,
  type JsonWriteStyle,
  isJsonScalarNode,
  parseJsonText,
  writeJsonText,
} from '../../../types/json/json-node.js';
import { jsonParse } from '../../../types/json/json-parse.js';
import { truncateForMessage } from '../../../types/json/json-casts.js';
import { BIGINT, BOOLEAN, DOUBLE, JSON_TYPE, type SqlType, VARCHAR } from '../../../types/types.js';
import { type ParamPattern, type ScalarFunctionDefinition, type SignatureTemplate, body } from '../signature.js';
import { legacyJsonPathSteps, selectLegacyPath } from './legacy-json-path.js';

const VARCHAR_X = { family: 'varchar' } as const;
/** Every function below reads json and varchar text alike. */
const JSON_INPUTS: readonly ParamPattern[] = [JSON_TYPE, VARCHAR_X];

/** The first JSON value of the text (these functions read no further, as Trino's), or undefined when it is not JSON. */
function tryParse(text: string): JsonNode | undefined {
  try {
    return parseJsonText(text, Infinity, true);
  } catch {
    return undefined;
  }
}

/** How Jackson copies a parsed value: members in text order, fractions and exponents as doubles. */
const EXTRACT_STYLE: JsonWriteStyle = {
  sortKeys: false,
  number: (n) => (n.integral ? n.text : formatDoubleAsText(Number(n.text))),
};

function overInputs(
  name: string,
  description: string,
  rest: readonly ParamPattern[],
  returnType: SqlType | ((types: readonly SqlType[]) => SqlType),
  invoke: (...args: never[]) => Scalar,
  mayReturnNull = true,
): ScalarFunctionDefinition {
  const signatures: SignatureTemplate[] = JSON_INPUTS.map((input) => ({
    params: [input, ...rest],
    // A computed return type follows a varchar input's length; over json it is fixed.
    returnType: input === JSON_TYPE && typeof returnType === 'function' ? returnType([JSON_TYPE]) : returnType,
    implement: () => body(invoke, { mayReturnNull }),
  }));
  return { names: [name], description, signatures };
}

function arrayElements(text: string): JsonNode[] | null {
  const node = tryParse(text);
  return Array.isArray(node) ? node : null;
}

function arrayContains(matches: (element: JsonNode) => boolean) {
  return (text: string): boolean | null => {
    const elements = arrayElements(text);
    return elements === null ? null : elements.some(matches);
  };
}

function isJsonScalar(text: string): boolean {
  let node: JsonNode | undefined;
  try {
    node = parseJsonText(text); // is_json_scalar, unlike the others, checks that nothing follows
  } catch {
    node = undefined;
  }
  if (node === undefined) throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid JSON value: ${truncateForMessage(text)}`);
  return isJsonScalarNode(node);
}

/** json_array_get: scalars come back as their bare text (a string unquoted: Trino's documented quirk). */
function arrayGet(text: string, index: bigint): string | null {
  const elements = arrayElements(text);
  if (elements === null) return null;
  const position = index < 0n ? BigInt(elements.length) + index : index;
  if (position < 0n || position >= BigInt(elements.length)) return null;
  return scalarText(elements[Number(position)]) ?? writeJsonText(elements[Number(position)], EXTRACT_STYLE);
}

/** A scalar's bare text (a string without quotes, a number as written), NULL for null, undefined for arrays and objects. */
function scalarText(node: JsonNode): string | null | undefined {
  if (node === null) return null;
  if (!isJsonScalarNode(node)) return undefined;
  return node instanceof JsonNumber ? node.text : String(node);
}

function extract(text: string, path: string): JsonNode | undefined {
  const steps = legacyJsonPathSteps(path);
  const root = tryParse(text);
  return root === undefined ? undefined : selectLegacyPath(root, steps);
}

function extractScalar(text: string, path: string): string | null {
  const node = extract(text, path);
  return node === undefined ? null : (scalarText(node) ?? null);
}

function jsonSize(text: string, path: string): bigint | null {
  const node = extract(text, path);
  if (node === undefined) return null;
  if (Array.isArray(node)) return BigInt(node.length);
  return node instanceof JsonObject ? BigInt(node.members.size) : 0n;
}

/** A varchar argument keeps its declared type (json_extract_scalar(varchar(x), ...) is varchar(x)), json gives varchar. */
const textOfInput = (types: readonly SqlType[]): SqlType => (types[0].kind === 'varchar' ? types[0] : VARCHAR);

export const JSON_FUNCTIONS: readonly ScalarFunctionDefinition[] = [
  {
    names: ['json_parse'],
    description: 'Parse a JSON text into a json value (object keys sorted)',
    signatures: [{ params: [VARCHAR_X], returnType: JSON_TYPE, implement: () => body((text: string) => jsonParse(text)) }],
  },
  {
    names: ['json_format'],
    description: 'Serialize a json value to JSON text',
    signatures: [{ params: [JSON_TYPE], returnType: VARCHAR, implement: () => body((json: string) => json) }],
  },
  overInputs('is_json_scalar', 'Whether the JSON text is a number, string, boolean or null', [], BOOLEAN, isJsonScalar, false),
  overInputs('json_array_length', 'Number of elements of a JSON array (NULL if not an array)', [], BIGINT, (text: string) => {
    const elements = arrayElements(text);
    return elements === null ? null : BigInt(elements.length);
  }),
  ...[
    { type: BOOLEAN, matches: (value: boolean) => (e: JsonNode) => e === value },
    { type: BIGINT, matches: (value: bigint) => (e: JsonNode) => e instanceof JsonNumber && e.integral && BigInt(e.text) === value },
    {
      type: DOUBLE,
      matches: (value: number) => (e: JsonNode) =>
        Number.isFinite(value) && e instanceof JsonNumber && !e.integral && Number(e.text) === value,
    },
    { type: VARCHAR_X, matches: (value: string) => (e: JsonNode) => e === value },
  ].map(({ type, matches }) =>
    overInputs('json_array_contains', 'Whether a JSON array holds the value', [type], BOOLEAN, (text: string, value: never) =>
      arrayContains(matches(value))(text),
    ),
  ),
  overInputs(
    'json_array_get',
    'Element of a JSON array at a zero-based index (negative counts from the end)',
    [BIGINT],
    JSON_TYPE,
    arrayGet,
  ),
  overInputs('json_extract', 'Value a JSONPath selects, as json', [VARCHAR_X], JSON_TYPE, (text: string, path: string) => {
    const node = extract(text, path);
    return node === undefined ? null : writeJsonText(node, EXTRACT_STYLE);
  }),
  overInputs('json_extract_scalar', 'Scalar value a JSONPath selects, as text', [VARCHAR_X], textOfInput, extractScalar),
  overInputs('json_size', 'Number of members or elements of the value a JSONPath selects (0 for a scalar)', [VARCHAR_X], BIGINT, jsonSize),
];
