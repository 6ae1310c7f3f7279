// CSV lines of pages, as csv-records.ts reads them back (and DuckDB and PostgreSQL read them):
// NULL is an empty unquoted field; a value is quoted when it is empty or holds the separator, the
// quote, the escape character or a line end, its quotes doubled (and escape characters escaped).

import type { ColumnMetadata } from '../../../../spi/connector.js';
import { getScalar } from '../../../../columnar/page.js';
import { formatValueAsText } from '../../../../types/values.js';
import type { FormatOptions } from '../file-format.js';
import { textParser } from '../text/text-columns.js';
import type { PageLines } from '../text/text-writer.js';

export function csvLines(columns: readonly ColumnMetadata[], options: FormatOptions): PageLines {
  const { csvSeparator: separator, csvQuote: quote, csvEscape: escape } = options;
  // Checks the types once: those text cannot hold fail here, naming the column.
  for (const c of columns) textParser(c.type, c.name);
  const special = new RegExp(
    `[${[separator, quote, escape, '\r', '\n']
      .filter((c) => c !== '')
      .map(escapeForClass)
      .join('')}]`,
  );
  const quoteAll = new RegExp(escapeForPattern(quote), 'g');
  const escapeAll = escape === '' ? undefined : new RegExp(escapeForPattern(escape), 'g');
  const field = (text: string): string => {
    if (text !== '' && !special.test(text)) return text;
    let inner = escapeAll === undefined ? text : text.replace(escapeAll, escape + escape);
    inner = inner.replace(quoteAll, quote + quote);
    return quote + inner + quote;
  };
  return (page) => {
    let out = '';
    for (let row = 0; row < page.rowCount; row++) {
      for (let c = 0; c < columns.length; c++) {
        if (c > 0) out += separator;
        const value = getScalar(page.columns[c], row);
        if (value !== null) out += field(formatValueAsText(value, columns[c].type));
      }
      out += '\n';
    }
    return out;
  };
}

/** The header line: the column names. */
export function csvHeader(columns: readonly ColumnMetadata[], options: FormatOptions): string {
  return `${columns.map((c) => c.name).join(options.csvSeparator)}\n`;
}

function escapeForClass(c: string): string {
  return c.replace(/[\\\]^-]/g, '\\$&');
}

function escapeForPattern(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
