// The SQL type system, spelled as Trino spells it on the wire.

import { EngineError } from '../errors/engine-error.js';
import { type QDigestName, qdigestTypeSignature } from './sketch/qdigest-type.js';

export type SqlType =
  | { kind: 'boolean' }
  | { kind: 'tinyint' }
  | { kind: 'smallint' }
  | { kind: 'integer' }
  | { kind: 'bigint' }
  | { kind: 'real' }
  | { kind: 'double' }
  | { kind: 'decimal'; precision: number; scale: number }
  | { kind: 'varchar'; length?: number } // length undefined = unbounded
  | { kind: 'char'; length: number }
  | { kind: 'varbinary' }
  // JSON text in Trino's canonical form (json/json-text.ts), held as a JS string like varchar.
  | { kind: 'json' }
  // Held as text in the engine (uuid-type.ts, ipaddress-type.ts): a uuid in its canonical lowercase
  // form; an IP address as the 32 hex digits of its 16 bytes (IPv4 as IPv4-mapped IPv6), whose text
  // order is Trino's byte order.
  | { kind: 'uuid' }
  | { kind: 'ipaddress' }
  // Trino's color (color-type.ts): held as its client text, `#rrggbb` or one of the eight ANSI color names.
  | { kind: 'color' }
  // A semi-structured value (variant/): its Parquet Variant encoding, metadata then value, in one Uint8Array.
  | { kind: 'variant' }
  // An arbitrary-precision decimal with NaN and ±Infinity, held as its canonical text (types/number/).
  | { kind: 'number' }
  // A sketch (functions/sketch/): its serialized bytes in Trino's format, stored like varbinary; not comparable.
  | { kind: 'sketch'; sketch: SketchName }
  | { kind: 'date' }
  | { kind: 'time'; precision: number }
  | { kind: 'timestamp'; precision: number }
  // An instant plus the zone it was written in (zoned-timestamp.ts, long-zoned-timestamp.ts); precision 0..12.
  | { kind: 'timestamp with time zone'; precision: number }
  // A time of day at a fixed offset (zoned-time.ts); precision 0..12.
  | { kind: 'time with time zone'; precision: number }
  | { kind: 'interval year to month' }
  | { kind: 'interval day to second' }
  | { kind: 'array'; element: SqlType }
  // The type of a lambda argument (Trino's function(T,...,R)): only function parameters have it, never a column.
  | { kind: 'function'; arguments: readonly SqlType[]; returnType: SqlType }
  | { kind: 'map'; key: SqlType; value: SqlType }
  | { kind: 'row'; fields: readonly RowField[] }
  | { kind: 'unknown' } // the type of a bare NULL literal
  // A column type the engine cannot process yet (a nested Parquet column such as a list of structs), known
  // only by Trino's name for it so that metadata can show it; every use of such a column is refused.
  | { kind: 'unsupported'; name: string };

export type TypeKind = SqlType['kind'];

/** Trino's sketch types, spelled as Trino prints them. */
export type SketchName = 'HyperLogLog' | 'P4HyperLogLog' | 'SetDigest' | 'tdigest' | QDigestName;

/** A field of a row type: anonymous fields have no name. */
export interface RowField {
  readonly name?: string;
  readonly type: SqlType;
}

export const BOOLEAN: SqlType = { kind: 'boolean' };
export const TINYINT: SqlType = { kind: 'tinyint' };
export const SMALLINT: SqlType = { kind: 'smallint' };
export const INTEGER: SqlType = { kind: 'integer' };
export const BIGINT: SqlType = { kind: 'bigint' };
export const REAL: SqlType = { kind: 'real' };
export const DOUBLE: SqlType = { kind: 'double' };
export const VARCHAR: SqlType = { kind: 'varchar' };
export const VARBINARY: SqlType = { kind: 'varbinary' };
export const JSON_TYPE: SqlType = { kind: 'json' };
export const UUID: SqlType = { kind: 'uuid' };
export const NUMBER: SqlType = { kind: 'number' };
export const IPADDRESS: SqlType = { kind: 'ipaddress' };
export const COLOR: SqlType = { kind: 'color' };
export const VARIANT: SqlType = { kind: 'variant' };
export const DATE: SqlType = { kind: 'date' };
export const HYPER_LOG_LOG: SqlType = { kind: 'sketch', sketch: 'HyperLogLog' };
export const P4_HYPER_LOG_LOG: SqlType = { kind: 'sketch', sketch: 'P4HyperLogLog' };
export const SET_DIGEST: SqlType = { kind: 'sketch', sketch: 'SetDigest' };
export const TDIGEST: SqlType = { kind: 'sketch', sketch: 'tdigest' };
export const UNKNOWN: SqlType = { kind: 'unknown' };
export const INTERVAL_YEAR_MONTH: SqlType = { kind: 'interval year to month' };
export const INTERVAL_DAY_SECOND: SqlType = { kind: 'interval day to second' };

export function decimal(precision: number, scale: number): SqlType {
  return { kind: 'decimal', precision, scale };
}
export function varchar(length?: number): SqlType {
  return length === undefined ? VARCHAR : { kind: 'varchar', length };
}
export function timestamp(precision = 3): SqlType {
  return { kind: 'timestamp', precision };
}
export function timestampWithTimeZone(precision = 3): SqlType {
  return { kind: 'timestamp with time zone', precision };
}
/** `array(element)`. Container types (array, and later map and row) hold their parameters as SqlTypes. */
export function arrayOf(element: SqlType): SqlType {
  return { kind: 'array', element };
}
/** `function(arguments..., returnType)`: the type of a lambda. */
export function functionType(argumentTypes: readonly SqlType[], returnType: SqlType): SqlType {
  return { kind: 'function', arguments: argumentTypes, returnType };
}

/** `map(key, value)`. Keys holding zoned values are matched by their instants (map-keys.ts). */
export function mapOf(key: SqlType, value: SqlType): SqlType {
  return { kind: 'map', key, value };
}

/** `row(name type, ...)`: one field per entry, in order (row-type.ts has the row-specific rules). */
export function rowOf(fields: readonly RowField[]): SqlType {
  return { kind: 'row', fields };
}
/** A type shown as `name` (Trino's spelling: `array(integer)`) that the engine cannot process yet. */
export function unsupportedType(name: string): SqlType {
  return { kind: 'unsupported', name };
}
/** What any use of a value of an unsupported type fails with. */
export function unsupportedTypeError(type: { name: string } | SqlType): EngineError {
  return new EngineError('NOT_SUPPORTED', `Type ${'kind' in type ? typeName(type) : type.name} is not supported yet`);
}

export const MAX_DECIMAL_PRECISION = 38;
/** Decimals up to this precision are stored in a BigInt64Array, wider ones in a bigint[]. */
export const SHORT_DECIMAL_PRECISION = 18;

/** The type's name as Trino prints it: `varchar(25)`, `decimal(12,2)`, `timestamp(3)`. */
export function typeName(t: SqlType): string {
  switch (t.kind) {
    case 'decimal':
      return `decimal(${t.precision},${t.scale})`;
    case 'varchar':
      return t.length === undefined ? 'varchar' : `varchar(${t.length})`;
    case 'char':
      return `char(${t.length})`;
    case 'time':
      return `time(${t.precision})`;
    case 'timestamp':
      return `timestamp(${t.precision})`;
    case 'timestamp with time zone':
      return `timestamp(${t.precision}) with time zone`;
    case 'time with time zone':
      return `time(${t.precision}) with time zone`;
    case 'array':
      return `array(${typeName(t.element)})`;
    case 'function':
      return `function(${[...t.arguments, t.returnType].map(typeName).join(',')})`;
    case 'map':
      return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'row':
      return `row(${t.fields.map((f) => (f.name === undefined ? typeName(f.type) : `"${f.name.replace(/"/g, '""')}" ${typeName(f.type)}`)).join(', ')})`;
    case 'unsupported':
      return t.name;
    case 'sketch':
      return t.sketch;
    default:
      return t.kind;
  }
}

export interface TypeSignatureArgument {
  kind: 'LONG' | 'TYPE' | 'NAMED_TYPE' | 'VARIABLE';
  value: unknown;
}
export interface TypeSignature {
  rawType: string;
  arguments: TypeSignatureArgument[];
}

/** `typeSignature` as Trino sends it in `columns` (JDBC and Python clients read it). */
export function typeSignature(t: SqlType): TypeSignature {
  const long = (value: number): TypeSignatureArgument => ({ kind: 'LONG', value });
  switch (t.kind) {
    case 'decimal':
      return { rawType: 'decimal', arguments: [long(t.precision), long(t.scale)] };
    case 'varchar':
      return { rawType: 'varchar', arguments: [long(t.length ?? 2147483647)] };
    case 'char':
      return { rawType: 'char', arguments: [long(t.length)] };
    case 'time':
    case 'timestamp':
    case 'timestamp with time zone':
    case 'time with time zone':
      return { rawType: t.kind, arguments: [long(t.precision)] };
    case 'array':
      return { rawType: 'array', arguments: [{ kind: 'TYPE', value: typeSignature(t.element) }] };
    case 'map':
      return {
        rawType: 'map',
        arguments: [
          { kind: 'TYPE', value: typeSignature(t.key) },
          { kind: 'TYPE', value: typeSignature(t.value) },
        ],
      };
    case 'row':
      // Trino sends each field as a NAMED_TYPE (a null fieldName for an anonymous field).
      return {
        rawType: 'row',
        arguments: t.fields.map((f) => ({
          kind: 'NAMED_TYPE',
          value: { fieldName: f.name === undefined ? null : { name: f.name }, typeSignature: typeSignature(f.type) },
        })),
      };
    case 'sketch':
      return qdigestTypeSignature(t.sketch, (element) => typeSignature(element)) ?? { rawType: t.sketch, arguments: [] };
    default:
      return { rawType: t.kind, arguments: [] };
  }
}

export function typesEqual(a: SqlType, b: SqlType): boolean {
  return typeName(a) === typeName(b);
}

export function isIntegral(t: SqlType): boolean {
  return t.kind === 'tinyint' || t.kind === 'smallint' || t.kind === 'integer' || t.kind === 'bigint';
}
export function isNumeric(t: SqlType): boolean {
  return isIntegral(t) || t.kind === 'real' || t.kind === 'double' || t.kind === 'decimal';
}
export function isString(t: SqlType): boolean {
  return t.kind === 'varchar' || t.kind === 'char';
}
/** Whether a type's values are JS strings in column storage (character strings, json text, uuid, ipaddress and color text). */
export function holdsStrings(t: SqlType): boolean {
  return (
    t.kind === 'varchar' ||
    t.kind === 'char' ||
    t.kind === 'json' ||
    t.kind === 'uuid' ||
    t.kind === 'ipaddress' ||
    t.kind === 'color' ||
    t.kind === 'number'
  );
}
/** Whether a type's values are Uint8Arrays in column storage (varbinary, the serialized sketches, encoded variants). */
export function holdsBytes(t: SqlType): boolean {
  return t.kind === 'varbinary' || t.kind === 'sketch' || t.kind === 'variant';
}
export function isTemporal(t: SqlType): boolean {
  return t.kind === 'date' || t.kind === 'time' || t.kind === 'timestamp' || t.kind === 'timestamp with time zone';
}
export function isInterval(t: SqlType): boolean {
  return t.kind === 'interval year to month' || t.kind === 'interval day to second';
}
/** Precision of an integral type when seen as a decimal (Trino: tinyint 3, smallint 5, integer 10, bigint 19). */
export function integralDecimalPrecision(t: SqlType): number {
  switch (t.kind) {
    case 'tinyint':
      return 3;
    case 'smallint':
      return 5;
    case 'integer':
      return 10;
    case 'bigint':
      return 19;
    default:
      throw new Error(`not an integral type: ${typeName(t)}`);
  }
}
