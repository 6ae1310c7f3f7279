// Values as text and as JSON, following Trino (char(n) values are padded to n here: chars.ts).

import { formatZonedTime } from './zoned-time.js';
import { formatAddress } from './address-casts.js';
import { variantText } from './variant/variant-client.js';
import type { Scalar } from './scalar.js';
import type { MapValue } from './map-value.js';
import { padChar } from './chars.js';
import { formatDecimal } from './decimal.js';
import { formatDate, formatIntervalDaySecond, formatIntervalYearMonth, formatTimeOfDay } from './datetime.js';
import { formatShortTimestamp } from './short-plain-timestamp.js';
import { formatDoubleAsText, formatRealAsText, realToShortestNumber } from './number-format.js';
import type { SqlType } from './types.js';
import { formatZoned } from './zoned-timestamp.js';
import { mapRowValue } from './row-type.js';
import { formatLongPlain, isLongPlain } from './long-plain-temporal.js';

const utf8Decoder = new TextDecoder('utf-8');

export function bytesToBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Temporal and interval values as Trino prints them (JSON and text alike). */
function formatTemporal(value: number, type: SqlType): string | undefined {
  if (isLongPlain(type)) return formatLongPlain(value as unknown as bigint, type);
  switch (type.kind) {
    case 'date':
      return formatDate(value);
    case 'time':
      return formatTimeOfDay(value, type.precision);
    case 'timestamp':
      return formatShortTimestamp(value, type.precision);
    case 'interval year to month':
      return formatIntervalYearMonth(value);
    case 'interval day to second':
      return formatIntervalDaySecond(value);
    default:
      return undefined;
  }
}

/** One value of `type` as Trino writes it in a result's `data` (DESIGN.md, JSON output). */
export function toJsonValue(value: Scalar, type: SqlType): unknown {
  if (value === null || type.kind === 'unknown') return null;
  switch (type.kind) {
    case 'boolean':
      return value === true || value === 1;
    case 'tinyint':
    case 'smallint':
    case 'integer':
      return value;
    case 'bigint':
      return Number(value);
    case 'double':
      return Number.isFinite(value) ? value : formatDoubleAsText(value as number);
    case 'real':
      return Number.isFinite(value) ? realToShortestNumber(value as number) : formatRealAsText(value as number);
    case 'decimal':
      return formatDecimal(value as bigint, type.scale);
    case 'varchar':
    case 'json':
    case 'number':
    case 'color': // Trino sends ColorType's object value: `#rrggbb` or the color's name
      return value;
    case 'char':
      return padChar(value as string, type.length);
    case 'varbinary':
    case 'sketch': // Trino sends a sketch's bytes as varbinary: base64
      return bytesToBase64(value as Uint8Array);
    case 'uuid':
    case 'ipaddress':
      return formatAddress(value as string, type);
    case 'variant':
      return variantText(value as Uint8Array);
    case 'array':
      return (value as readonly Scalar[]).map((element) => toJsonValue(element, type.element));
    case 'map':
      return mapJsonObject(value as MapValue, type, toJsonValue);
    case 'timestamp with time zone':
      return formatZoned(value as bigint, type.precision);
    case 'time with time zone':
      return formatZonedTime(value as bigint, type.precision);
    case 'row':
      return mapRowValue(value, type, toJsonValue);
    default:
      return formatTemporal(value as number, type);
  }
}

/** A value as text: what CAST(x AS varchar) yields. NULL is 'NULL'. */
export function formatValueAsText(value: Scalar, type: SqlType): string {
  if (value === null || type.kind === 'unknown') return 'NULL';
  switch (type.kind) {
    case 'boolean':
      return value === true || value === 1 ? 'true' : 'false';
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
      return String(value);
    case 'double':
      return formatDoubleAsText(value as number);
    case 'real':
      return formatRealAsText(value as number);
    case 'decimal':
      return formatDecimal(value as bigint, type.scale);
    case 'varchar':
    case 'json':
    case 'number':
    case 'color': // Trino sends ColorType's object value: `#rrggbb` or the color's name
      return value as string;
    case 'char':
      return padChar(value as string, type.length);
    case 'varbinary':
      return utf8Decoder.decode(value as Uint8Array);
    case 'uuid':
    case 'ipaddress':
      return formatAddress(value as string, type);
    case 'variant':
      return variantText(value as Uint8Array);
    case 'array':
      // As Trino's CLI prints an array.
      return `[${(value as readonly Scalar[]).map((element) => formatValueAsText(element, type.element)).join(', ')}]`;
    case 'map': {
      // As Trino's CLI (and Java's Map.toString) prints a map.
      const map = value as MapValue;
      return `{${map.keys.map((k, i) => `${formatValueAsText(k, type.key)}=${formatValueAsText(map.values[i], type.value)}`).join(', ')}}`;
    }
    case 'timestamp with time zone':
      return formatZoned(value as bigint, type.precision);
    case 'time with time zone':
      return formatZonedTime(value as bigint, type.precision);
    case 'row':
      // As Trino's CLI prints a row.
      return `{${mapRowValue(value, type, formatValueAsText)
        .map((v, i) => `${type.fields[i].name === undefined ? '' : `${type.fields[i].name}=`}${v ?? 'NULL'}`)
        .join(', ')}}`;
    default:
      return formatTemporal(value as number, type) as string;
  }
}

/**
 * A map as Trino's client protocol sends it: a JSON object in entry order whose names are the keys as
 * text (Java's toString of the key: 1, 1.5, abc, [1, 2]) and whose values are encoded by `encode`.
 */
export function mapJsonObject(
  map: MapValue,
  type: SqlType & { kind: 'map' },
  encode: (value: Scalar, type: SqlType) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < map.size; i++) out[formatValueAsText(map.keys[i], type.key)] = encode(map.values[i], type.value);
  return out;
}
