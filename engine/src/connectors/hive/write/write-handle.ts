// A write's plan, made when it starts on the coordinator, as plain data (it travels to the workers
// that run its writers, whose checkWriteHandle checks its shape): the table, the write id its files
// are named by, where they go and how they are written. Writers report what they wrote as
// fragments; the commit makes the fragments' write visible at once.

import type { ColumnMetadata } from '../../../spi/connector.js';
import type { FormatName, FormatOptions } from '../formats/file-format.js';
import type { LakeTable } from '../metastore/lake-table.js';
import { newWriteId } from './write-id.js';
import { shapeCheck } from '../../../spi/json-shape.js';

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
  /** CREATE TABLE AS: the table, whose metastore entry the commit writes (before it, it does not exist). */
  create?: LakeTable;
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

const STRING = { type: 'string' };
const COLUMNS = {
  type: 'array',
  items: { type: 'object', required: ['name', 'type'], properties: { name: STRING, type: { type: 'object' } } },
};
const FORMAT = { enum: ['PARQUET', 'CSV', 'JSON'] };
const FORMAT_OPTIONS = {
  type: 'object',
  required: ['skipHeaderLineCount', 'csvSeparator', 'csvQuote', 'csvEscape'],
  properties: { skipHeaderLineCount: { type: 'integer', minimum: 0 }, csvSeparator: STRING, csvQuote: STRING, csvEscape: STRING },
};
const LOCATION = { type: 'string', pattern: '/$' };

/** What is wrong with a handle that came from another node; undefined when it is one of ours. */
export const checkWriteHandleShape = shapeCheck({
  type: 'object',
  required: [
    'catalog',
    'schema',
    'table',
    'tableId',
    'metadataDirectory',
    'location',
    'writeId',
    'queryId',
    'format',
    'formatOptions',
    'dataColumns',
    'partitionColumns',
  ],
  properties: {
    catalog: STRING,
    schema: STRING,
    table: STRING,
    tableId: STRING,
    metadataDirectory: LOCATION,
    location: LOCATION,
    writeId: { type: 'string', pattern: '^[A-Za-z0-9_]*_w[0-9a-f]{12}$' },
    queryId: STRING,
    format: FORMAT,
    formatOptions: FORMAT_OPTIONS,
    dataColumns: COLUMNS,
    partitionColumns: COLUMNS,
    create: {
      type: 'object',
      required: ['tableId', 'location', 'format', 'dataColumns', 'partitionColumns'],
      properties: { tableId: STRING, location: LOCATION, format: FORMAT, dataColumns: COLUMNS, partitionColumns: COLUMNS },
    },
  },
});
