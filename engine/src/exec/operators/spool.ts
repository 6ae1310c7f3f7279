// The rows of a common subplan (sql/planner/physical/common-subplans.ts), made once and replayed to
// each of its copies' consumers. The first consumer to read runs the subplan to its end and buffers
// its pages (reserved in that consumer's memory); the others, before or after, read the buffer. The
// buffer is freed when the last consumer has read it (or with the query), and a later read (a
// subquery run again per binding) runs the subplan again.

import { pageSizeInBytes, type Page } from '../../columnar/page.js';
import { MemoryReservation, throwIfCanceled } from './operator-support.js';
import type { OperatorContext, PageStream } from './operator.js';

export class SpooledRows {
  private pages: Promise<readonly Page[]> | undefined;
  private reservation: MemoryReservation | undefined;
  private finished = 0;

  /** `produce`: the subplan's pages, run in the context of the consumer that reads first. */
  constructor(
    private readonly produce: (ctx: OperatorContext) => PageStream,
    private readonly consumers: number,
  ) {}

  /** The subplan's rows for one consumer. */
  async *replay(ctx: OperatorContext): PageStream {
    try {
      this.pages ??= this.collect(ctx);
      for (const page of await this.pages) {
        throwIfCanceled(ctx);
        yield page;
      }
    } finally {
      if (++this.finished >= this.consumers) this.reset();
    }
  }

  private async collect(ctx: OperatorContext): Promise<readonly Page[]> {
    const reservation = new MemoryReservation(ctx.memory);
    this.reservation = reservation;
    const pages: Page[] = [];
    for await (const page of this.produce(ctx)) {
      if (page.rowCount === 0) continue;
      reservation.add(pageSizeInBytes(page));
      pages.push(page);
    }
    return pages;
  }

  private reset(): void {
    this.reservation?.release();
    this.reservation = undefined;
    this.pages = undefined;
    this.finished = 0;
  }
}
