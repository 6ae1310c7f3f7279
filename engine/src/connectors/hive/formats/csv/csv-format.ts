// The CSV format: byte ranges of a file read independently (see csv-records.ts on quoted line ends),
// columns inferred from a header line (or named col0, col1, ...), files written as RFC 4180 text.

import type { ColumnMetadata } from '../../../../spi/connector.js';
import { VARCHAR } from '../../../../types/types.js';
import type { FileEntry, FileSystem } from '../../file-system/file-system.js';
import type { FileFormat, FormatOptions } from '../file-format.js';
import { TextRange } from '../text/text-range.js';
import { textRanges } from '../text/text-pages.js';
import { TextWriter } from '../text/text-writer.js';
import { CsvRecords } from './csv-records.js';
import { csvCharacters, readCsv } from './csv-reader.js';
import { csvHeader, csvLines } from './csv-writer.js';

/** Columns a CSV file's first record may have, for inference. */
const MAX_INFERRED_COLUMNS = 10_000;

export const csvFormat: FileFormat = {
  name: 'CSV',
  ranges: (file, _options, targetBytes) => textRanges(file, targetBytes),
  read: readCsv,
  inferColumns,
  createWriter(columns, options, output) {
    const header = options.skipHeaderLineCount > 0 ? csvHeader(columns, options) : '';
    return new TextWriter(output, csvLines(columns, options), header);
  },
};

/**
 * Varchar columns named by the header line when the table skips one, else col0, col1, ...; a name
 * already seen gets a suffix (`a`, `a_1`), as DuckDB's read_csv names them: fields are read by position.
 */
async function inferColumns(fs: FileSystem, file: FileEntry, options: FormatOptions, signal?: AbortSignal): Promise<ColumnMetadata[]> {
  const stats = { bytesRead: 0, bytesSkipped: 0, rowGroupsRead: 0, rowGroupsSkipped: 0 };
  const records = new CsvRecords(csvCharacters(options), MAX_INFERRED_COLUMNS, true);
  for await (const chunk of new TextRange(fs, file, { start: 0, length: file.size }, stats, signal).chunks()) {
    if (records.next(chunk, 0, false) < 0) continue;
    const names = Array.from(
      { length: records.fieldCount },
      (_, i) => (options.skipHeaderLineCount > 0 ? (records.field(chunk, i) ?? '').trim().toLowerCase() : '') || `col${i}`,
    );
    return uniqueNames(names).map((name) => ({ name, type: VARCHAR }));
  }
  return [];
}

function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    let unique = name;
    for (let n = 1; seen.has(unique); n++) unique = `${name}_${n}`;
    seen.add(unique);
    return unique;
  });
}
