// How the client protocol sends a VARIANT, as Trino's JsonEncodingUtils and ProtocolUtil: to a client
// that declares neither capability (as trino-client and the CLI) a `json` column whose values are the
// variant's JSON text as a string, also inside arrays, maps and rows; with VARIANT, a `variant` column
// whose values are that JSON itself; with VARIANT_BINARY, a `variant` column whose values are
// {"metadata": base64, "value": base64}, the two parts of the Parquet Variant encoding.

import { OrderedJsonObject, RawJson } from '../exact-json.js';
import type { SqlType } from '../types.js';
import { JSON_TYPE } from '../types.js';
import { decodeVariant, variantParts } from './variant-encoding.js';
import { variantToJson } from './variant-json.js';

export type VariantWireForm = 'json-text' | 'json' | 'binary';

/** The form a session's client gets variants in (from the session's declared client capabilities). */
export function variantWireForm(session: { readonly clientCapabilities?: readonly string[] }): VariantWireForm {
  const capabilities = session.clientCapabilities ?? [];
  return capabilities.includes('VARIANT_BINARY') ? 'binary' : capabilities.includes('VARIANT') ? 'json' : 'json-text';
}

/** The type a client is told a column has. */
export function clientColumnType(type: SqlType, form: VariantWireForm): SqlType {
  switch (type.kind) {
    case 'variant':
      return form === 'json-text' ? JSON_TYPE : type;
    case 'array':
      return { kind: 'array', element: clientColumnType(type.element, form) };
    case 'map':
      return { kind: 'map', key: type.key, value: clientColumnType(type.value, form) };
    case 'row':
      return { kind: 'row', fields: type.fields.map((f) => ({ name: f.name, type: clientColumnType(f.type, form) })) };
    default:
      return type;
  }
}

/** A variant value as text: its JSON (the CLI's text, and the client protocol's string without the capability). */
export function variantText(bytes: Uint8Array): string {
  return variantToJson(decodeVariant(bytes));
}

/** A variant as a result's `data` carries it to a client that declared VARIANT or VARIANT_BINARY. */
export function variantWireValue(bytes: Uint8Array, form: Exclude<VariantWireForm, 'json-text'>): unknown {
  if (form === 'json') return new RawJson(variantText(bytes));
  const { metadata, value } = variantParts(bytes);
  return new OrderedJsonObject([
    ['metadata', Buffer.from(metadata).toString('base64')],
    ['value', Buffer.from(value).toString('base64')],
  ]);
}
