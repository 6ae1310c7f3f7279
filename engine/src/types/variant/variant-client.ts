// How the client protocol shows a VARIANT: Trino sends a client that does not declare the VARIANT
// capability (as no Trino client library does by default) a `json` column holding the variant as JSON
// text, also inside arrays, maps and rows. The engine reads no capabilities, so it always sends that.

import type { SqlType } from '../types.js';
import { JSON_TYPE } from '../types.js';
import { decodeVariant } from './variant-encoding.js';
import { variantToJson } from './variant-json.js';

/** The type a client is told a column has. */
export function clientColumnType(type: SqlType): SqlType {
  switch (type.kind) {
    case 'variant':
      return JSON_TYPE;
    case 'array':
      return { kind: 'array', element: clientColumnType(type.element) };
    case 'map':
      return { kind: 'map', key: type.key, value: clientColumnType(type.value) };
    case 'row':
      return { kind: 'row', fields: type.fields.map((f) => ({ name: f.name, type: clientColumnType(f.type) })) };
    default:
      return type;
  }
}

/** A variant value as text: its JSON (the client protocol's string, the CLI's text, CAST to varchar of a container). */
export function variantText(bytes: Uint8Array): string {
  return variantToJson(decodeVariant(bytes));
}
