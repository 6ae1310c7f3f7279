// JSON, as Trino's CLI prints it: one object per row, keyed by column name in column order, values
// as its JSON library writes the objects the client decodes: doubles and reals as Java prints them
// (1.0, 1.0E10, "NaN" as a string), varbinary as a string of hex bytes (inside arrays and maps,
// base64), maps in java.util.HashMap order. Trino's printer fails on a row value; here a row is an
// object of its fields (an array when they have no names).

import type { ColumnJson } from '../../server/statement-json.js';
import type { TypeSignature } from '../../types/types.js';
import { formatDoubleAsText, formatRealAsText } from '../../types/number-format.js';
import { valueKind } from './client-types.js';
import { hexDump, mapKeyText, orderedEntries, rowFields, toNumber, typeArgument, UNKNOWN_TYPE } from './format-value.js';
import { stringifyJson, type JsonValue } from '../../types/exact-json.js';
import type { OutputPrinter } from './printer.js';
import type { TextOutput } from './sink.js';

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\t': '\\t',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
};
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/g;

export class JsonPrinter implements OutputPrinter {
  private readonly keys: string[];

  constructor(
    private readonly columns: readonly ColumnJson[],
    private readonly output: TextOutput,
  ) {
    this.keys = columns.map((c) => jsonString(c.name));
  }

  async printRows(rows: readonly unknown[][]): Promise<void> {
    let out = '';
    for (const row of rows)
      out += `{${this.columns.map((c, i) => `${this.keys[i]}:${jsonValue(row[i], c.typeSignature, true)}`).join(',')}}\n`;
    await this.output.write(out);
  }

  async finish(): Promise<void> {}
}

/** A value as JSON text; `topLevel`: a column's own value (binary inside arrays and maps stays base64). */
function jsonValue(value: unknown, type: TypeSignature, topLevel = false): string {
  if (value === null || value === undefined) return 'null';
  switch (valueKind(type)) {
    case 'double':
      return javaNumber(formatDoubleAsText(toNumber(value)));
    case 'real':
      return javaNumber(formatRealAsText(Math.fround(toNumber(value))));
    case 'integral':
      return String(value);
    case 'text':
      return jsonString(String(value));
    case 'binary':
      return jsonString(topLevel ? hexDump(Buffer.from(String(value), 'base64')) : String(value));
    case 'array':
      return `[${(value as unknown[]).map((element) => jsonValue(element, typeArgument(type, 0))).join(',')}]`;
    case 'map': {
      const [keyType, valueType] = [typeArgument(type, 0), typeArgument(type, 1)];
      const entries = orderedEntries(value as Record<string, unknown>, keyType);
      return `{${entries.map(([key, v]) => `${jsonString(mapKeyText(key, keyType, 'base64'))}:${jsonValue(v, valueType)}`).join(',')}}`;
    }
    case 'row': {
      const fields = rowFields(type);
      const values = (value as unknown[]).map((v, i) => jsonValue(v, fields[i]?.type ?? UNKNOWN_TYPE));
      if (fields.some((f) => f.name === undefined)) return `[${values.join(',')}]`;
      return `{${values.map((v, i) => `${jsonString(fields[i]!.name!)}:${v}`).join(',')}}`;
    }
    case 'variant':
    case 'object':
      return stringifyJson(value as JsonValue);
  }
}

/** NaN and the infinities are not JSON numbers: Jackson writes them as strings. */
function javaNumber(text: string): string {
  return /^-?(NaN|Infinity)$/.test(text) ? `"${text}"` : text;
}

/** A JSON string as Jackson writes it: short escapes where JSON has them, \u00XX (upper-case) for other control characters. */
function jsonString(text: string): string {
  return `"${text.replace(NEEDS_ESCAPE, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)}"`;
}
