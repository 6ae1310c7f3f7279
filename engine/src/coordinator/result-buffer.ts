// The bounded buffer between a query's result pages and its client. Each page is written to its
// response JSON text as it arrives (json-rows.ts), so a response is a few slices of those bytes. The
// producer side pulls pages from the executor while less than RESPONSES_AHEAD responses' worth is
// buffered, so a result of any size streams with flat memory and the next responses are ready while
// the client reads one; the client side takes responses bounded in rows and bytes.

import { yieldIfDue } from '../columnar/cooperative.js';
import type { Page } from '../columnar/page.js';
import { encodeJsonRows, type JsonRows } from './json-rows.js';
import type { VariantWireForm } from '../types/variant/variant-client.js';
import type { OutputColumn } from '../spi/statement-result.js';
import type { SqlType } from '../types/types.js';

/** Responses' worth of rows the producer keeps ready ahead of the client. */
export const RESPONSES_AHEAD = 4;

/** One response's rows: slices of encoded pages, each `row,row,...`, to be joined by commas. */
export interface JsonRowsChunk {
  parts: Uint8Array[];
  rowCount: number;
}

export interface ResponseLimits {
  maxRows: number;
  maxBytes: number;
}

interface BufferedPage {
  rows: JsonRows;
  rowCount: number;
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

  /** The type each column is written as. */
  private readonly types: readonly SqlType[];

  constructor(
    columns: readonly OutputColumn[],
    private readonly limits: ResponseLimits,
    /** Called whenever rows arrive or the producer finishes. */
    private readonly onChange: () => void,
    /** How the client takes VARIANT values (variant-client.ts). */
    private readonly variants: VariantWireForm = 'json-text',
  ) {
    this.types = columns.map((c) => c.type);
  }

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
        // Pages already waiting in the source arrive without a turn of the event loop in between.
        await yieldIfDue();
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
    const rows = encodeJsonRows(page, this.types, this.variants, this.rowsAdded > 0 ? this.bytesAdded / this.rowsAdded : undefined);
    // With the comma after each row: what take() counts as it hands the rows out.
    const bytes = rows.bytes.length + 1;
    this.pages.push({ rows, rowCount: page.rowCount, taken: 0 });
    this.bufferedRows += page.rowCount;
    this.bufferedBytes += bytes;
    this.pagesAdded++;
    this.rowsAdded += page.rowCount;
    this.bytesAdded += bytes;
    this.onChange();
  }

  private hasRoom(): boolean {
    return this.bufferedRows < RESPONSES_AHEAD * this.limits.maxRows && this.bufferedBytes < RESPONSES_AHEAD * this.limits.maxBytes;
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

  /** Up to one response of rows (at least one row when any is buffered). */
  take(): JsonRowsChunk {
    const parts: Uint8Array[] = [];
    let rowCount = 0;
    let bytes = 0;
    while (this.pages.length > 0 && rowCount < this.limits.maxRows && bytes < this.limits.maxBytes) {
      const head = this.pages[0]!;
      const starts = head.rows.rowStarts;
      let end = head.taken;
      while (end < head.rowCount && rowCount + (end - head.taken) < this.limits.maxRows && bytes < this.limits.maxBytes) {
        bytes += starts[end + 1] - starts[end];
        end++;
      }
      parts.push(head.rows.bytes.subarray(starts[head.taken], starts[end] - 1));
      this.bufferedBytes -= starts[end] - starts[head.taken];
      rowCount += end - head.taken;
      this.bufferedRows -= end - head.taken;
      head.taken = end;
      if (head.taken === head.rowCount) {
        this.pages.shift();
        this.pagesSent++;
      }
    }
    if (this.hasRoom()) this.wakeProducer?.();
    return { parts, rowCount };
  }
}
