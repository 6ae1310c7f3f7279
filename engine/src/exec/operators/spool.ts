// The rows of a common subplan (sql/planner/physical/common-subplans.ts), made once and replayed to
// each of its copies' consumers. The first consumer to read that holds the subplan runs it to its end
// and buffers its pages (reserved in that consumer's memory); the others, before or after, read the
// buffer. A consumer without the subplan (a copy in another fragment of a single node's query) waits
// for its producer's. The buffer is freed when the last consumer has read it (or with the query), and
// a later read (a subquery run again per binding) runs the subplan again.

import { pageSizeInBytes, type Page } from '../../columnar/page.js';
import { MemoryReservation, throwIfCanceled } from './operator-support.js';
import type { OperatorContext, PageStream } from './operator.js';

/** A run's rows, once its producer has buffered them all. */
interface Run {
  started: boolean;
  pages: Promise<readonly Page[]>;
  settle: (pages: Promise<readonly Page[]>) => void;
}

export class SpooledRows {
  private run = newRun();
  private reservation: MemoryReservation | undefined;
  private finished = 0;

  constructor(private readonly consumers: number) {}

  /** The subplan's rows for one consumer; `produce`: the subplan's pages, when this consumer holds it. */
  async *replay(ctx: OperatorContext, produce?: (ctx: OperatorContext) => PageStream): PageStream {
    const run = this.run;
    try {
      // Without the subplan, a copy waits for the producer's task: blocked, not running.
      const waiting = untilAborted(produce === undefined ? run.pages : this.start(ctx, produce), ctx.signal);
      const pages = produce === undefined && ctx.stats !== undefined ? await ctx.stats.blockedOn(waiting) : await waiting;
      for (const page of pages) {
        throwIfCanceled(ctx);
        yield page;
      }
    } finally {
      if (++this.finished >= this.consumers) this.reset();
    }
  }

  /**
   * Runs the subplan unless it runs already (in `ctx`): a task that holds it for other tasks starts it
   * at once, whatever its own operators read first. Resolves once every row is buffered.
   */
  start(ctx: OperatorContext, produce: (ctx: OperatorContext) => PageStream): Promise<readonly Page[]> {
    const run = this.run;
    if (!run.started) {
      run.started = true;
      run.settle(this.collect(ctx, produce));
    }
    return run.pages;
  }

  private async collect(ctx: OperatorContext, produce: (ctx: OperatorContext) => PageStream): Promise<readonly Page[]> {
    const reservation = new MemoryReservation(ctx.memory);
    this.reservation = reservation;
    const pages: Page[] = [];
    for await (const page of produce(ctx)) {
      if (page.rowCount === 0) continue;
      reservation.add(pageSizeInBytes(page));
      pages.push(page);
    }
    return pages;
  }

  private reset(): void {
    this.reservation?.release();
    this.reservation = undefined;
    this.run = newRun();
    this.finished = 0;
  }
}

function newRun(): Run {
  let settle: Run['settle'] = () => undefined;
  const pages = new Promise<readonly Page[]>((resolve) => {
    settle = resolve;
  });
  return { started: false, pages, settle };
}

/** `promise`, or the abort's reason once `signal` aborts first (a consumer waiting for another task's producer). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
