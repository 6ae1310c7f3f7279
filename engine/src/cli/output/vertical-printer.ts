// VERTICAL, as Trino's CLI prints it: each row as a record, one line per column ("name | value"), a
// value over several lines continued under its first, and "(no rows)" for an empty result.
//
// -[ RECORD 1 ]-----
// first    | hello
// quantity | 123

import type { ColumnJson } from '../../server/statement-json.js';
import { consoleWidth, maxLineWidth } from './console-width.js';
import { formatValue } from './format-value.js';
import type { OutputPrinter } from './printer.js';
import type { TextOutput } from './sink.js';

export class VerticalPrinter implements OutputPrinter {
  private readonly namesWidth: number;
  private rowCount = 0;

  constructor(
    private readonly columns: readonly ColumnJson[],
    private readonly output: TextOutput,
  ) {
    this.namesWidth = Math.max(0, ...columns.map((c) => consoleWidth(c.name)));
  }

  async printRows(rows: readonly unknown[][]): Promise<void> {
    const cells = rows.map((row) => this.columns.map((c, i) => formatValue(row[i], c.typeSignature)));
    let valuesWidth = 0;
    for (const row of cells) for (const text of row) valuesWidth = Math.max(valuesWidth, maxLineWidth(text));
    for (const row of cells) {
      this.rowCount++;
      let out = `${this.recordHeader(valuesWidth)}\n`;
      row.forEach((text, i) => {
        let name = this.columns[i]!.name;
        for (const line of text.split('\n')) {
          out += `${name}${' '.repeat(this.namesWidth - consoleWidth(name))} | ${line}\n`;
          name = ' '.repeat(consoleWidth(name));
        }
      });
      await this.output.write(out);
    }
  }

  async finish(): Promise<void> {
    if (this.rowCount === 0) await this.output.write('(no rows)\n');
  }

  /** "-[ RECORD n ]", with a '+' above the separator when the names are wider, dashes to the widest value. */
  private recordHeader(valuesWidth: number): string {
    let header = `-[ RECORD ${this.rowCount} ]`;
    if (this.namesWidth + 1 >= header.length) header += `${'-'.repeat(this.namesWidth + 1 - header.length)}+`;
    return header + '-'.repeat(Math.max(0, this.namesWidth + valuesWidth + 3 - header.length));
  }
}
