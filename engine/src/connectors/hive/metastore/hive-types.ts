// Column types as the file metastore writes them: Hive's type names, as Trino's file metastore
// does (`int`, `string`, `decimal(12,2)`, `timestamp`), so that its JSON reads the same in Trino.
// Hive's `timestamp` has no precision: the catalog's timestamp precision says it (timestamp-precision.ts).
// `array<T>` is array(T) (the column keeps Trino's name too, for element types Hive's name cannot
// say), and `map<K,V>` map(K, V). Structs (`struct<a:int>`) of types we have are row(...); arrays
// and maps of structs, and structs holding arrays or maps, are kept and shown with Trino's names, but
// the engine cannot process their values yet (see SqlType 'unsupported').

import { EngineError } from '../../../errors/engine-error.js';
import { arrayOf, mapOf, rowOf, decimal, timestamp, typeName, unsupportedType, varchar, type SqlType } from '../../../types/types.js';
import {
  arrayElementTypeName,
  hiveTypeName,
  isNestedTypeName,
  mapEntryTypeNames,
  rowFieldTypeNames,
  trinoTypeName,
} from './nested-types.js';
import { clientTypeName } from '../../../types/row-type.js';

const MAX_HIVE_TIMESTAMP_PRECISION = 9;

/** The column property holding a type Hive's name cannot say (array(real), row field names). */
export const ENGINE_TYPE_PROPERTY = 'engine.type';

export interface HiveColumnType {
  type: string;
  /** Set when the Hive name alone would read back as another type. */
  engineType?: string;
}

export function toHiveType(type: SqlType, column: string): HiveColumnType {
  switch (type.kind) {
    case 'boolean':
    case 'tinyint':
    case 'smallint':
    case 'bigint':
    case 'double':
    case 'date':
      return { type: type.kind };
    case 'integer':
      return { type: 'int' };
    case 'real':
      return { type: 'float' };
    case 'decimal':
      return { type: `decimal(${type.precision},${type.scale})` };
    case 'varchar':
      return { type: type.length === undefined ? 'string' : `varchar(${type.length})` };
    case 'char':
      return { type: `char(${type.length})` };
    case 'varbinary':
      return { type: 'binary' };
    case 'timestamp':
      // Hive has one timestamp type: a catalog reads it at its timestamp precision (timestamp-precision.ts),
      // at most nanoseconds (Parquet's finest unit).
      if (type.precision > MAX_HIVE_TIMESTAMP_PRECISION)
        throw new EngineError('NOT_SUPPORTED', `Unsupported Hive type: ${typeName(type)} (column '${column}')`);
      return { type: 'timestamp' };
    case 'array':
      return { type: `array<${toHiveType(type.element, column).type}>`, engineType: typeName(type) };
    case 'row': {
      // Hive names every struct field (Trino's HiveTypeTranslator refuses anonymous ones alike).
      if (type.fields.some((f) => f.name === undefined))
        throw new EngineError(
          'NOT_SUPPORTED',
          `Anonymous row type is not supported in Hive. Please give each field a name: ${typeName(type)}`,
        );
      const fields = type.fields.map((f) => `${f.name}:${toHiveType(f.type, column).type}`);
      return { type: `struct<${fields.join(',')}>`, engineType: clientTypeName(type) };
    }
    case 'map':
      return { type: `map<${toHiveType(type.key, column).type},${toHiveType(type.value, column).type}>`, engineType: typeName(type) };
    case 'unsupported':
      if (isNestedTypeName(type.name)) return { type: hiveTypeName(type.name), engineType: type.name };
      throw new EngineError('NOT_SUPPORTED', `Unsupported Hive type: ${typeName(type)} (column '${column}')`);
    default:
      throw new EngineError('NOT_SUPPORTED', `Unsupported Hive type: ${typeName(type)} (column '${column}')`);
  }
}

const SIMPLE: Record<string, SqlType> = {
  boolean: { kind: 'boolean' },
  tinyint: { kind: 'tinyint' },
  smallint: { kind: 'smallint' },
  int: { kind: 'integer' },
  integer: { kind: 'integer' },
  bigint: { kind: 'bigint' },
  float: { kind: 'real' },
  double: { kind: 'double' },
  date: { kind: 'date' },
  string: varchar(),
  // Trino's spellings, as the engine.type of an array column holds them.
  real: { kind: 'real' },
  varbinary: { kind: 'varbinary' },
  varchar: varchar(),
  binary: { kind: 'varbinary' },
  timestamp: timestamp(3),
};

/** The SqlType of a Hive type name (and the engine's own name, when the column kept one). */
export function fromHiveType(hive: HiveColumnType, where: string): SqlType {
  const name = (hive.engineType ?? hive.type).trim().toLowerCase();
  const nested = containerType(name, where) ?? rowType(name, where);
  if (nested !== undefined) return nested;
  if (isNestedTypeName(name)) {
    try {
      return unsupportedType(hive.engineType === undefined ? trinoTypeName(name) : name);
    } catch (e) {
      throw new EngineError('NOT_SUPPORTED', `${where}: unsupported Hive type '${hive.type}': ${(e as Error).message}`);
    }
  }
  const simple = SIMPLE[name];
  if (simple !== undefined) return simple;
  const parameterized = /^(decimal|varchar|char|timestamp)\((\d+)(?:,\s*(\d+))?\)$/.exec(name);
  if (parameterized !== null) {
    const [, kind, first, second] = parameterized;
    const p = Number(first);
    if (kind === 'decimal') return decimal(p, Number(second ?? 0));
    if (kind === 'varchar') return varchar(p);
    if (kind === 'char') return { kind: 'char', length: p };
    return timestamp(p);
  }
  throw new EngineError('NOT_SUPPORTED', `${where}: unsupported Hive type '${hive.type}'`);
}

/** array(T) or map(K, V) for a name (either spelling) of a type we have, undefined for any other name (rows are rowType's; containers of rows stay unsupported). */
function containerType(name: string, where: string): SqlType | undefined {
  let element: string | undefined;
  let entry: [string, string] | undefined;
  try {
    element = arrayElementTypeName(name);
    entry = element === undefined ? mapEntryTypeNames(name) : undefined;
  } catch {
    return undefined;
  }
  const part = (text: string) => containerType(text, where) ?? (isNestedTypeName(text) ? undefined : fromHiveType({ type: text }, where));
  if (element !== undefined) {
    const type = part(element);
    return type === undefined ? undefined : arrayOf(type);
  }
  if (entry === undefined) return undefined;
  const [key, value] = entry.map(part);
  return key === undefined || value === undefined ? undefined : mapOf(key, value);
}

/** row(...) for a row or struct name whose every field has a type we have, undefined for any other name. */
function rowType(name: string, where: string): SqlType | undefined {
  let fields: { name: string; type: string }[] | undefined;
  try {
    fields = rowFieldTypeNames(name);
  } catch {
    return undefined;
  }
  if (fields === undefined) return undefined;
  const types = fields.map((f) => nestedOrPlainType(f.type, where));
  if (types.some((t) => t === undefined)) return undefined;
  return rowOf(fields.map((f, i) => ({ name: f.name, type: types[i] as SqlType })));
}

/** The type of a row field: a row of types we have, or a plain type; undefined for an array or map (the Parquet reader reads structs of those not yet). */
function nestedOrPlainType(name: string, where: string): SqlType | undefined {
  return rowType(name, where) ?? (isNestedTypeName(name) ? undefined : fromHiveType({ type: name }, where));
}
