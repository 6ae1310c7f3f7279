// The PARQUET file format of the lake connector.
//
// Types read (file -> ours; Trino's Hive connector with hive.parquet.time-zone = UTC, except that
// timestamps keep the file's precision up to microseconds instead of Trino's default of millis):
//   BOOLEAN                                  boolean
//   INT32 / INT(8|16|32, signed)             tinyint / smallint / integer
//   INT(8|16|32|64, unsigned)                smallint / integer / bigint / decimal(20,0)
//   INT64 / INT(64, signed)                  bigint
//   DECIMAL(p,s) on INT32, INT64, FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY   decimal(p,s)
//   FLOAT / DOUBLE / FLOAT16                 real / double / real
//   BYTE_ARRAY STRING, ENUM, JSON (UTF8)     varchar
//   BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, BSON   varbinary;   FIXED(16) UUID: varchar (8-4-4-4-12 hex)
//   DATE                                     date
//   TIME(MILLIS) / TIME(MICROS | NANOS)      time(3) / time(6)
//   TIMESTAMP(MILLIS) / (MICROS | NANOS)     timestamp(3) / timestamp(6), nanoseconds rounded half up
//   INT96 (legacy Impala/Spark timestamps)   timestamp(6)
// A timestamp with isAdjustedToUTC = true is an instant; the engine has no `timestamp with time
// zone`, so it reads as the instant's UTC wall time (Trino reads it in hive.parquet.time-zone).
// Lists of those types (LIST in its standard and legacy forms, bare repeated primitives, lists of
// such lists) read as array(T), array(array(T)), ... (list-chunk-decoder.ts). Other nested fields
// (MAP, structs, lists of them) are listed by inferColumns with an 'unsupported' type carrying
// Trino's name (map(varchar, integer), row(...)): the table shows them, and reading one fails with
// NOT_SUPPORTED naming the column and its type. Flat columns of a type with no mapping are left
// out. Types written: see physical-encoding.ts (arrays: list-chunk-writer.ts).

import type { ColumnMetadata } from '../../../../spi/connector.js';
import type { Page } from '../../../../columnar/page.js';
import { typeName, unsupportedType } from '../../../../types/types.js';
import type { FileEntry, FileSystem, OutputStream } from '../../file-system/file-system.js';
import type { FileBlock, FileFormat, FileRange, FileReadRequest, FileWriter, FormatOptions } from '../file-format.js';
import { readFooter } from './footer.js';
import type { FileMetaData } from './file-metadata.js';
import { PHYSICAL_TYPE_NAMES } from './parquet-constants.js';
import { readParquetRange, schemaColumns } from './parquet-reader.js';
import { ParquetFileWriter } from './parquet-writer.js';
import { rowGroupRanges } from './row-group-ranges.js';
import type { FlatColumn } from './parquet-schema.js';

/** A file column as DESCRIBE would show it: our type, or why it cannot be read yet. */
export interface DescribedColumn {
  name: string;
  /** Trino's type name (also for nested and unsupported columns). */
  typeName: string;
  column?: ColumnMetadata;
  unsupported?: string;
}

/**
 * A Parquet range holds a few row groups of the usual writers (DuckDB's of 122,880 rows, ours of
 * about 8 MiB), not Trino's 32 MiB: whole row groups are the unit of work, and ranges of many row
 * groups leave a node's threads unevenly loaded. Measured at TPC-H sf1 on 2 threads (CPU of the
 * busier thread, q1 over our files): 767 ms with 32 MiB ranges, 657 ms with 16, 687 ms with 8, where
 * each range's own costs (its footer, its first fetch) grow back (DuckDB's files, q6: 177, 200, 237).
 */
export const PARQUET_RANGE_BYTES = 16 * 1024 * 1024;

export class ParquetFormat implements FileFormat {
  readonly name = 'PARQUET' as const;

  /**
   * Without the footer, byte ranges of about `targetBytes`, at most PARQUET_RANGE_BYTES; each reads
   * the row groups that start in it, so planning needs no footer. Files up to 1.5 × that are one
   * range. With the footer's row groups, ranges cut between them (row-group-ranges.ts).
   */
  ranges(file: FileEntry, _options: FormatOptions, targetBytes: number, blocks?: readonly FileBlock[]): FileRange[] {
    const size = Math.min(targetBytes, PARQUET_RANGE_BYTES);
    if (blocks !== undefined) return rowGroupRanges(file, blocks, size);
    if (file.size <= size * 1.5) return [{ start: 0, length: file.size }];
    const ranges: FileRange[] = [];
    for (let start = 0; start < file.size; start += size) ranges.push({ start, length: Math.min(size, file.size - start) });
    return ranges;
  }

  read(request: FileReadRequest): AsyncIterable<Page> {
    return readParquetRange(request);
  }

  async inferColumns(fs: FileSystem, file: FileEntry, _options: FormatOptions, signal?: AbortSignal): Promise<ColumnMetadata[]> {
    return (await describeParquetColumns(fs, file, signal)).flatMap((c) => (c.column === undefined ? [] : [c.column]));
  }

  createWriter(columns: readonly ColumnMetadata[], _options: FormatOptions, output: OutputStream): FileWriter {
    return new ParquetFileWriter(columns, output);
  }
}

/** Every top-level column of the file, readable or not (names lower-cased, as Hive and Trino show them). */
export async function describeParquetColumns(fs: FileSystem, file: FileEntry, signal?: AbortSignal): Promise<DescribedColumn[]> {
  const { metadata } = await readFooter(fs, file, signal);
  return describeSchema(metadata, file.location);
}

export function describeSchema(metadata: FileMetaData, location: string): DescribedColumn[] {
  return schemaColumns(metadata, location).map((c): DescribedColumn => {
    const name = c.name.toLowerCase();
    if (c.kind === 'nested')
      return { name, typeName: c.typeName, column: { name, type: unsupportedType(c.typeName) }, unsupported: `nested type ${c.typeName}` };
    if (c.kind === 'struct') return { name, typeName: typeName(c.type), column: { name, type: c.type } };
    if (!('kind' in c.type)) {
      // Only a flat column has a type we cannot map.
      const physical = PHYSICAL_TYPE_NAMES[(c as FlatColumn).element.type ?? -1] ?? 'unknown';
      return { name, typeName: c.type.unsupported, unsupported: `Parquet type ${physical} (${c.type.unsupported})` };
    }
    return { name, typeName: typeName(c.type), column: { name, type: c.type } };
  });
}
