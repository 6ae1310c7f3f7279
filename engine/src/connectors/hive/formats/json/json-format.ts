// The JSON format: one object per line (JSON lines), split at any byte (a line end is never inside a
// JSON value), columns inferred from sampled records, files written as JSON lines.

import type { ColumnMetadata } from '../../../../spi/connector.js';
import { BIGINT, BOOLEAN, DOUBLE, VARCHAR, type SqlType } from '../../../../types/types.js';
import type { FileEntry, FileSystem } from '../../file-system/file-system.js';
import type { FileFormat, FormatOptions } from '../file-format.js';
import { TextRange } from '../text/text-range.js';
import { textRanges } from '../text/text-pages.js';
import { TextWriter } from '../text/text-writer.js';
import { readJson } from './json-reader.js';
import { jsonLines } from './json-writer.js';

/** Records sampled to infer a file's columns. */
const SAMPLED_RECORDS = 1000;

export const jsonFormat: FileFormat = {
  name: 'JSON',
  ranges: (file, _options, targetBytes) => textRanges(file, targetBytes),
  read: readJson,
  inferColumns,
  createWriter: (columns, _options, output) => new TextWriter(output, jsonLines(columns)),
};

/**
 * The keys of the first records, in the order first seen, typed by their values: bigint when every
 * value is an integer, double when every one is a number, boolean, else varchar.
 */
async function inferColumns(fs: FileSystem, file: FileEntry, _options: FormatOptions, signal?: AbortSignal): Promise<ColumnMetadata[]> {
  const stats = { bytesRead: 0, bytesSkipped: 0, rowGroupsRead: 0, rowGroupsSkipped: 0 };
  const types = new Map<string, SqlType | undefined>();
  let sampled = 0;
  for await (const chunk of new TextRange(fs, file, { start: 0, length: file.size }, stats, signal).chunks()) {
    for (const line of chunk.split('\n')) {
      if (line.trim() === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof record !== 'object' || record === null || Array.isArray(record)) continue;
      for (const [key, value] of Object.entries(record)) types.set(key.toLowerCase(), widen(types.get(key.toLowerCase()), value));
      if (++sampled >= SAMPLED_RECORDS) return columnsOf(types);
    }
  }
  return columnsOf(types);
}

function columnsOf(types: Map<string, SqlType | undefined>): ColumnMetadata[] {
  return [...types].map(([name, type]) => ({ name, type: type ?? VARCHAR }));
}

function widen(known: SqlType | undefined, value: unknown): SqlType | undefined {
  if (value === null) return known;
  const type = typeof value === 'number' ? (Number.isInteger(value) ? BIGINT : DOUBLE) : typeof value === 'boolean' ? BOOLEAN : VARCHAR;
  if (known === undefined || known.kind === type.kind) return type;
  if ((known.kind === 'bigint' && type.kind === 'double') || (known.kind === 'double' && type.kind === 'bigint')) return DOUBLE;
  return VARCHAR;
}
