// What the text formats (CSV, JSON lines) share: how a file splits into byte ranges, the pages rows
// are gathered into, and errors that name the file, line and column of a bad value.

import { EngineError } from '../../../../errors/engine-error.js';
import type { ColumnMetadata } from '../../../../spi/connector.js';
import type { Page } from '../../../../columnar/page.js';
import type { FileEntry } from '../../file-system/file-system.js';
import type { FileRange } from '../file-format.js';
import { TextColumnBuilder, textParser } from './text-columns.js';
import { isCompressed, type TextRange } from './text-range.js';

/** Rows per page a text reader makes. */
export const PAGE_ROWS = 8192;

/** Ranges of about `targetBytes`; a compressed file is one range (its bytes cannot be entered midway). */
export function textRanges(file: FileEntry, targetBytes: number): FileRange[] {
  if (isCompressed(file.location) || file.size <= targetBytes) return [{ start: 0, length: file.size }];
  const ranges: FileRange[] = [];
  for (let start = 0; start < file.size; start += targetBytes) ranges.push({ start, length: Math.min(targetBytes, file.size - start) });
  return ranges;
}

/** Whether a range is its file's whole text. */
export function isWholeFile(file: FileEntry, range: FileRange): boolean {
  return range.start === 0 && (range.length >= file.size || isCompressed(file.location));
}

/** The requested columns' builders; a page every PAGE_ROWS rows. */
export class PageAssembler {
  readonly builders: TextColumnBuilder[];
  private rows = 0;

  constructor(columns: readonly ColumnMetadata[]) {
    this.builders = columns.map((c) => new TextColumnBuilder(c.type, textParser(c.type, c.name), PAGE_ROWS));
  }

  /** Ends a row whose values were appended; a page when it filled one. */
  endRow(): Page | undefined {
    return ++this.rows === PAGE_ROWS ? this.take() : undefined;
  }

  /** The rows not yet in a page, if any. */
  rest(): Page | undefined {
    return this.rows > 0 ? this.take() : undefined;
  }

  private take(): Page {
    const page: Page = { rowCount: this.rows, columns: this.builders.map((b) => b.take()) };
    this.rows = 0;
    return page;
  }
}

/**
 * A bad value or record at `position` of `text`, whose first character is on the range's line
 * `textLine`: fails naming the file, line and column.
 */
export async function badData(
  range: TextRange,
  text: string,
  textStart: number,
  textLine: number,
  position: number,
  message: string,
): Promise<EngineError> {
  let line = textLine;
  for (let i = text.indexOf('\n', textStart); i >= 0 && i < position; i = text.indexOf('\n', i + 1)) line++;
  // Texts start at line starts: the line's start is after the last line end before the position.
  const column = position - (text.lastIndexOf('\n', position - 1) + 1) + 1;
  return new EngineError('HIVE_BAD_DATA', `${range.file.location}:${await range.absoluteLine(line)}:${column}: ${message}`);
}
