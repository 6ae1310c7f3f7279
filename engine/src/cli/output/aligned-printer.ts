// ALIGNED output like Trino's CLI: centred header, a dashed separator, numbers right-aligned,
// other values left-aligned, NULL for nulls, and a "(N rows)" footer.
//
//  x |  y  |  z
// ---+-----+------
//  1 | abc | 1.50
// (1 row)

import type { ColumnJson } from '../../server/statement-json.js';
import { formatValue, isNumericType } from './format-value.js';
import type { ResultPrinter } from './printer.js';
import type { OutputSink } from './sink.js';

export class AlignedPrinter implements ResultPrinter {
  private columns: readonly ColumnJson[] = [];
  private readonly cells: string[][] = [];

  constructor(private readonly sink: OutputSink) {}

  async start(columns: readonly ColumnJson[]): Promise<void> {
    this.columns = columns;
  }

  async rows(rows: readonly unknown[][]): Promise<void> {
    for (const row of rows) this.cells.push(row.map((value, i) => formatValue(value, this.columns[i]!.type) ?? 'NULL'));
  }

  async finish(): Promise<void> {
    const widths = this.columns.map((c, i) => Math.max(c.name.length, ...this.cells.map((row) => longestLine(row[i]!))));
    const numeric = this.columns.map((c) => isNumericType(c.type));
    let out = `${this.columns.map((c, i) => center(c.name, widths[i]!)).join('|')}\n`;
    out += `${widths.map((w) => '-'.repeat(w + 2)).join('+')}\n`;
    for (const row of this.cells) {
      const lines = row.map((cell) => cell.split('\n'));
      const height = Math.max(1, ...lines.map((l) => l.length));
      for (let line = 0; line < height; line++) {
        out += `${lines.map((l, i) => ` ${align(l[line] ?? '', widths[i]!, numeric[i]!)} `).join('|')}\n`;
      }
      if (out.length > 65536) {
        await this.sink.write(out);
        out = '';
      }
    }
    const n = this.cells.length;
    out += `(${n} row${n === 1 ? '' : 's'})\n`;
    await this.sink.write(out);
  }
}

function longestLine(text: string): number {
  return Math.max(...text.split('\n').map((l) => l.length));
}

function center(text: string, width: number): string {
  const left = Math.floor((width - text.length) / 2);
  const right = width - text.length - left;
  return `${' '.repeat(left + 1)}${text}${' '.repeat(right + 1)}`;
}

function align(text: string, width: number, right: boolean): string {
  return right ? text.padStart(width) : text.padEnd(width);
}
