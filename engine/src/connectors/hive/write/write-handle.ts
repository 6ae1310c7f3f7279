// A write's plan, made when it starts, as plain data (so that writers can later run on every worker):
// the table, the write id its files are named by, where they go and how they are written. Writers
// report what they wrote as fragments; the commit makes the fragments' write visible at once.

import type { ColumnMetadata } from '../../../spi/connector.js';
import type { FormatName, FormatOptions } from '../formats/file-format.js';
import type { LakeTable } from '../metastore/lake-table.js';
import { newWriteId } from './write-id.js';

export interface WriteHandle {
  catalog: string;
  schema: string;
  table: string;
  tableId: string;
  /** The table's metadata folder, where its commits are. */
  metadataDirectory: string;
  /** The table's data folder: files go here, or into partition folders below it. */
  location: string;
  writeId: string;
  queryId: string;
  format: FormatName;
  formatOptions: FormatOptions;
  dataColumns: ColumnMetadata[];
  partitionColumns: ColumnMetadata[];
}

/** A file a writer finished. */
export interface WriteFragment {
  location: string;
  rows: number;
  bytes: number;
}

export function writeHandle(table: LakeTable, metadataDirectory: string, queryId: string): WriteHandle {
  return {
    catalog: table.catalog,
    schema: table.schema,
    table: table.name,
    tableId: table.tableId,
    metadataDirectory,
    location: table.location,
    writeId: newWriteId(queryId),
    queryId,
    format: table.format,
    formatOptions: table.formatOptions,
    dataColumns: table.dataColumns,
    partitionColumns: table.partitionColumns,
  };
}
