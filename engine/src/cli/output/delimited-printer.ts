// CSV and TSV output like Trino's CLI. CSV quotes every value ("" inside quotes, NULL as an empty
// quoted value); TSV escapes tabs, newlines and backslashes and prints NULL as an empty field.

import type { ColumnJson } from '../../server/statement-json.js';
import { formatValue } from './format-value.js';
import type { ResultPrinter } from './printer.js';
import type { OutputSink } from './sink.js';

export class DelimitedPrinter implements ResultPrinter {
  private columns: readonly ColumnJson[] = [];

  constructor(
    private readonly sink: OutputSink,
    private readonly kind: 'csv' | 'tsv',
    private readonly header: boolean,
  ) {}

  async start(columns: readonly ColumnJson[]): Promise<void> {
    this.columns = columns;
    if (this.header) await this.sink.write(this.line(columns.map((c) => c.name)));
  }

  async rows(rows: readonly unknown[][]): Promise<void> {
    let out = '';
    for (const row of rows) out += this.line(row.map((value, i) => formatValue(value, this.columns[i]!.type)));
    await this.sink.write(out);
  }

  async finish(): Promise<void> {}

  private line(values: ReadonlyArray<string | null>): string {
    if (this.kind === 'csv') return `${values.map((v) => `"${(v ?? '').replace(/"/g, '""')}"`).join(',')}\n`;
    return `${values.map((v) => (v ?? '').replace(/[\\\t\n]/g, (c) => (c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\\\'))).join('\t')}\n`;
  }
}
