// Reads a byte range of a CSV file into pages of the requested columns. Fields are matched to the
// table's columns by position; a record with fewer fields has NULLs in the rest (as Hive reads it),
// one with more fails. The first range of a file skips `skip_header_line_count` records.

import { EngineError } from '../../../../errors/engine-error.js';
import type { Page } from '../../../../columnar/page.js';
import type { FileReadRequest, FormatOptions } from '../file-format.js';
import { BadValue } from '../text/text-columns.js';
import { badData, isWholeFile, PageAssembler } from '../text/text-pages.js';
import { TextRange } from '../text/text-range.js';
import { CsvRecords, MalformedRecord, type CsvCharacters } from './csv-records.js';

export function csvCharacters(options: FormatOptions): CsvCharacters {
  const code = (text: string, name: string, optional: boolean): number => {
    if (text === '' && optional) return -1;
    if (text.length !== 1) throw new EngineError('INVALID_TABLE_PROPERTY', `${name} must be one character, got '${text}'`);
    return text.charCodeAt(0);
  };
  return {
    separator: code(options.csvSeparator, 'csv_separator', false),
    quote: code(options.csvQuote, 'csv_quote', true),
    escape: code(options.csvEscape, 'csv_escape', true),
  };
}

export async function* readCsv(request: FileReadRequest): AsyncIterable<Page> {
  const { file, range, columns, tableColumns, options } = request;
  const positions = columns.map((c) => tableColumns.findIndex((t) => t.name === c.name));
  const assembler = new PageAssembler(columns);
  const builders = assembler.builders;
  const records = new CsvRecords(csvCharacters(options), tableColumns.length, isWholeFile(file, range));
  const text = new TextRange(request.fs, file, range, request.stats, request.signal);
  let skip = range.start === 0 ? options.skipHeaderLineCount : 0;
  let carry = '';
  const chunks = text.chunks()[Symbol.asyncIterator]();
  for (let final = false; !final; ) {
    const next = await chunks.next();
    final = next.done === true;
    const t = final ? carry : carry + next.value;
    const pages: Page[] = [];
    let position = 0;
    while (position < t.length) {
      const recordLine = records.lines + 1;
      let end: number;
      try {
        end = records.next(t, position, final);
      } catch (e) {
        if (e instanceof MalformedRecord)
          throw await badData(text, t, position, recordLine, e.position, `malformed CSV record: ${e.message}`);
        throw e;
      }
      if (end < 0) break;
      if (!records.isBlankLine) {
        if (skip > 0) {
          skip--;
        } else {
          for (let j = 0; j < builders.length; j++) {
            const field = positions[j];
            try {
              if (field >= records.fieldCount) builders[j].appendNull();
              else records.appendField(t, field, builders[j]);
            } catch (e) {
              if (e instanceof BadValue)
                throw await badData(text, t, position, recordLine, records.starts[field], `column '${columns[j].name}': ${e.message}`);
              throw e;
            }
          }
          const page = assembler.endRow();
          if (page !== undefined) pages.push(page);
        }
      }
      position = end;
    }
    carry = t.slice(position);
    yield* pages;
  }
  const rest = assembler.rest();
  if (rest !== undefined) yield rest;
}
