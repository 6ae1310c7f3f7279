// The table's columns a read asks for, found in a file's schema by name (case-insensitively, as
// Hive matches them): a flat, list or map column reads into our pages (coerced when the table declares
// another type), a column the file lacks reads as NULLs (files written before it was added), and a nested
// or unmappable one fails with NOT_SUPPORTED naming it.

import { EngineError } from '../../../../errors/engine-error.js';
import type { ColumnMetadata } from '../../../../spi/connector.js';
import type { SqlType } from '../../../../types/types.js';
import { coercion, type Coercion } from './column-coercion.js';
import type { FileColumn, FlatColumn, ListColumn, MapColumn } from './parquet-schema.js';
import type { StructColumn } from './struct-schema.js';

export type BoundColumn =
  | {
      kind: 'file';
      name: string;
      source: FlatColumn | ListColumn | MapColumn | StructColumn;
      fileType: SqlType;
      declared: SqlType;
      coerce: Coercion;
    }
  | { kind: 'missing'; name: string; declared: SqlType };

/** File columns by lower-cased name; a name that two columns share fails (it cannot be read by name). */
export function columnsByName(columns: readonly FileColumn[], location: string): Map<string, FileColumn> {
  const byName = new Map<string, FileColumn>();
  for (const c of columns) {
    const key = c.name.toLowerCase();
    if (byName.has(key))
      throw new EngineError(
        'HIVE_BAD_DATA',
        `Parquet file ${location} has two columns named '${key}' (names are matched case-insensitively)`,
      );
    byName.set(key, c);
  }
  return byName;
}

export function bindColumns(requested: readonly ColumnMetadata[], byName: Map<string, FileColumn>, location: string): BoundColumn[] {
  return requested.map((column): BoundColumn => {
    const found = byName.get(column.name.toLowerCase());
    if (found === undefined) return { kind: 'missing', name: column.name, declared: column.type };
    if (found.kind === 'nested') {
      throw new EngineError(
        'NOT_SUPPORTED',
        `Column '${column.name}' is ${found.typeName} in Parquet file ${location}: reading nested columns of this type is not supported`,
      );
    }
    const fileType = found.type;
    if (!('kind' in fileType)) {
      throw new EngineError(
        'NOT_SUPPORTED',
        `Column '${column.name}' of Parquet file ${location} has type ${fileType.unsupported}, which is not supported`,
      );
    }
    // A flat timestamp decodes straight to the declared precision (rounded as Trino reads at the catalog's precision).
    const readType = found.kind === 'flat' && plainTimestamps(fileType, column.type) ? column.type : fileType;
    return {
      kind: 'file',
      name: column.name,
      source: found,
      fileType: readType,
      declared: column.type,
      coerce: coercion(readType, column.type, column.name, location),
    };
  });
}

/** Whether both types are plain timestamps: the file's values read at the declared precision directly. */
export function plainTimestamps(fileType: SqlType, declared: SqlType): boolean {
  return fileType.kind === 'timestamp' && declared.kind === 'timestamp';
}
