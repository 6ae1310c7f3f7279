// VARIANT and JSON, as Trino converts them: JSON numbers become the types its JSON reader gives them
// (int32, int64, a decimal when wider, a double when written with a fraction or an exponent), and a
// variant is written as JSON with its temporal values as text and its binary values as base64.

import { EngineError } from '../../errors/engine-error.js';
import { formatDecimal } from '../decimal.js';
import { formatDate, formatTimeOfDay, formatTimestamp } from '../datetime.js';
import { JsonNumber, type JsonObject, parseJsonText, jsonString, type JsonNode } from '../json/json-node.js';
import { formatDoubleAsText, formatRealAsText } from '../number-format.js';
import { compareUtf8 } from './variant-encoding.js';
import { VARIANT_NULL, integerVariant, type VariantValue } from './variant-value.js';

const MAX_DECIMAL16 = 10n ** 38n;

/** CAST(json AS VARIANT). */
export function variantFromJson(text: string): VariantValue {
  return fromNode(parseJsonText(text));
}

function fromNode(node: JsonNode): VariantValue {
  if (node === null) return VARIANT_NULL;
  if (typeof node === 'boolean') return { kind: 'boolean', value: node };
  if (typeof node === 'string') return { kind: 'string', value: node };
  if (node instanceof JsonNumber) return fromNumber(node);
  if (Array.isArray(node)) return { kind: 'array', elements: node.map(fromNode) };
  return { kind: 'object', fields: new Map([...(node as JsonObject).members].map(([name, value]) => [name, fromNode(value)])) };
}

/** As Jackson reads a number: an int, a long, a big integer (decimal16 of scale 0), else a double. */
function fromNumber(n: JsonNumber): VariantValue {
  if (!n.integral) return { kind: 'double', value: Number(n.text) };
  const value = BigInt(n.text);
  if (value >= -(2n ** 31n) && value < 2n ** 31n) return integerVariant(value, 'int32');
  if (value >= -(2n ** 63n) && value < 2n ** 63n) return integerVariant(value, 'int64');
  if (value >= MAX_DECIMAL16 || value <= -MAX_DECIMAL16)
    throw new EngineError('INVALID_CAST_ARGUMENT', `Cannot cast to variant: the number ${n.text} has more than 38 digits`);
  return { kind: 'decimal16', unscaled: value, scale: 0 };
}

/** CAST(variant AS JSON): Trino's JSON text (objects in field-name order, no spaces). */
export function variantToJson(value: VariantValue): string {
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'boolean':
      return String(value.value);
    case 'int8':
    case 'int16':
    case 'int32':
    case 'int64':
      return String(value.value);
    case 'decimal4':
    case 'decimal8':
    case 'decimal16':
      return formatDecimal(value.unscaled, value.scale);
    case 'float':
      return Number.isFinite(value.value) ? formatRealAsText(value.value) : `"${formatRealAsText(value.value)}"`;
    case 'double':
      return Number.isFinite(value.value) ? formatDoubleAsText(value.value) : `"${formatDoubleAsText(value.value)}"`;
    case 'binary':
      return `"${Buffer.from(value.value).toString('base64')}"`;
    case 'array':
      return `[${value.elements.map(variantToJson).join(',')}]`;
    case 'object':
      return `{${[...value.fields.keys()]
        .sort(compareUtf8)
        .map((name) => `${jsonString(name)}:${variantToJson(value.fields.get(name)!)}`)
        .join(',')}}`;
    default:
      return jsonString(variantScalarText(value)!);
  }
}

/** A scalar variant as text: what CAST(variant AS varchar) gives, for the kinds it is the same in JSON. */
export function variantScalarText(value: VariantValue): string | undefined {
  switch (value.kind) {
    case 'string':
      return value.value;
    case 'date':
      return formatDate(value.days);
    case 'uuid':
      return `${value.hex.slice(0, 8)}-${value.hex.slice(8, 12)}-${value.hex.slice(12, 16)}-${value.hex.slice(16, 20)}-${value.hex.slice(20)}`;
    case 'time_ntz_micros':
      return formatTimeOfDay(Number(value.value), 6);
    case 'timestamp_ntz_micros':
      return formatTimestamp(Number(value.value), 6);
    case 'timestamp_utc_micros':
      return `${formatTimestamp(Number(value.value), 6)} UTC`;
    case 'timestamp_ntz_nanos':
    case 'timestamp_utc_nanos': {
      const micros = value.value / 1000n - (value.value % 1000n < 0n ? 1n : 0n);
      const nanos = value.value - micros * 1000n;
      const text = `${formatTimestamp(Number(micros), 6)}${String(nanos).padStart(3, '0')}`;
      return value.kind === 'timestamp_utc_nanos' ? `${text} UTC` : text;
    }
    default:
      return undefined;
  }
}
