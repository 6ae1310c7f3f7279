// CAST to and from json, as Trino's JsonOperators, ArrayToJsonCast/JsonToArrayCast (and the map and
// row forms) cast: SQL values become compact JSON text (map keys sorted, rows as objects named by
// their fields); JSON text becomes SQL values token by token, with Trino's conversions and messages.

import { EngineError } from '../../errors/engine-error.js';
import type { Scalar } from '../scalar.js';
import { MapValue, mapLookupKey } from '../map-value.js';
import { fitsPrecision } from '../decimal.js';
import { formatDoubleAsText, formatRealAsText } from '../number-format.js';
import { parseDecimalText } from '../text-parsing.js';
import { BOOLEAN, DOUBLE, type SqlType, VARCHAR, isIntegral, typeName } from '../types.js';
import { formatValueAsText } from '../values.js';
import { numberText, parseFinite, parseNumberText } from '../number/number-value.js';
import {
  CANONICAL_STYLE,
  JsonNumber,
  JsonObject,
  type JsonNode,
  JsonSyntaxError,
  bigDecimalText,
  jsonString,
  parseJsonText,
  writeJsonText,
} from './json-node.js';

type OneCast = (value: Scalar) => Scalar;
/** The engine's other casts, passed in to keep this module below casts.ts. */
export type CastLookup = (from: SqlType, to: SqlType) => OneCast;

/** The scalars a JSON object key can come from (Trino's isValidJsonObjectKeyType); each also casts to and from json. */
const OBJECT_KEY_KINDS = ['boolean', 'tinyint', 'smallint', 'integer', 'bigint', 'real', 'double', 'decimal', 'varchar'];
export const OBJECT_KEY_TYPES: ReadonlySet<string> = new Set(OBJECT_KEY_KINDS);
export const TO_JSON_SCALARS: ReadonlySet<string> = new Set(['unknown', ...OBJECT_KEY_KINDS, 'json', 'timestamp', 'date', 'number']);
const FROM_JSON_SCALARS: ReadonlySet<string> = new Set([...OBJECT_KEY_KINDS, 'json', 'number']);

/** Whether CAST(x AS json) exists for x of `type` (Trino's JsonUtil.canCastToJson). */
export function canCastToJson(type: SqlType): boolean {
  switch (type.kind) {
    case 'array':
      return canCastToJson(type.element);
    case 'map':
      return (type.key.kind === 'unknown' || OBJECT_KEY_TYPES.has(type.key.kind)) && canCastToJson(type.value);
    case 'row':
      return type.fields.every((f) => canCastToJson(f.type));
    default:
      return TO_JSON_SCALARS.has(type.kind);
  }
}

/** Whether a cast can give NULL for a non-null value: from json or variant, whose `null` is SQL NULL (but JSON null in JSON). */
export function castMayReturnNull(from: SqlType, to: SqlType): boolean {
  return (from.kind === 'json' || from.kind === 'variant') && to.kind !== 'json' && to.kind !== 'variant';
}

/** Whether CAST(json AS type) exists (Trino's JsonUtil.canCastFromJson). */
export function canCastFromJson(type: SqlType): boolean {
  switch (type.kind) {
    case 'array':
      return canCastFromJson(type.element);
    case 'map':
      return OBJECT_KEY_TYPES.has(type.key.kind) && canCastFromJson(type.value);
    case 'row':
      return type.fields.every((f) => canCastFromJson(f.type));
    default:
      return FROM_JSON_SCALARS.has(type.kind);
  }
}

/** JSON text of a non-null value (a NULL inside a container is `null`). */
export function toJsonWriter(type: SqlType): (value: Scalar) => string {
  const nullable = (write: (value: Scalar) => string) => (value: Scalar) => (value === null ? 'null' : write(value));
  switch (type.kind) {
    case 'unknown':
      return () => 'null';
    case 'boolean':
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
      return (v) => String(v);
    case 'double':
      return (v) => (Number.isFinite(v) ? formatDoubleAsText(v as number) : jsonString(formatDoubleAsText(v as number)));
    case 'real':
      return (v) => (Number.isFinite(v) ? formatRealAsText(v as number) : jsonString(formatRealAsText(v as number)));
    case 'decimal':
      return (v) => bigDecimalText(new JsonNumber(formatValueAsText(v, type), false));
    case 'json':
      return (v) => v as string;
    case 'number': // Jackson's writeNumber(BigDecimal): the NUMBER text; NaN and the infinities as strings
      return (v) => (v === 'NaN' || v === '+Infinity' || v === '-Infinity' ? jsonString(v) : (v as string));
    case 'array': {
      const element = nullable(toJsonWriter(type.element));
      return (v) => `[${(v as readonly Scalar[]).map(element).join(',')}]`;
    }
    case 'map': {
      const value = nullable(toJsonWriter(type.value));
      return (v) => {
        const map = v as MapValue;
        const entries = map.keys.map((k, i): [string, string] => [formatValueAsText(k, type.key), value(map.values[i])]);
        entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        return `{${entries.map(([k, text]) => `${jsonString(k)}:${text}`).join(',')}}`;
      };
    }
    case 'row': {
      const fields = type.fields.map((f) => ({ name: jsonString(f.name ?? ''), write: nullable(toJsonWriter(f.type)) }));
      return (v) => `{${(v as readonly Scalar[]).map((field, i) => `${fields[i].name}:${fields[i].write(field)}`).join(',')}}`;
    }
    default:
      // varchar, date, timestamp: a JSON string of the value's text.
      return (v) => jsonString(formatValueAsText(v, type));
  }
}

/** A conversion failure inside a JSON value, reported with the whole value by the top-level cast. */
class JsonCastFailure extends Error {}

/**
 * An error a scalar cast reports as it is (a number out of a type's range read as a double or a
 * decimal: NUMERIC_VALUE_OUT_OF_RANGE, as Trino's DoubleOperators and decimal casts report it);
 * inside an array, map or row it is a failure of the whole cast like any other.
 */
class ScalarCastError extends Error {
  constructor(readonly error: EngineError) {
    super(error.message);
  }
}

function passingRangeErrors<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof EngineError && e.errorName === 'NUMERIC_VALUE_OUT_OF_RANGE') throw new ScalarCastError(e);
    throw e;
  }
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** An integer token as Jackson's getLongValue reads it: beyond a long it fails. */
function longOf(n: JsonNumber): bigint {
  const value = BigInt(n.text);
  if (value < LONG_MIN || value > LONG_MAX) throw new JsonCastFailure(`Numeric value (${n.text}) out of range of long`);
  return value;
}

function tokenText(node: JsonNode): string {
  if (Array.isArray(node)) return '[';
  if (node instanceof JsonObject) return '{';
  if (node instanceof JsonNumber) return node.text;
  return node === null ? 'null' : String(node);
}

function unexpected(node: JsonNode, target: string): never {
  throw new JsonCastFailure(`Unexpected token when cast to ${target}: ${tokenText(node)}`);
}

/** The converter of one JSON node to a value of `type` (null for a JSON null). */
function fromJsonNode(type: SqlType, cast: CastLookup): (node: JsonNode) => Scalar {
  switch (type.kind) {
    case 'json':
      // A JSON null inside an array, map or row is the json value null, not SQL NULL (Trino: [JSON 'null']).
      return (node) => writeJsonText(node, CANONICAL_STYLE);
    case 'varchar': {
      const fit = cast(VARCHAR, type);
      return (node) => {
        if (node === null) return null;
        if (typeof node === 'string') return fit(node);
        if (typeof node === 'boolean') return fit(String(node));
        if (node instanceof JsonNumber) return fit(node.integral ? node.text : formatDoubleAsText(Number(node.text)));
        return unexpected(node, 'varchar');
      };
    }
    case 'number':
      return (node) => {
        if (node === null) return null;
        if (typeof node === 'boolean') return node ? '1' : '0';
        const value =
          typeof node === 'string'
            ? parseNumberText(node)
            : node instanceof JsonNumber
              ? parseFinite(node.text)
              : unexpected(node, 'number');
        if (value === undefined) throw new JsonCastFailure(`Cannot cast '${node as string}' to NUMBER`);
        return numberText(value);
      };
    case 'decimal': {
      const target = `DECIMAL(${type.precision},${type.scale})`;
      return (node) => {
        if (node === null) return null;
        const text =
          typeof node === 'boolean'
            ? node
              ? '1'
              : '0'
            : typeof node === 'string'
              ? node
              : node instanceof JsonNumber
                ? node.text
                : unexpected(node, target);
        const unscaled = parseDecimalText(text, type.scale);
        if (unscaled === undefined) throw new JsonCastFailure(`Cannot cast '${text}' to ${target}`);
        if (!fitsPrecision(unscaled, type.precision))
          throw new ScalarCastError(new EngineError('NUMERIC_VALUE_OUT_OF_RANGE', `Cannot cast input json to ${target}`));
        return unscaled;
      };
    }
    case 'array': {
      const element = fromJsonNode(type.element, cast);
      return (node) => {
        if (node === null) return null;
        if (!Array.isArray(node)) throw new JsonCastFailure(`Expected a json array, but got ${tokenText(node)}`);
        return node.map(element);
      };
    }
    case 'map': {
      const key = fromJsonNode(type.key, cast);
      const value = fromJsonNode(type.value, cast);
      return (node) => {
        if (node === null) return null;
        if (!(node instanceof JsonObject)) throw new JsonCastFailure(`Expected a json object, but got ${tokenText(node)}`);
        const keys: Scalar[] = [];
        const seen = new Set<unknown>();
        for (const name of node.members.keys()) {
          const k = key(name);
          if (seen.has(mapLookupKey(k))) throw new JsonCastFailure('Duplicate keys are not allowed');
          seen.add(mapLookupKey(k));
          keys.push(k);
        }
        return new MapValue(keys, [...node.members.values()].map(value));
      };
    }
    case 'row':
      return rowFromJsonNode(type, cast);
    default:
      return scalarFromJsonNode(type, cast);
  }
}

function rowFromJsonNode(type: SqlType & { kind: 'row' }, cast: CastLookup): (node: JsonNode) => Scalar {
  const fields = type.fields.map((f) => fromJsonNode(f.type, cast));
  const anonymous = type.fields[0]?.name === undefined;
  const indexByName = new Map(type.fields.map((f, i) => [(f.name ?? '').toLowerCase(), i]));
  return (node) => {
    if (node === null) return null;
    if (Array.isArray(node)) {
      if (node.length < fields.length)
        throw new JsonCastFailure(`Unexpected token when cast to ${typeName(type.fields[node.length].type)}: ]`);
      if (node.length > fields.length) throw new JsonCastFailure(`Expected json array ending, but got ${tokenText(node[fields.length])}`);
      return node.map((item, i) => fields[i](item));
    }
    if (!(node instanceof JsonObject)) throw new JsonCastFailure(`Expected a json array or object, but got ${tokenText(node)}`);
    if (anonymous) throw new JsonCastFailure('Cannot cast a JSON object to anonymous row type. Input must be a JSON array.');
    const out: Scalar[] = fields.map(() => null);
    const written = new Set<number>();
    for (const [name, member] of node.members) {
      const index = indexByName.get(name.toLowerCase());
      if (index === undefined) continue;
      if (written.has(index)) throw new JsonCastFailure(`Duplicate field: ${name.toLowerCase()}`);
      written.add(index);
      out[index] = fields[index](member);
    }
    return out;
  };
}

/** boolean, integral types, real and double: strings through the varchar cast, numbers as Trino reads them. */
function scalarFromJsonNode(type: SqlType, cast: CastLookup): (node: JsonNode) => Scalar {
  const fromText = cast(VARCHAR, type);
  const fromDouble = cast(DOUBLE, type);
  const fromBoolean = cast(BOOLEAN, type);
  const fromBigint = isIntegral(type) ? cast({ kind: 'bigint' }, type) : undefined;
  const name = type.kind;
  return (node) => {
    if (node === null) return null;
    if (typeof node === 'string') return fromText(node);
    if (typeof node === 'boolean') return fromBoolean(node);
    if (!(node instanceof JsonNumber)) return unexpected(node, name);
    if (name === 'boolean') return node.integral ? longOf(node) !== 0n : Number(node.text) !== 0;
    if (node.integral && fromBigint !== undefined) {
      const value = longOf(node);
      try {
        return fromBigint(value);
      } catch {
        throw new JsonCastFailure(`Out of range for ${name}: ${node.text}`); // Math.toIntExact's failure in Trino
      }
    }
    return passingRangeErrors(() => fromDouble(Number(node.text)));
  };
}

/** CAST(json AS type): INVALID_CAST_ARGUMENT with Trino's wording when the text does not fit. */
export function castFromJson(type: SqlType, cast: CastLookup): (json: string) => Scalar {
  const convert = fromJsonNode(type, cast);
  const container = type.kind === 'array' || type.kind === 'map' || type.kind === 'row';
  return (json) => {
    try {
      return convert(parseJsonText(json));
    } catch (e) {
      if (e instanceof ScalarCastError && !container) throw e.error;
      if (!(e instanceof JsonCastFailure || e instanceof JsonSyntaxError || e instanceof EngineError || e instanceof ScalarCastError))
        throw e;
      if (container) {
        const detail = e instanceof JsonSyntaxError ? '' : ` ${e.message}`;
        throw new EngineError('INVALID_CAST_ARGUMENT', `Cannot cast to ${typeName(type)}.${detail}\n${truncateForMessage(json)}`);
      }
      throw new EngineError('INVALID_CAST_ARGUMENT', `Cannot cast '${json}' to ${typeName(type)}`);
    }
  };
}

/** Trino cuts a value quoted in an error message to its first 100 characters. */
export function truncateForMessage(text: string): string {
  return text.length <= 100 ? text : `${text.slice(0, 100)}...(truncated)`;
}
