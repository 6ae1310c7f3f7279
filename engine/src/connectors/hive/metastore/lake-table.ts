// A lake table as the connector works with it, and how it is kept in the file metastore: Trino's
// table JSON (`.trinoSchema` in the table's metadata folder: table type, data and partition columns
// with Hive type names, storage format, serde parameters for the CSV characters, parameters such as
// `skip.header.line.count`, and the external location).

import { EngineError } from '../../../errors/engine-error.js';
import type { ColumnMetadata, PropertyValue, TableMetadata } from '../../../spi/connector.js';
import type { FormatName, FormatOptions } from '../formats/file-format.js';
import { ENGINE_TYPE_PROPERTY, fromHiveType, toHiveType } from './hive-types.js';

export interface LakeTable {
  catalog: string;
  schema: string;
  name: string;
  /** Random per creation: commits of a dropped table of the same name never count for a new one. */
  tableId: string;
  /** Managed: the connector owns the files (DROP TABLE deletes them); external: it never deletes them. */
  managed: boolean;
  /** The folder of the table's data files. */
  location: string;
  format: FormatName;
  /** The columns held in the files, in their order. */
  dataColumns: ColumnMetadata[];
  /** The columns given by partition folders (`col=value/`), in folder order; they come last. */
  partitionColumns: ColumnMetadata[];
  formatOptions: FormatOptions;
  comment?: string;
  owner?: string;
}

export const DEFAULT_FORMAT_OPTIONS: FormatOptions = { skipHeaderLineCount: 0, csvSeparator: ',', csvQuote: '"', csvEscape: '' };

/** What the engine sees: every column (data, then partition), and the table properties SHOW CREATE TABLE prints. */
export function tableMetadata(table: LakeTable): TableMetadata {
  const properties: Record<string, PropertyValue> = { format: table.format };
  if (!table.managed) properties.external_location = table.location;
  if (table.partitionColumns.length > 0) properties.partitioned_by = table.partitionColumns.map((c) => c.name);
  const options = table.formatOptions;
  if (options.skipHeaderLineCount > 0) properties.skip_header_line_count = options.skipHeaderLineCount;
  if (table.format === 'CSV') {
    if (options.csvSeparator !== DEFAULT_FORMAT_OPTIONS.csvSeparator) properties.csv_separator = options.csvSeparator;
    if (options.csvQuote !== DEFAULT_FORMAT_OPTIONS.csvQuote) properties.csv_quote = options.csvQuote;
    if (options.csvEscape !== DEFAULT_FORMAT_OPTIONS.csvEscape) properties.csv_escape = options.csvEscape;
  }
  return {
    catalog: table.catalog,
    schema: table.schema,
    name: table.name,
    columns: [...table.dataColumns, ...table.partitionColumns],
    ...(table.comment === undefined ? {} : { comment: table.comment }),
    properties,
  };
}

// ---------------------------------------------------------------------------------------------
// The JSON of Trino's file metastore

interface HiveColumnJson {
  name: string;
  type: string;
  comment?: string;
  properties: Record<string, string>;
}

export interface TableJson {
  writerVersion?: string;
  owner?: string;
  tableType: 'MANAGED_TABLE' | 'EXTERNAL_TABLE';
  dataColumns: HiveColumnJson[];
  partitionColumns: HiveColumnJson[];
  parameters: Record<string, string>;
  storageFormat?: string;
  serdeParameters: Record<string, string>;
  externalLocation?: string;
  columnStatistics: Record<string, unknown>;
}

export const WRITER_VERSION = 'engine-0.1.0';
const TABLE_ID = 'engine.table_id';
const SKIP_HEADER = 'skip.header.line.count';
const COMMENT = 'comment';
const SERDE_CHARACTERS = { csvSeparator: 'separatorChar', csvQuote: 'quoteChar', csvEscape: 'escapeChar' } as const;

export function tableJson(table: LakeTable): TableJson {
  const parameters: Record<string, string> = { [TABLE_ID]: table.tableId };
  if (table.formatOptions.skipHeaderLineCount > 0) parameters[SKIP_HEADER] = String(table.formatOptions.skipHeaderLineCount);
  if (table.comment !== undefined) parameters[COMMENT] = table.comment;
  const serdeParameters: Record<string, string> = {};
  if (table.format === 'CSV') {
    for (const [option, name] of Object.entries(SERDE_CHARACTERS)) {
      const value = table.formatOptions[option as keyof typeof SERDE_CHARACTERS];
      if (value !== '') serdeParameters[name] = value;
    }
  }
  return {
    writerVersion: WRITER_VERSION,
    ...(table.owner === undefined ? {} : { owner: table.owner }),
    tableType: table.managed ? 'MANAGED_TABLE' : 'EXTERNAL_TABLE',
    dataColumns: table.dataColumns.map(columnJson),
    partitionColumns: table.partitionColumns.map(columnJson),
    parameters,
    storageFormat: table.format,
    serdeParameters,
    // The data folder, for managed tables too (Trino takes it as the table's location).
    externalLocation: table.location,
    columnStatistics: {},
  };
}

function columnJson(column: ColumnMetadata): HiveColumnJson {
  const hive = toHiveType(column.type, column.name);
  return {
    name: column.name,
    type: hive.type,
    ...(column.comment === undefined ? {} : { comment: column.comment }),
    properties: hive.engineType === undefined ? {} : { [ENGINE_TYPE_PROPERTY]: hive.engineType },
  };
}

const FORMATS: readonly FormatName[] = ['PARQUET', 'CSV', 'JSON'];

/** The table a `.trinoSchema` file describes; `file` names it in errors. */
export function tableFromJson(
  json: TableJson,
  names: { catalog: string; schema: string; name: string },
  metadataDirectory: string,
  file: string,
): LakeTable {
  const invalid = (what: string) => new EngineError('HIVE_INVALID_METADATA', `${file}: ${what}`);
  if (typeof json !== 'object' || json === null || !Array.isArray(json.dataColumns)) throw invalid('not a table entry');
  const format = (json.storageFormat ?? '').toUpperCase();
  if (!(FORMATS as readonly string[]).includes(format))
    throw new EngineError(
      'HIVE_UNSUPPORTED_FORMAT',
      `${file}: storage format '${json.storageFormat}' is not supported (supported: ${FORMATS.join(', ')})`,
    );
  const column = (c: HiveColumnJson): ColumnMetadata => ({
    name: c.name,
    type: fromHiveType({ type: c.type, engineType: c.properties?.[ENGINE_TYPE_PROPERTY] }, `${file}: column '${c.name}'`),
    ...(c.comment === undefined ? {} : { comment: c.comment }),
  });
  const parameters = json.parameters ?? {};
  const serde = json.serdeParameters ?? {};
  const formatOptions: FormatOptions = {
    skipHeaderLineCount: Number(parameters[SKIP_HEADER] ?? 0) || 0,
    csvSeparator: serde[SERDE_CHARACTERS.csvSeparator] ?? DEFAULT_FORMAT_OPTIONS.csvSeparator,
    csvQuote: serde[SERDE_CHARACTERS.csvQuote] ?? DEFAULT_FORMAT_OPTIONS.csvQuote,
    csvEscape: serde[SERDE_CHARACTERS.csvEscape] ?? DEFAULT_FORMAT_OPTIONS.csvEscape,
  };
  return {
    ...names,
    tableId: parameters[TABLE_ID] ?? '',
    managed: json.tableType !== 'EXTERNAL_TABLE',
    location: json.externalLocation ?? metadataDirectory,
    format: format as FormatName,
    dataColumns: json.dataColumns.map(column),
    partitionColumns: (json.partitionColumns ?? []).map(column),
    formatOptions,
    ...(parameters[COMMENT] === undefined ? {} : { comment: parameters[COMMENT] }),
    ...(json.owner === undefined ? {} : { owner: json.owner }),
  };
}
