// CSV, CSV_HEADER, CSV_UNQUOTED and CSV_HEADER_UNQUOTED, as Trino's CLI prints them: values separated
// by commas, a null as an empty value, binary as one line of hex; quoted, every value is in double
// quotes with its quotes doubled; unquoted, values are written as they are.

import type { ColumnJson } from '../../server/statement-json.js';
import { csvFromJsonRows, type PlainKind } from './csv-from-json.js';
import { DELIMITED, valueFormatter } from './format-value.js';
import { valueKind } from './client-types.js';
import type { OutputPrinter } from './printer.js';
import type { TextOutput } from './sink.js';

export class CsvPrinter implements OutputPrinter {
  private needHeader: boolean;
  private readonly quoted: boolean;
  private readonly formatters: ReadonlyArray<(value: unknown) => string>;
  /** Every column's kind when all print as their JSON text (csv-from-json.ts), else undefined. */
  private readonly plainKinds: readonly PlainKind[] | undefined;

  constructor(
    private readonly columns: readonly ColumnJson[],
    private readonly output: TextOutput,
    options: { header: boolean; quoted: boolean },
  ) {
    this.needHeader = options.header;
    this.quoted = options.quoted;
    this.formatters = columns.map((c) => valueFormatter(c.typeSignature, DELIMITED));
    const kinds = columns.map((c) => valueKind(c.typeSignature));
    this.plainKinds = kinds.every((k) => k === 'integral' || k === 'text') ? (kinds as PlainKind[]) : undefined;
  }

  async printJsonRows(data: Uint8Array): Promise<number | undefined> {
    const csv = this.plainKinds && csvFromJsonRows(data, this.plainKinds, this.quoted);
    if (csv === undefined) return undefined;
    if (csv.rows === 0) return 0;
    await this.printRows([]);
    await this.output.writeBytes(csv.bytes);
    return csv.rows;
  }

  async printRows(rows: readonly unknown[][]): Promise<void> {
    let out = '';
    if (this.needHeader) {
      this.needHeader = false;
      out += this.line(this.columns.map((c) => c.name));
    }
    const formatters = this.formatters;
    for (const row of rows) {
      for (let i = 0; i < formatters.length; i++) {
        if (i > 0) out += ',';
        out += this.field(formatters[i]!(row[i]));
      }
      out += '\n';
    }
    await this.output.write(out);
  }

  async finish(): Promise<void> {
    await this.printRows([]);
  }

  private line(values: readonly string[]): string {
    return `${values.map((v) => this.field(v)).join(',')}\n`;
  }

  private field(value: string): string {
    if (!this.quoted) return value;
    return value.includes('"') ? `"${value.replaceAll('"', '""')}"` : `"${value}"`;
  }
}
