// JSON output like Trino's CLI: one object per row, keyed by column name, values as the server sent them.

import type { ColumnJson } from '../../server/statement-json.js';
import type { ResultPrinter } from './printer.js';
import type { OutputSink } from './sink.js';
import { stringifyJson } from '../../types/exact-json.js';

export class JsonPrinter implements ResultPrinter {
  private names: string[] = [];

  constructor(private readonly sink: OutputSink) {}

  async start(columns: readonly ColumnJson[]): Promise<void> {
    this.names = columns.map((c) => c.name);
  }

  async rows(rows: readonly unknown[][]): Promise<void> {
    let out = '';
    for (const row of rows) out += `${stringifyJson(Object.fromEntries(this.names.map((name, i) => [name, row[i] ?? null])))}\n`;
    await this.sink.write(out);
  }

  async finish(): Promise<void> {}
}
