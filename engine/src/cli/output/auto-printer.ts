// AUTO, as Trino's CLI has it: ALIGNED, unless a batch's first line in ALIGNED is wider than the
// terminal; from then on VERTICAL (batches already printed stay ALIGNED).

import type { ColumnJson } from '../../server/statement-json.js';
import { AlignedPrinter } from './aligned-printer.js';
import type { OutputPrinter } from './printer.js';
import { TextBuffer, type TextOutput } from './sink.js';
import { VerticalPrinter } from './vertical-printer.js';

export class AutoPrinter implements OutputPrinter {
  private readonly buffer = new TextBuffer();
  private readonly vertical: VerticalPrinter;
  private current: OutputPrinter;

  constructor(
    columns: readonly ColumnJson[],
    private readonly output: TextOutput,
    private readonly maxWidth: number,
  ) {
    this.current = new AlignedPrinter(columns, this.buffer);
    this.vertical = new VerticalPrinter(columns, this.buffer);
  }

  async printRows(rows: readonly unknown[][], complete: boolean): Promise<void> {
    await this.current.printRows(rows, complete);
    if (this.current !== this.vertical && this.buffer.text.indexOf('\n') > this.maxWidth) {
      this.current = this.vertical;
      this.buffer.take();
      await this.current.printRows(rows, complete);
    }
    await this.output.write(this.buffer.take());
  }

  async finish(): Promise<void> {
    await this.current.finish();
    await this.output.write(this.buffer.take());
  }
}
