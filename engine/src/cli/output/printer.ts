// The result printers of `engine sql`, one per --output-format, as Trino's CLI has them. Rows come in
// batches (see OutputHandler); a printer that lines values up (ALIGNED, VERTICAL, MARKDOWN) sizes its
// columns for each batch, as Trino's do.

import type { ColumnJson } from '../../server/statement-json.js';
import { AlignedPrinter } from './aligned-printer.js';
import { AutoPrinter } from './auto-printer.js';
import { CsvPrinter } from './csv-printer.js';
import { JsonPrinter } from './json-printer.js';
import { MarkdownPrinter } from './markdown-printer.js';
import type { TextOutput } from './sink.js';
import { TsvPrinter } from './tsv-printer.js';
import { VerticalPrinter } from './vertical-printer.js';

/** Trino's formats, in its order. */
export const OUTPUT_FORMATS = [
  'AUTO',
  'ALIGNED',
  'VERTICAL',
  'TSV',
  'TSV_HEADER',
  'CSV',
  'CSV_HEADER',
  'CSV_UNQUOTED',
  'CSV_HEADER_UNQUOTED',
  'JSON',
  'MARKDOWN',
  'NULL',
] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface OutputPrinter {
  /** A batch of rows, each a row of the server's JSON values; `complete` for the last batch (which may be empty). */
  printRows(rows: readonly unknown[][], complete: boolean): Promise<void>;
  /**
   * Optional: prints a response's rows from their JSON bytes (`[[...],...]`) where it can do so
   * exactly; the number of rows printed, or undefined for rows it leaves to printRows.
   */
  printJsonRows?(data: Uint8Array): Promise<number | undefined>;
  /** After the last batch (not called when the statement failed). */
  finish(): Promise<void>;
}

/** `terminalWidth`: AUTO prints VERTICAL when ALIGNED would be wider (Infinity: never). */
export function createPrinter(
  format: OutputFormat,
  columns: readonly ColumnJson[],
  output: TextOutput,
  terminalWidth: number,
): OutputPrinter {
  switch (format) {
    case 'AUTO':
      return new AutoPrinter(columns, output, terminalWidth);
    case 'ALIGNED':
      return new AlignedPrinter(columns, output);
    case 'VERTICAL':
      return new VerticalPrinter(columns, output);
    case 'TSV':
    case 'TSV_HEADER':
      return new TsvPrinter(columns, output, format === 'TSV_HEADER');
    case 'CSV':
    case 'CSV_HEADER':
    case 'CSV_UNQUOTED':
    case 'CSV_HEADER_UNQUOTED':
      return new CsvPrinter(columns, output, { header: format.startsWith('CSV_HEADER'), quoted: !format.endsWith('UNQUOTED') });
    case 'JSON':
      return new JsonPrinter(columns, output);
    case 'MARKDOWN':
      return new MarkdownPrinter(columns, output);
    case 'NULL':
      return NULL_PRINTER;
  }
}

/** NULL: runs the query and prints no rows. */
const NULL_PRINTER: OutputPrinter = {
  printRows: async () => {},
  finish: async () => {},
};
