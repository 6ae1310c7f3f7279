// A lake split: a byte range of one file and everything needed to read it without the metastore
// (format, options, columns, partition values, the query's predicates), as plain JSON: it travels to workers in task
// requests and to worker threads, and the connector's checkSplit checks its shape.

import type { Split, TableConstraint } from '../../../spi/connector.js';
import { shapeCheck } from '../../../spi/json-shape.js';
import type { SqlType } from '../../../types/types.js';
import type { FormatName, FormatOptions } from '../formats/file-format.js';

export interface SplitColumn {
  name: string;
  type: SqlType;
}

export interface LakeSplitInfo {
  location: string;
  /** The file's size when the split was made. */
  size: number;
  /** The file's modification time (ms since the epoch) when the split was made, when its store reports one: with the size, it names the file's version. */
  lastModified?: number;
  /** The object's entity tag when the split was made, when its store reports one (S3's ETag). */
  etag?: string;
  start: number;
  length: number;
  format: FormatName;
  options: FormatOptions;
  /** The table's data columns, in file order. */
  dataColumns: SplitColumn[];
  partitionColumns: SplitColumn[];
  /** The partition folders' value texts, null for NULL, in partitionColumns' order. */
  partitionValues: (string | null)[];
  /** What the query's predicates say about data columns: the reader skips row groups and pages that cannot match. */
  constraint?: TableConstraint;
}

const COUNT = { type: 'integer', minimum: 0 };
const TEXT = { type: 'string' };
const COLUMNS = {
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'type'],
    properties: { name: TEXT, type: { type: 'object', required: ['kind'], properties: { kind: TEXT } } },
  },
};

const checkShape = shapeCheck({
  type: 'object',
  required: ['location', 'size', 'start', 'length', 'format', 'options', 'dataColumns', 'partitionColumns', 'partitionValues'],
  properties: {
    location: { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9+.-]*://' },
    size: COUNT,
    lastModified: { type: 'number' },
    etag: TEXT,
    start: COUNT,
    length: COUNT,
    format: { enum: ['PARQUET', 'CSV', 'JSON'] },
    options: {
      type: 'object',
      required: ['skipHeaderLineCount', 'csvSeparator', 'csvQuote', 'csvEscape'],
      properties: { skipHeaderLineCount: COUNT, csvSeparator: TEXT, csvQuote: TEXT, csvEscape: TEXT },
    },
    dataColumns: COLUMNS,
    partitionColumns: COLUMNS,
    partitionValues: { type: 'array', items: { type: ['string', 'null'] } },
    constraint: { type: 'array', items: { type: 'object', required: ['column'], properties: { column: TEXT } } },
  },
  additionalProperties: false,
});

export function checkLakeSplit(split: Split): string | undefined {
  const problem = checkShape(split.info, 'info');
  if (problem !== undefined) return problem;
  const info = split.info as LakeSplitInfo;
  if (info.start + info.length > info.size)
    return `info: range [${info.start}, ${info.start + info.length}) is not within the file's ${info.size} bytes`;
  if (info.partitionValues.length !== info.partitionColumns.length)
    return `info: ${info.partitionValues.length} partition values for ${info.partitionColumns.length} partition columns`;
  return undefined;
}
