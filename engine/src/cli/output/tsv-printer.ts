// TSV and TSV_HEADER, as Trino's CLI prints them: values separated by tabs, a null as an empty value,
// binary as one line of hex, and NUL, backspace, form feed, newline, carriage return, tab and
// backslash escaped with a backslash (in the header too).

import type { ColumnJson } from '../../server/statement-json.js';
import { DELIMITED, valueFormatter } from './format-value.js';
import type { OutputPrinter } from './printer.js';
import type { TextOutput } from './sink.js';

const ESCAPES: Readonly<Record<string, string>> = {
  '\0': '\\0',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\\': '\\\\',
};
const ESCAPED = /[\0\b\f\n\r\t\\]/g;

export class TsvPrinter implements OutputPrinter {
  constructor(
    private readonly columns: readonly ColumnJson[],
    private readonly output: TextOutput,
    private needHeader: boolean,
  ) {}

  async printRows(rows: readonly unknown[][]): Promise<void> {
    let out = '';
    if (this.needHeader) {
      this.needHeader = false;
      out += line(this.columns.map((c) => c.name));
    }
    const formatters = this.columns.map((c) => valueFormatter(c.typeSignature, DELIMITED));
    for (const row of rows) out += line(formatters.map((format, i) => format(row[i])));
    await this.output.write(out);
  }

  async finish(): Promise<void> {
    await this.printRows([]);
  }
}

function line(values: readonly string[]): string {
  return `${values.map((v) => v.replace(ESCAPED, (c) => ESCAPES[c]!)).join('\t')}\n`;
}
