// A new lake table from CREATE TABLE: its columns (given, or read from its files), its partition
// columns (the last ones, in `partitioned_by` order, as Trino requires), where its files are, and
// the checks Trino's Hive connector makes before anything is written.

import { hasChildColumns } from '../../columnar/page.js';
import { randomBytes } from 'node:crypto';
import { EngineError } from '../../errors/engine-error.js';
import type { ColumnMetadata, TableMetadata } from '../../spi/connector.js';
import type { FileEntry, FileSystem } from './file-system/file-system.js';
import type { FileSystems } from './file-system/file-systems.js';
import { fileFormat, hasFileFormat } from './formats/file-formats.js';
import { textParser } from './formats/text/text-columns.js';
import { newTableProperties } from './hive-properties.js';
import { asDirectory, baseName, isHiddenPath, relativeLocation } from './location.js';
import type { FileMetastore, LakeSchema } from './metastore/file-metastore.js';
import { toHiveType } from './metastore/hive-types.js';
import type { LakeTable } from './metastore/lake-table.js';
import { writeIdOfFile } from './write/write-id.js';
import { VARCHAR, typeName } from '../../types/types.js';

export async function newLakeTable(
  metadata: TableMetadata,
  schema: LakeSchema,
  metastore: FileMetastore,
  fileSystems: FileSystems,
  owner: string,
): Promise<LakeTable> {
  const properties = newTableProperties(metadata.properties);
  const qualified = `${metadata.catalog}.${metadata.schema}.${metadata.name}`;
  if (!hasFileFormat(properties.format)) {
    throw new EngineError(
      'NOT_SUPPORTED',
      `Format ${properties.format} is not supported yet: create table ${qualified} WITH (format = 'CSV') or (format = 'JSON')`,
    );
  }
  const external = properties.externalLocation === undefined ? undefined : asDirectory(properties.externalLocation);
  const location = external ?? metastore.managedLocation(schema, metadata.name);
  const fs = fileSystems.forLocation(location);
  const firstFile = await firstVisibleFile(fs, location);
  if (external === undefined && firstFile !== undefined) {
    throw new EngineError(
      'HIVE_PATH_ALREADY_EXISTS',
      `Target directory for table '${qualified}' already holds files: ${firstFile.location}`,
    );
  }
  if (external !== undefined && firstFile === undefined && (await fs.listDirectories(external)).length === 0) {
    throw new EngineError('HIVE_FILE_NOT_FOUND', `External location ${external} of table '${qualified}' does not exist or is empty`);
  }
  let columns = metadata.columns;
  if (columns.length === 0) {
    if (firstFile === undefined)
      throw new EngineError(
        'NOT_SUPPORTED',
        `Table '${qualified}' has no column list and no files to read columns from: give its columns, or an external_location holding files`,
      );
    const inferred = await fileFormat(properties.format).inferColumns(fs, firstFile, properties.formatOptions);
    if (inferred.length === 0) throw new EngineError('HIVE_BAD_DATA', `No columns could be read from ${firstFile.location}`);
    const repeated = inferred.find((c, i) => inferred.findIndex((d) => d.name === c.name) !== i);
    if (repeated !== undefined) {
      throw new EngineError(
        'DUPLICATE_COLUMN_NAME',
        `${firstFile.location} has two columns named '${repeated.name}' (names are matched case-insensitively): give the table's columns`,
      );
    }
    // Files hold no partition columns: their folders give them, as text.
    columns = [
      ...inferred.filter((c) => !properties.partitionedBy.includes(c.name)),
      ...properties.partitionedBy.map((name) => inferred.find((c) => c.name === name) ?? { name, type: VARCHAR }),
    ];
  }
  const { dataColumns, partitionColumns } = splitColumns(columns, properties.partitionedBy);
  for (const c of columns) toHiveType(c.type, c.name);
  const arrayPartition = partitionColumns.find((c) => hasChildColumns(c.type));
  if (arrayPartition !== undefined)
    throw new EngineError('NOT_SUPPORTED', `Unsupported type [${typeName(arrayPartition.type)}] for partition: ${arrayPartition.name}`);
  if (properties.format !== 'PARQUET') {
    const array = dataColumns.find((c) => hasChildColumns(c.type));
    if (array !== undefined)
      throw new EngineError(
        'NOT_SUPPORTED',
        `Column '${array.name}' of type ${typeName(array.type)} is not supported in ${properties.format} tables: use format = 'PARQUET'`,
      );
    for (const c of dataColumns) textParser(c.type, c.name);
  }
  return {
    catalog: metadata.catalog,
    schema: metadata.schema,
    name: metadata.name,
    tableId: randomBytes(8).toString('hex'),
    managed: external === undefined,
    location,
    format: properties.format,
    dataColumns,
    partitionColumns,
    formatOptions: properties.formatOptions,
    ...(metadata.comment === undefined ? {} : { comment: metadata.comment }),
    owner,
  };
}

/**
 * Data and partition columns: partition columns must be the table's last columns, in partitioned_by
 * order (Trino's rule).
 */
function splitColumns(
  columns: readonly ColumnMetadata[],
  partitionedBy: readonly string[],
): { dataColumns: ColumnMetadata[]; partitionColumns: ColumnMetadata[] } {
  const names = columns.map((c) => c.name);
  for (const name of partitionedBy) {
    if (!names.includes(name))
      throw new EngineError(
        'INVALID_TABLE_PROPERTY',
        `Partition column '${name}' is not a column of the table (columns: ${names.join(', ')})`,
      );
  }
  if (new Set(partitionedBy).size !== partitionedBy.length)
    throw new EngineError('INVALID_TABLE_PROPERTY', `Partition columns ${partitionedBy.join(', ')} name a column twice`);
  const tail = names.slice(names.length - partitionedBy.length);
  if (partitionedBy.length > 0 && tail.join('\u0000') !== partitionedBy.join('\u0000')) {
    throw new EngineError(
      'INVALID_TABLE_PROPERTY',
      `Partition keys must be the last columns in the table and in the same order as the table properties: [${partitionedBy.join(', ')}]`,
    );
  }
  if (partitionedBy.length === columns.length) throw new EngineError('INVALID_TABLE_PROPERTY', 'Table contains only partition columns');
  return {
    dataColumns: columns.slice(0, columns.length - partitionedBy.length),
    partitionColumns: columns.slice(columns.length - partitionedBy.length),
  };
}

/** The first data file below a folder (not hidden, not written by a write of ours). */
async function firstVisibleFile(fs: FileSystem, directory: string): Promise<FileEntry | undefined> {
  for await (const file of fs.listFiles(directory)) {
    if (file.size > 0 && !isHiddenPath(relativeLocation(directory, file.location)) && writeIdOfFile(baseName(file.location)) === undefined)
      return file;
  }
  return undefined;
}
