// How the Trino client decodes each type of a result (JsonDecodingUtils): to a number, to the text the
// server sent, to a list, a map, a row, plain JSON, or base64-decoded bytes; and a map's keys, which
// JSON gives as text, to a number, a String or bytes. Trino's CLI prints each kind its own way.

import type { TypeSignature } from '../../types/types.js';

/** What the client decodes a value of a type to. */
export type ValueKind = 'double' | 'real' | 'integral' | 'text' | 'array' | 'map' | 'row' | 'variant' | 'object' | 'binary';

const NUMERIC_TYPES = new Set(['tinyint', 'smallint', 'integer', 'bigint', 'real', 'double', 'decimal']);
/** Integers and booleans: the JSON value as it is. */
export const INTEGRAL_TYPES = new Set(['tinyint', 'smallint', 'integer', 'bigint', 'boolean']);
/** Types kept as the text the server sent; of these, map keys of all but `number` and `color` stay text too. */
const TEXT_TYPES = [
  'varchar',
  'json',
  'time',
  'time with time zone',
  'timestamp',
  'timestamp with time zone',
  'date',
  'interval year to month',
  'interval day to second',
  'ipaddress',
  'uuid',
  'decimal',
  'char',
  'Geometry',
  'SphericalGeography',
];
const TEXT_VALUE_TYPES = new Set([...TEXT_TYPES, 'number', 'color']);
const TEXT_KEY_TYPES = new Set([...TEXT_TYPES, 'BingTile']);
/** Types decoded as generic JSON (maps, lists, numbers). */
const OBJECT_TYPES = new Set(['KdbTree', 'BingTile']);

/** Numbers are right-aligned in ALIGNED and MARKDOWN. */
export function isNumericType(type: TypeSignature): boolean {
  return NUMERIC_TYPES.has(type.rawType);
}

export function valueKind(type: TypeSignature): ValueKind {
  const raw = type.rawType;
  if (raw === 'double' || raw === 'real' || raw === 'array' || raw === 'map' || raw === 'row' || raw === 'variant') return raw;
  if (INTEGRAL_TYPES.has(raw)) return 'integral';
  if (TEXT_VALUE_TYPES.has(raw)) return 'text';
  if (OBJECT_TYPES.has(raw)) return 'object';
  // varbinary, and every other type the client reads as base64 bytes (HyperLogLog, qdigest, ...)
  return 'binary';
}

/** Whether the client keeps a map key of this type as a String (keys of types not listed become byte[]). */
export function keyIsText(keyType: string): boolean {
  return TEXT_KEY_TYPES.has(keyType);
}
