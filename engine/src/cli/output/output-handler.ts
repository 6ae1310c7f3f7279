// Hands a statement's rows to its printer in batches, as Trino's CLI does (OutputHandler): 10,000 rows
// at a time, or the rows gathered once 3 seconds have passed since the last batch, and the rest as the
// complete batch at the end. A large result prints as it arrives in bounded memory; a slow one shows
// its rows every few seconds. (Trino's CLI also prints an empty batch after 3 seconds without rows,
// which prints an ALIGNED header sized by the column names alone; here a batch waits for a row.)

import type { OutputPrinter } from './printer.js';

export const MAX_BUFFERED_ROWS = 10_000;
export const MAX_BUFFER_MILLIS = 3_000;

export class OutputHandler {
  private buffer: unknown[][] = [];
  private bufferStart: number;
  /** Whether any row arrived. */
  receivedRows = false;

  constructor(
    private readonly printer: OutputPrinter,
    /** Called before each batch is printed (to clear a progress line first). */
    private readonly beforePrint: () => void = () => {},
    private readonly now: () => number = Date.now,
  ) {
    this.bufferStart = now();
  }

  /** Rows of one response (none is fine: the time may have come to print what is held). */
  async add(rows: readonly unknown[][]): Promise<void> {
    if (rows.length > 0) this.receivedRows = true;
    for (const row of rows) {
      this.buffer.push(row);
      if (this.buffer.length >= MAX_BUFFERED_ROWS) await this.flush(false);
    }
    if (this.buffer.length > 0 && this.now() - this.bufferStart >= MAX_BUFFER_MILLIS) await this.flush(false);
  }

  /**
   * Rows of one response as their JSON bytes: printed from the bytes when the printer can (after what
   * is held, in order), else parsed by `parse` and added.
   */
  async addJsonRows(data: Uint8Array, parse: () => unknown[][]): Promise<void> {
    if (this.printer.printJsonRows !== undefined) {
      if (this.buffer.length > 0) await this.flush(false);
      this.beforePrint();
      const printed = await this.printer.printJsonRows(data);
      if (printed !== undefined) {
        if (printed > 0) this.receivedRows = true;
        this.bufferStart = this.now();
        return;
      }
    }
    await this.add(parse());
  }

  /** After the last response. */
  async close(): Promise<void> {
    await this.flush(true);
    await this.printer.finish();
  }

  private async flush(complete: boolean): Promise<void> {
    const rows = this.buffer;
    this.buffer = [];
    this.bufferStart = this.now();
    this.beforePrint();
    await this.printer.printRows(rows, complete);
  }
}
