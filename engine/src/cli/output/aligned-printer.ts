// ALIGNED, as Trino's CLI prints it: a centred header, a dashed separator, numbers right-aligned and
// other values left-aligned, NULL for nulls, a value over several lines with '+' at the end of each
// line that continues, and a "(N rows)" footer. Columns are sized for each batch of rows.
//
//  x |  y  |  z
// ---+-----+------
//  1 | abc | 1.50
// (1 row)

import type { ColumnJson } from '../../server/statement-json.js';
import { consoleWidth, maxLineWidth } from './console-width.js';
import { isNumericType } from './client-types.js';
import { formatValue } from './format-value.js';
import type { OutputPrinter } from './printer.js';
import type { TextOutput } from './sink.js';

/** Text written at once, so a large batch is not held as one string. */
const WRITE_CHUNK = 65536;

export class AlignedPrinter implements OutputPrinter {
  private readonly numeric: boolean[];
  private headerRendered = false;
  private rowCount = 0;

  constructor(
    private readonly columns: readonly ColumnJson[],
    private readonly output: TextOutput,
  ) {
    this.numeric = columns.map((c) => isNumericType(c.typeSignature));
  }

  async printRows(rows: readonly unknown[][], complete: boolean): Promise<void> {
    this.rowCount += rows.length;
    const cells = rows.map((row) => this.columns.map((c, i) => formatValue(row[i], c.typeSignature)));
    const widths = this.columns.map((c) => Math.max(1, consoleWidth(c.name)));
    for (const row of cells) row.forEach((text, i) => (widths[i] = Math.max(widths[i]!, maxLineWidth(text))));
    let out = '';
    if (!this.headerRendered) {
      this.headerRendered = true;
      out += `${this.columns.map((c, i) => center(c.name, widths[i]!)).join('|')}\n`;
      out += `${widths.map((w) => '-'.repeat(w + 2)).join('+')}\n`;
    }
    // A lone row of a complete result needs no continuation marks.
    const markContinuation = !complete || this.rowCount > 1;
    for (const row of cells) {
      const lines = row.map((text) => text.split('\n'));
      const height = Math.max(1, ...lines.map((l) => l.length));
      for (let line = 0; line < height; line++) {
        const parts = lines.map((l, i) => {
          const text = align(l[line] ?? '', widths[i]!, this.numeric[i]!);
          return markContinuation && line + 1 < l.length ? `${text.slice(0, -1)}+` : text;
        });
        out += `${parts.join('|')}\n`;
      }
      if (out.length > WRITE_CHUNK) {
        await this.output.write(out);
        out = '';
      }
    }
    await this.output.write(out);
  }

  async finish(): Promise<void> {
    await this.printRows([], true);
    await this.output.write(`(${this.rowCount} row${this.rowCount === 1 ? '' : 's'})\n`);
  }
}

function center(text: string, width: number): string {
  const left = Math.floor((width - consoleWidth(text)) / 2);
  const right = width - left - consoleWidth(text);
  return `${' '.repeat(left + 1)}${text}${' '.repeat(right + 1)}`;
}

function align(text: string, width: number, right: boolean): string {
  const padding = ' '.repeat(width - consoleWidth(text) + 1);
  return right ? `${padding}${text} ` : ` ${text}${padding}`;
}
