// CSV, CSV_HEADER, CSV_UNQUOTED and CSV_HEADER_UNQUOTED, as Trino's CLI prints them: values separated
// by commas, a null as an empty value, binary as one line of hex; quoted, every value is in double
// quotes with its quotes doubled; unquoted, values are written as they are.

import type { ColumnJson } from '../../server/statement-json.js';
import { DELIMITED, formatValue } from './format-value.js';
import type { OutputPrinter } from './printer.js';
import type { TextOutput } from './sink.js';

export class CsvPrinter implements OutputPrinter {
  private needHeader: boolean;
  private readonly quoted: boolean;

  constructor(
    private readonly columns: readonly ColumnJson[],
    private readonly output: TextOutput,
    options: { header: boolean; quoted: boolean },
  ) {
    this.needHeader = options.header;
    this.quoted = options.quoted;
  }

  async printRows(rows: readonly unknown[][]): Promise<void> {
    let out = '';
    if (this.needHeader) {
      this.needHeader = false;
      out += this.line(this.columns.map((c) => c.name));
    }
    for (const row of rows) out += this.line(this.columns.map((c, i) => formatValue(row[i], c.typeSignature, DELIMITED)));
    await this.output.write(out);
  }

  async finish(): Promise<void> {
    await this.printRows([]);
  }

  private line(values: readonly string[]): string {
    return `${(this.quoted ? values.map((v) => `"${v.replaceAll('"', '""')}"`) : values).join(',')}\n`;
  }
}
