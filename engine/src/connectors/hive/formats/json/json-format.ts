// The JSON format: one object per line (JSON lines), split at any byte (a line end is never inside a
// JSON value), columns inferred from sampled records, files written as JSON lines.

import type { ColumnMetadata } from '../../../../spi/connector.js';
import { type JsonValue, parseJsonNumbersAsText } from '../../../../types/exact-json.js';
import { BIGINT, BOOLEAN, DOUBLE, MAX_DECIMAL_PRECISION, VARCHAR, decimal, type SqlType } from '../../../../types/types.js';
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
 * value is an integer literal within 64 bits, decimal(38,0) when some integer is wider, double when
 * some number has a fraction or an exponent (`1.0`, `1e3`), boolean, else varchar.
 */
async function inferColumns(fs: FileSystem, file: FileEntry, _options: FormatOptions, signal?: AbortSignal): Promise<ColumnMetadata[]> {
  const stats = { bytesRead: 0, bytesSkipped: 0, rowGroupsRead: 0, rowGroupsSkipped: 0 };
  const types = new Map<string, SqlType | undefined>();
  let sampled = 0;
  for await (const chunk of new TextRange(fs, file, { start: 0, length: file.size }, stats, signal).chunks()) {
    for (const line of chunk.split('\n')) {
      if (line.trim() === '') continue;
      let record: JsonValue;
      try {
        // Numbers as their literal text: `1.0` is not an integer, and 20 digits are not a double.
        record = parseJsonNumbersAsText(line);
      } catch {
        continue;
      }
      if (typeof record !== 'object' || record === null || Array.isArray(record)) continue;
      const literals = JSON.parse(line) as Record<string, unknown>;
      for (const [key, value] of Object.entries(record)) {
        const type = valueType(value, typeof literals[key] === 'number');
        types.set(key.toLowerCase(), widen(types.get(key.toLowerCase()), type));
      }
      if (++sampled >= SAMPLED_RECORDS) return columnsOf(types);
    }
  }
  return columnsOf(types);
}

function columnsOf(types: Map<string, SqlType | undefined>): ColumnMetadata[] {
  return [...types].map(([name, type]) => ({ name, type: type ?? VARCHAR }));
}

const WIDE_INTEGER = decimal(MAX_DECIMAL_PRECISION, 0);
const INT64_MAX_DIGITS = 19;
/** Numeric types, narrowest first: two numbers widen to the later. */
const NUMERIC_ORDER = ['bigint', 'decimal', 'double'];

/** The type of one value (undefined for NULL); `isNumber`: the value is a number's literal text. */
function valueType(value: JsonValue, isNumber: boolean): SqlType | undefined {
  if (value === null) return undefined;
  if (typeof value === 'boolean') return BOOLEAN;
  if (!isNumber || typeof value !== 'string') return VARCHAR;
  const integer = /^-?(\d+)$/.exec(value);
  if (integer === null) return DOUBLE;
  const digits = integer[1].length;
  if (digits < INT64_MAX_DIGITS || (digits === INT64_MAX_DIGITS && BigInt.asIntN(64, BigInt(value)) === BigInt(value))) return BIGINT;
  return digits <= MAX_DECIMAL_PRECISION ? WIDE_INTEGER : DOUBLE;
}

function widen(known: SqlType | undefined, type: SqlType | undefined): SqlType | undefined {
  if (type === undefined) return known;
  if (known === undefined || known.kind === type.kind) return type;
  const a = NUMERIC_ORDER.indexOf(known.kind);
  const b = NUMERIC_ORDER.indexOf(type.kind);
  if (a >= 0 && b >= 0) return a > b ? known : type;
  return VARCHAR;
}
