// The bounded buffer between a query's result pages and its client. The producer side pulls pages
// from the executor only while less than one response's worth of rows is buffered, so a result of
// any size streams with flat memory; the client side takes responses bounded in rows and bytes.

import { getScalar, type Page } from '../spi/page.js';
import { RowSizer } from './json-size.js';
import { resultJsonValue } from './result-json.js';
import type { VariantWireForm } from '../types/variant/variant-client.js';
import type { OutputColumn } from '../spi/statement-result.js';

export interface ResponseLimits {
  maxRows: number;
  maxBytes: number;
}

interface BufferedPage {
  page: Page;
  sizer: RowSizer;
  bytes: number;
  /** Rows of this page already handed out. */
  taken: number;
}

export class ResultBuffer {
  private readonly pages: BufferedPage[] = [];
  private bufferedRows = 0;
  private bufferedBytes = 0;
  private finished = false;
  private stopped = false;
  private wakeProducer: (() => void) | undefined;
  private blockedSince: number | undefined;

  pagesAdded = 0;
  pagesSent = 0;
  rowsAdded = 0;
  bytesAdded = 0;
  /** Milliseconds the producer waited for the client to make room. */
  blockedMillis = 0;

  constructor(
    private readonly columns: readonly OutputColumn[],
    private readonly limits: ResponseLimits,
    /** Called whenever rows arrive or the producer finishes. */
    private readonly onChange: () => void,
    /** How the client takes VARIANT values (variant-client.ts). */
    private readonly variants: VariantWireForm = 'json-text',
  ) {}

  /** True once every page was pulled from the source. */
  get producerFinished(): boolean {
    return this.finished;
  }

  get hasRows(): boolean {
    return this.bufferedRows > 0;
  }

  /** Estimated size of the rows not yet handed out. */
  get bytesBuffered(): number {
    return this.bufferedBytes;
  }

  get bufferedPages(): number {
    return this.pages.length;
  }

  /** Nothing left: the source is exhausted and every row was handed out. */
  get complete(): boolean {
    return this.finished && this.bufferedRows === 0;
  }

  /** Pulls `source` until it ends, `stop()` is called, or `signal` aborts; closes the source early. */
  async fill(source: AsyncIterable<Page>, signal: AbortSignal): Promise<void> {
    const iterator = source[Symbol.asyncIterator]();
    let exhausted = false;
    try {
      while (!signal.aborted && !this.stopped) {
        await this.waitForRoom(signal);
        if (signal.aborted || this.stopped) break;
        const next = await iterator.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        this.add(next.value);
      }
    } finally {
      if (!exhausted) await iterator.return?.();
    }
    if (exhausted || this.stopped) {
      this.finished = true;
      this.onChange();
    }
  }

  /** Partial cancel: produce nothing more; what is buffered is still delivered. */
  stop(): void {
    this.stopped = true;
    this.wakeProducer?.();
  }

  private add(page: Page): void {
    if (page.rowCount === 0) return;
    const sizer = new RowSizer(page);
    const bytes = sizer.rows(0, page.rowCount);
    this.pages.push({ page, sizer, bytes, taken: 0 });
    this.bufferedRows += page.rowCount;
    this.bufferedBytes += bytes;
    this.pagesAdded++;
    this.rowsAdded += page.rowCount;
    this.bytesAdded += bytes;
    this.onChange();
  }

  private hasRoom(): boolean {
    return this.bufferedRows < this.limits.maxRows && this.bufferedBytes < this.limits.maxBytes;
  }

  private async waitForRoom(signal: AbortSignal): Promise<void> {
    if (this.hasRoom()) return;
    this.blockedSince = Date.now();
    await new Promise<void>((resolve) => {
      const wake = () => {
        signal.removeEventListener('abort', wake);
        this.wakeProducer = undefined;
        resolve();
      };
      this.wakeProducer = wake;
      signal.addEventListener('abort', wake);
    });
    this.blockedMillis += Date.now() - this.blockedSince;
    this.blockedSince = undefined;
  }

  /** Whether the producer waits now for the client to take rows (the buffer is full). */
  get waitingForClient(): boolean {
    return this.blockedSince !== undefined;
  }

  /** Blocked time including a wait still in progress. */
  currentBlockedMillis(now = Date.now()): number {
    return this.blockedMillis + (this.blockedSince === undefined ? 0 : now - this.blockedSince);
  }

  /** Up to one response of rows as JSON values (at least one row when any is buffered). */
  take(): unknown[][] {
    const rows: unknown[][] = [];
    let bytes = 0;
    while (this.pages.length > 0 && rows.length < this.limits.maxRows && bytes < this.limits.maxBytes) {
      const head = this.pages[0]!;
      let end = head.taken;
      while (end < head.page.rowCount && rows.length + (end - head.taken) < this.limits.maxRows && bytes < this.limits.maxBytes) {
        bytes += head.sizer.row(end);
        end++;
      }
      this.appendRows(rows, head.page, head.taken, end);
      this.bufferedRows -= end - head.taken;
      head.taken = end;
      if (head.taken === head.page.rowCount) {
        this.pages.shift();
        this.bufferedBytes -= head.bytes;
        this.pagesSent++;
      }
    }
    if (this.hasRoom()) this.wakeProducer?.();
    return rows;
  }

  /** Converts rows [from, to) column by column, so the type dispatch happens once per column. */
  private appendRows(rows: unknown[][], page: Page, from: number, to: number): void {
    const first = rows.length;
    for (let r = from; r < to; r++) rows.push(new Array<unknown>(page.columns.length));
    page.columns.forEach((column, c) => {
      const type = this.columns[c]?.type ?? column.type;
      for (let r = from; r < to; r++) rows[first + r - from]![c] = resultJsonValue(getScalar(column, r), type, this.variants);
    });
  }
}
