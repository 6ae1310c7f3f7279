// The table and schema properties of a lake catalog (Trino's Hive connector names), and what a new
// table's properties say: its format, where its files are, its partition columns and the text
// formats' options.

import { EngineError } from '../../errors/engine-error.js';
import type { PropertyValues } from '../../spi/connector.js';
import type { Scalar } from '../../types/scalar.js';
import type { ConnectorProperties, PropertyMetadata, PropertyType } from '../../spi/properties.js';
import type { FormatName, FormatOptions } from './formats/file-format.js';
import { schemeOf } from './location.js';
import { DEFAULT_FORMAT_OPTIONS } from './metastore/lake-table.js';

const FORMATS: readonly FormatName[] = ['PARQUET', 'CSV', 'JSON'];
const VARCHAR: PropertyType = { kind: 'varchar' };
const INTEGER: PropertyType = { kind: 'integer' };

const oneCharacter = (value: Scalar) => {
  if (typeof value !== 'string' || value.length !== 1) throw new Error('it must be one character');
};
const location = (value: Scalar) => schemeOf(String(value));

const TABLE: readonly PropertyMetadata[] = [
  {
    name: 'format',
    description: 'File format of the table: PARQUET, CSV or JSON',
    type: VARCHAR,
    defaultValue: 'PARQUET',
    validate: (value) => {
      if (!(FORMATS as readonly string[]).includes(String(value).toUpperCase()))
        throw new Error(`the format must be one of ${FORMATS.join(', ')}`);
    },
  },
  {
    name: 'external_location',
    description: 'Folder of the files of an external table (file:// or s3://)',
    type: VARCHAR,
    validate: location,
  },
  {
    name: 'partitioned_by',
    description: 'Partition columns, the last columns of the table: ARRAY[...] of column names',
    type: VARCHAR,
    list: true,
  },
  {
    name: 'skip_header_line_count',
    description: 'Lines at the start of each file that are not rows (CSV, JSON)',
    type: INTEGER,
    validate: (value) => {
      if (typeof value !== 'number' || value < 0) throw new Error('it must not be negative');
    },
  },
  { name: 'csv_separator', description: 'Field separator of a CSV table', type: VARCHAR, validate: oneCharacter },
  { name: 'csv_quote', description: 'Quote character of a CSV table', type: VARCHAR, validate: oneCharacter },
  {
    name: 'csv_escape',
    description: 'Escape character of a CSV table (default: none; quotes are doubled)',
    type: VARCHAR,
    validate: oneCharacter,
  },
];

const SCHEMA: readonly PropertyMetadata[] = [
  { name: 'location', description: 'Folder of the managed tables of the schema (file:// or s3://)', type: VARCHAR, validate: location },
];

const SESSION: readonly PropertyMetadata[] = [
  {
    name: 'non_transactional_optimize_enabled',
    description: 'Enable ALTER TABLE ... EXECUTE optimize (Trino requires it explicitly; here its commit is atomic)',
    type: { kind: 'boolean' },
    defaultValue: false,
  },
];

export const LAKE_PROPERTIES: ConnectorProperties = { table: TABLE, schema: SCHEMA, session: SESSION };

export interface NewTableProperties {
  format: FormatName;
  externalLocation?: string;
  partitionedBy: string[];
  formatOptions: FormatOptions;
}

export function newTableProperties(properties: PropertyValues | undefined): NewTableProperties {
  const values = properties ?? {};
  const text = (name: string): string | undefined => (values[name] === undefined ? undefined : String(values[name]));
  const format = (text('format') ?? 'PARQUET').toUpperCase() as FormatName;
  const partitionedBy = values.partitioned_by;
  const formatOptions: FormatOptions = {
    skipHeaderLineCount: Number(values.skip_header_line_count ?? 0),
    csvSeparator: text('csv_separator') ?? DEFAULT_FORMAT_OPTIONS.csvSeparator,
    csvQuote: text('csv_quote') ?? DEFAULT_FORMAT_OPTIONS.csvQuote,
    csvEscape: text('csv_escape') ?? DEFAULT_FORMAT_OPTIONS.csvEscape,
  };
  if (format !== 'CSV' && ['csv_separator', 'csv_quote', 'csv_escape'].some((name) => values[name] !== undefined)) {
    throw new EngineError(
      'INVALID_TABLE_PROPERTY',
      `The csv_separator, csv_quote and csv_escape properties are for CSV tables, not ${format}`,
    );
  }
  return {
    format,
    ...(text('external_location') === undefined ? {} : { externalLocation: text('external_location') }),
    partitionedBy: Array.isArray(partitionedBy) ? partitionedBy.map(String) : [],
    formatOptions,
  };
}
