// The splits of one scan of a task, as the coordinator sends them (a batch at a time, then
// no-more-splits): the scan takes them in order, waiting while none is there and more may come.
// Taking one calls `onTake`, which tells the coordinator (through the task's version) to send more.
// The coordinator numbers a scan's splits in increasing order (task-request.ts), so a split whose
// sequence id is not above the last one taken was taken before: an update sent again adds nothing
// (Trino's task keeps the same watermark). Adding and taking cost constant time per split.

import { Fifo } from '../exec/fifo.js';
import type { AssignedSplits } from '../exec/local-execution-planner.js';
import type { Split } from '../spi/connector.js';
import type { ScheduledSplit } from '../internode/task-update-request.js';

export class SplitQueue implements AssignedSplits {
  private readonly pending = new Fifo<Split>();
  private noMore = false;
  private wake: (() => void) | undefined;
  private readonly counting = new Set<() => void>();
  /** Splits received so far. */
  received = 0;
  /** The largest sequence id taken so far. */
  private lastSequenceId = -1;

  constructor(private readonly onTake: () => void) {}

  /** Splits received and not yet taken by the scan. */
  get backlog(): number {
    return this.pending.length;
  }

  get noMoreSplits(): boolean {
    return this.noMore;
  }

  /** `splits` in increasing order of sequence id (the task request check makes sure of it). */
  add(splits: readonly ScheduledSplit[], noMore: boolean): void {
    if (this.noMore) return;
    for (const { sequenceId, split } of splits) {
      if (sequenceId <= this.lastSequenceId) continue;
      this.lastSequenceId = sequenceId;
      this.pending.push(split);
      this.received++;
    }
    this.noMore = noMore;
    this.wakeUp();
  }

  atLeast(count: number): Promise<boolean> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.received < count && !this.noMore) return;
        this.counting.delete(check);
        resolve(this.received >= count);
      };
      this.counting.add(check);
      check();
    });
  }

  /** The task ended: the scan stops waiting. */
  close(): void {
    this.noMore = true;
    this.pending.clear();
    this.wakeUp();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Split> {
    for (;;) {
      const split = this.pending.shift();
      if (split !== undefined) {
        this.onTake();
        yield split;
        continue;
      }
      if (this.noMore) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private wakeUp(): void {
    for (const check of [...this.counting]) check();
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
