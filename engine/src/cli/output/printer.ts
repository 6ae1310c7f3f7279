// The result printers of `engine sql`, one per --output-format.

import type { ColumnJson } from '../../server/statement-json.js';
import { AlignedPrinter } from './aligned-printer.js';
import { DelimitedPrinter } from './delimited-printer.js';
import { JsonPrinter } from './json-printer.js';
import type { OutputSink } from './sink.js';

export const OUTPUT_FORMATS = ['ALIGNED', 'CSV', 'CSV_HEADER', 'TSV', 'TSV_HEADER', 'JSON'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface ResultPrinter {
  /** Called once the columns are known, before any rows. */
  start(columns: readonly ColumnJson[]): Promise<void>;
  rows(rows: readonly unknown[][]): Promise<void>;
  /** After the last row (not called when the statement failed). */
  finish(): Promise<void>;
}

export function createPrinter(format: OutputFormat, sink: OutputSink): ResultPrinter {
  switch (format) {
    case 'ALIGNED':
      return new AlignedPrinter(sink);
    case 'CSV':
    case 'CSV_HEADER':
      return new DelimitedPrinter(sink, 'csv', format === 'CSV_HEADER');
    case 'TSV':
    case 'TSV_HEADER':
      return new DelimitedPrinter(sink, 'tsv', format === 'TSV_HEADER');
    case 'JSON':
      return new JsonPrinter(sink);
  }
}
