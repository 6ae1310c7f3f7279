// MARKDOWN, as Trino's CLI prints it: a table with a header row and a separator row ending in ':'
// for numeric (right-aligned) columns; Markdown's special characters escaped and line breaks as <br>.
//
// | first | quantity |
// | ----- | --------:|
// | hello |      123 |

import type { ColumnJson } from '../../server/statement-json.js';
import { consoleWidth } from './console-width.js';
import { isNumericType } from './client-types.js';
import { formatValue } from './format-value.js';
import type { OutputPrinter } from './printer.js';
import type { TextOutput } from './sink.js';

const SPECIAL_CHARACTERS = /[\\`*_{}[\]<>()#+!|]/g;

export class MarkdownPrinter implements OutputPrinter {
  private readonly rightAligned: boolean[];
  private headerRendered = false;

  constructor(
    private readonly columns: readonly ColumnJson[],
    private readonly output: TextOutput,
  ) {
    this.rightAligned = columns.map((c) => isNumericType(c.typeSignature));
  }

  async printRows(rows: readonly unknown[][]): Promise<void> {
    const cells = rows.map((row) => this.columns.map((c, i) => markdownText(formatValue(row[i], c.typeSignature))));
    const widths = this.columns.map((c) => Math.max(1, consoleWidth(c.name)));
    for (const row of cells) row.forEach((text, i) => (widths[i] = Math.max(widths[i]!, consoleWidth(text))));
    let out = '';
    if (!this.headerRendered) {
      this.headerRendered = true;
      out += this.line(
        this.columns.map((c) => c.name),
        widths,
      );
      out += `${widths.map((w, i) => `| ${'-'.repeat(w)}${this.rightAligned[i] ? ':' : ' '}`).join('')}|\n`;
    }
    for (const row of cells) out += this.line(row, widths);
    await this.output.write(out);
  }

  async finish(): Promise<void> {}

  private line(texts: readonly string[], widths: readonly number[]): string {
    return `${texts
      .map((text, i) => {
        const padding = ' '.repeat(widths[i]! - consoleWidth(text) + 1);
        return this.rightAligned[i] ? `|${padding}${text} ` : `| ${text}${padding}`;
      })
      .join('')}|\n`;
  }
}

function markdownText(text: string): string {
  return text.replace(SPECIAL_CHARACTERS, '\\$&').replaceAll('\n', '<br>');
}
