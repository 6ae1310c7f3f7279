// Reads a byte range of a JSON-lines file (one object per line) into pages of the requested columns.
// Keys match column names regardless of case (as Trino's JSON reader matches them); a missing key or
// JSON null is NULL. Numbers are exact: a line with a number of more digits than a double holds is
// read again keeping each number's text, so bigints and decimals never round.

import type { ColumnMetadata } from '../../../../spi/connector.js';
import type { Page } from '../../../../columnar/page.js';
import { parseJsonNumbersAsText } from '../../../../types/exact-json.js';
import { typeName } from '../../../../types/types.js';
import type { FileReadRequest } from '../file-format.js';
import { BadValue, type TextColumnBuilder } from '../text/text-columns.js';
import { badData, PageAssembler } from '../text/text-pages.js';
import { TextRange } from '../text/text-range.js';

const LONG_NUMBER = /\d{16}/;

type JsonObject = Record<string, unknown>;

export async function* readJson(request: FileReadRequest): AsyncIterable<Page> {
  const { file, range, columns, options } = request;
  const assembler = new PageAssembler(columns);
  const builders = assembler.builders;
  const exact = columns.some((c) => c.type.kind === 'bigint' || c.type.kind === 'decimal');
  const text = new TextRange(request.fs, file, range, request.stats, request.signal);
  let skip = range.start === 0 ? options.skipHeaderLineCount : 0;
  let line = 1;
  for await (const chunk of text.chunks()) {
    const pages: Page[] = [];
    const chunkLine = line;
    for (let start = 0; start < chunk.length; line++) {
      let end = chunk.indexOf('\n', start);
      if (end < 0) end = chunk.length;
      const lineText = chunk.slice(start, end);
      const lineStart = start;
      start = end + 1;
      if (skip > 0) {
        skip--;
        continue;
      }
      if (lineText.trim() === '') continue;
      let record: unknown;
      try {
        record = exact && LONG_NUMBER.test(lineText) ? parseJsonNumbersAsText(lineText) : JSON.parse(lineText);
      } catch (e) {
        throw await badData(text, chunk, 0, chunkLine, lineStart, `malformed JSON: ${(e as Error).message}`);
      }
      if (typeof record !== 'object' || record === null || Array.isArray(record))
        throw await badData(text, chunk, 0, chunkLine, lineStart, 'a line of a JSON file must hold one JSON object');
      for (let j = 0; j < builders.length; j++) {
        try {
          appendJsonValue(builders[j], fieldOf(record as JsonObject, columns[j]), columns[j]);
        } catch (e) {
          if (e instanceof BadValue) throw await badData(text, chunk, 0, chunkLine, lineStart, `column '${columns[j].name}': ${e.message}`);
          throw e;
        }
      }
      const page = assembler.endRow();
      if (page !== undefined) pages.push(page);
    }
    yield* pages;
  }
  const rest = assembler.rest();
  if (rest !== undefined) yield rest;
}

function fieldOf(record: JsonObject, column: ColumnMetadata): unknown {
  const value = record[column.name];
  if (value !== undefined) return value;
  const wanted = column.name.toLowerCase();
  for (const key in record) if (key.toLowerCase() === wanted) return record[key];
  return undefined;
}

/** A JSON value into the column: text is parsed as the column's type; numbers and booleans as themselves where they fit. */
function appendJsonValue(builder: TextColumnBuilder, value: unknown, column: ColumnMetadata): void {
  if (value === null || value === undefined) return builder.appendNull();
  const kind = column.type.kind;
  switch (typeof value) {
    case 'string':
      return builder.append(value);
    case 'number':
      if (kind === 'double') return builder.appendValue(value);
      if (kind === 'real') return builder.appendValue(Math.fround(value));
      if (kind === 'varchar' || kind === 'char' || kind === 'boolean' || kind === 'date' || kind === 'timestamp' || kind === 'time') break;
      return builder.append(String(value));
    case 'boolean':
      if (kind === 'boolean') return builder.appendValue(value ? 1 : 0);
      if (kind === 'varchar') return builder.append(String(value));
      break;
    case 'object':
      if (kind === 'varchar') return builder.append(JSON.stringify(value));
      break;
  }
  if (kind === 'varchar' || kind === 'char') return builder.append(String(value));
  throw new BadValue(`${JSON.stringify(value)} is not a ${typeName(column.type)}`);
}
