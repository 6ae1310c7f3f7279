// A value of a result as Trino's CLI shows it (FormatUtils.formatValue over the objects its client
// decodes each type to): doubles and reals as Java prints them (1.0, 1.0E10, NaN), varbinary as hex
// bytes 16 to a line, arrays as [a, b], maps as {k=v} in java.util.HashMap order, rows as {name=v},
// NULL for a null inside them. Decimals, dates, times, varchar and other text types print as sent.

import type { TypeSignature } from '../../types/types.js';
import { formatDoubleAsText, formatRealAsText } from '../../types/number-format.js';
import { INTEGRAL_TYPES, keyIsText, valueKind } from './client-types.js';
import { hashMapOrder, javaKeyHash } from './java-hash-order.js';
import { stringifyJson, type JsonValue } from '../../types/exact-json.js';

/** How a format shows a null and splits binary values: ALIGNED, VERTICAL, MARKDOWN as `DISPLAY`; CSV and TSV as `DELIMITED`. */
export interface ValueStyle {
  nullText: string;
  /** Bytes per line of a varbinary's hex dump; 0 for one line. */
  bytesPerLine: number;
}

export const DISPLAY: ValueStyle = { nullText: 'NULL', bytesPerLine: 16 };
export const DELIMITED: ValueStyle = { nullText: '', bytesPerLine: 0 };

/** The type of a value whose type the server did not say. */
export const UNKNOWN_TYPE: TypeSignature = { rawType: 'unknown', arguments: [] };

export function formatValue(value: unknown, type: TypeSignature, style: ValueStyle = DISPLAY): string {
  if (value === null || value === undefined) return style.nullText;
  switch (valueKind(type)) {
    case 'double':
      return formatDoubleAsText(toNumber(value));
    case 'real':
      return formatRealAsText(Math.fround(toNumber(value)));
    case 'integral':
    case 'text':
      return String(value);
    case 'array':
      return `[${(value as unknown[]).map((element) => formatValue(element, typeArgument(type, 0))).join(', ')}]`;
    case 'map':
      return formatMap(value as Record<string, unknown>, typeArgument(type, 0), typeArgument(type, 1));
    case 'row':
      return formatRow(value as unknown[], type);
    case 'variant':
      return stringifyJson(value as JsonValue);
    case 'object':
      return formatObject(value);
    case 'binary':
      return hexDump(Buffer.from(String(value), 'base64'), style.bytesPerLine);
  }
}

/** formatValue for one column: the type's kind looked up once, numbers and text formatted without a dispatch per value. */
export function valueFormatter(type: TypeSignature, style: ValueStyle = DISPLAY): (value: unknown) => string {
  const { nullText } = style;
  switch (valueKind(type)) {
    case 'integral':
    case 'text':
      return (value) => (value === null || value === undefined ? nullText : String(value));
    case 'double':
      return (value) => (value === null || value === undefined ? nullText : formatDoubleAsText(toNumber(value)));
    default:
      return (value) => formatValue(value, type, style);
  }
}

/** Lowercase hex pairs separated by spaces, `bytesPerLine` to a line (all on one when 0). */
export function hexDump(bytes: Uint8Array, bytesPerLine = 0): string {
  const pairs = Array.from(bytes, (b) => b.toString(16).padStart(2, '0'));
  if (bytesPerLine <= 0) return pairs.join(' ');
  const lines: string[] = [];
  for (let i = 0; i < pairs.length; i += bytesPerLine) lines.push(pairs.slice(i, i + bytesPerLine).join(' '));
  return lines.join('\n');
}

/** A number the server sent as a JSON number, as a bigint beyond 2^53, or as text ("NaN", "Infinity"). */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

/** The type of an array's elements (0), a map's keys (0) or values (1). */
export function typeArgument(type: TypeSignature, index: number): TypeSignature {
  return (type.arguments[index]?.value as TypeSignature | undefined) ?? UNKNOWN_TYPE;
}

/** A row type's fields: each one's name (when it has one) and type. */
export function rowFields(type: TypeSignature): Array<{ name: string | undefined; type: TypeSignature }> {
  return type.arguments.map((argument) => {
    const field = argument.value as { fieldName?: { name?: string } | null; typeSignature: TypeSignature };
    return { name: field.fieldName?.name ?? undefined, type: field.typeSignature };
  });
}

/** A map's entries in the order Trino's CLI iterates them. */
export function orderedEntries(map: Record<string, unknown>, keyType: TypeSignature): ReadonlyArray<[string, unknown]> {
  const entries = Object.entries(map);
  return hashMapOrder(
    entries,
    entries.map(([key]) => javaKeyHash(key, keyType.rawType)),
  );
}

function formatMap(map: Record<string, unknown>, keyType: TypeSignature, valueType: TypeSignature): string {
  const entries = orderedEntries(map, keyType).map(([key, value]) => `${mapKeyText(key, keyType, 'hex')}=${formatValue(value, valueType)}`);
  return `{${entries.join(', ')}}`;
}

/**
 * A map key (JSON keys are text) as the object the client parses it to prints: a double or real key as
 * Java prints the number, a binary key as hex (`binary` 'hex') or as the base64 the server sent.
 */
export function mapKeyText(key: string, keyType: TypeSignature, binary: 'hex' | 'base64'): string {
  const raw = keyType.rawType;
  if (raw === 'double') return formatDoubleAsText(Number(key));
  if (raw === 'real') return formatRealAsText(Math.fround(Number(key)));
  if (binary === 'base64' || INTEGRAL_TYPES.has(raw) || keyIsText(raw)) return key;
  return hexDump(Buffer.from(key, 'base64'), DISPLAY.bytesPerLine);
}

function formatRow(values: unknown[], type: TypeSignature): string {
  const fields = rowFields(type);
  const parts = values.map((value, i) => {
    const field = fields[i];
    const text = formatValue(value, field?.type ?? UNKNOWN_TYPE);
    return field?.name === undefined ? text : `${field.name}=${text}`;
  });
  return `{${parts.join(', ')}}`;
}

/** A value of a type the client reads as plain JSON: lists as [a, b], objects as {k=v}. */
function formatObject(value: unknown): string {
  if (value === null || value === undefined) return DISPLAY.nullText;
  if (Array.isArray(value)) return `[${value.map(formatObject).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}=${formatObject(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}
