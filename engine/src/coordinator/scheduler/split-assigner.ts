// Hands a SOURCE stage's splits to its tasks a batch at a time, taking them from the connector as
// they go out (a table of 100,000 splits is never listed at once). Each task holds at most
// `maxPending` splits it has not started; as it starts them (its info says so), it gets more, so a
// task on a faster or less loaded node reads more of the table. A task on a node that left ACTIVE
// gets no more (the others take the rest), unless no task of the stage is on an ACTIVE node. Once
// every split is handed out, every task hears there are no more: with its first splits when those
// are all of them (a small table), so that it need not wait for an update after its first info. A stage of one task (a single
// node's) has nobody to balance with: its task is kept MAX_PENDING_SPLITS_SINGLE_TASK splits ahead,
// topped up once half of them started, so that no update carries more than that.

import type { Split } from '../../spi/connector.js';
import type { TableScanNode } from '../../sql/planner/plan.js';
import { MAX_SPLITS_PER_TASK_UPDATE, type ScanSplits } from '../../internode/task-update-request.js';

/** Trino's node-scheduler.max-pending-splits-per-task is of this order. */
export const MAX_PENDING_SPLITS_PER_TASK = 8;
/** A stage's only task: enough splits ahead to keep a node's threads busy between two updates. */
export const MAX_PENDING_SPLITS_SINGLE_TASK = Math.min(1000, MAX_SPLITS_PER_TASK_UPDATE);

interface TaskSplits {
  /** Splits sent to the task; also the sequence id of the next one. */
  sent: number;
  /** Whether it was told there are no more. */
  finished: boolean;
}

/** One scan's splits, read from the connector's iterator as they are handed out (a read may wait on I/O). */
class SplitCursor {
  private readonly buffered: Split[] = [];
  private done = false;

  constructor(private readonly iterator: AsyncIterator<Split>) {}

  /** No split at hand, and the connector has no more. */
  get exhausted(): boolean {
    return this.done && this.buffered.length === 0;
  }

  /** Every split the connector makes is at hand or taken. */
  get listed(): boolean {
    return this.done;
  }

  /** Reads ahead until more than `count` splits are at hand (so `exhausted` is known once `count` are taken) or the connector has no more. */
  async fill(count: number): Promise<void> {
    while (!this.done && this.buffered.length <= count) {
      const next = await this.iterator.next();
      if (next.done === true) this.done = true;
      else this.buffered.push(next.value);
    }
  }

  take(count: number): Split[] {
    return this.buffered.splice(0, count);
  }

  /** Splits at hand. */
  get available(): number {
    return this.buffered.length;
  }
}

const NONE: ReadonlySet<number> = new Set();

export class SplitAssigner {
  private readonly cursors: Map<number, SplitCursor>;
  private readonly tasks: TaskSplits[];
  private readonly maxPending: number;
  /** The fewest splits worth an update (before the last ones). */
  private readonly minBatch: number;
  /** Splits of each task's first request: its room, or an even share of a table with fewer splits than all tasks have room for. */
  private initialShare: number;
  /** Plan node ids of the scans whose every split goes out in the tasks' first requests (known by keepTasksWithSplits). */
  private readonly handedOutInitially = new Set<number>();

  constructor(
    private readonly scans: readonly TableScanNode[],
    splits: Map<number, AsyncIterable<Split>>,
    taskCount: number,
  ) {
    this.cursors = new Map([...splits].map(([id, iterable]) => [id, new SplitCursor(iterable[Symbol.asyncIterator]())]));
    this.tasks = Array.from({ length: taskCount }, () => ({ sent: 0, finished: false }));
    this.maxPending = taskCount === 1 ? MAX_PENDING_SPLITS_SINGLE_TASK : MAX_PENDING_SPLITS_PER_TASK;
    this.minBatch = taskCount === 1 ? Math.ceil(MAX_PENDING_SPLITS_SINGLE_TASK / 2) : 1;
    this.initialShare = this.maxPending;
  }

  /** The splits of every task's first request, read from the connectors before any task is created. */
  async prepareInitial(): Promise<void> {
    await this.fill(this.maxPending * this.tasks.length);
    // A table of few splits (a database table read in a few key ranges) is spread over every task,
    // not handed whole to the first ones.
    const available = Math.max(0, ...[...this.cursors.values()].map((c) => c.available));
    if (this.exhausted() || available < this.maxPending * this.tasks.length)
      this.initialShare = Math.min(this.maxPending, Math.ceil(available / this.tasks.length));
  }

  /**
   * After prepareInitial, before any task's first request: when every split is listed and the last
   * tasks would get none, forgets those tasks (at least one is kept: an empty table's stage still
   * runs once, say for a global aggregation's row). Returns how many tasks remain (the first ones).
   */
  keepTasksWithSplits(): number {
    if (![...this.cursors.values()].every((c) => c.listed)) return this.tasks.length;
    const available = Math.max(0, ...[...this.cursors.values()].map((c) => c.available));
    const kept = available === 0 ? 1 : Math.min(this.tasks.length, Math.ceil(available / this.initialShare));
    this.tasks.splice(kept);
    for (const [scanId, cursor] of this.cursors) if (cursor.available <= this.initialShare * kept) this.handedOutInitially.add(scanId);
    return kept;
  }

  /** How many splits each task's first request holds (after keepTasksWithSplits): the first tasks take the larger shares. */
  initialShares(): number[] {
    const available = Math.max(0, ...[...this.cursors.values()].map((c) => c.available));
    return this.tasks.map((_, i) => Math.max(0, Math.min(this.initialShare, available - i * this.initialShare)));
  }

  /** The splits of task `index`'s first request (after prepareInitial and keepTasksWithSplits). */
  initial(index: number): ScanSplits[] {
    return this.take(index, this.initialShare, this.handedOutInitially);
  }

  /**
   * What to send task `index` now that its info says it received `received` splits and has
   * `waiting` of them not started; undefined when there is nothing to send.
   */
  async next(
    index: number,
    received: number,
    waiting: number,
    onActiveNode: boolean,
    anyOnActiveNode: boolean,
  ): Promise<ScanSplits[] | undefined> {
    const task = this.tasks[index];
    if (task.finished) return undefined;
    if (!onActiveNode && anyOnActiveNode && !this.exhausted()) return undefined;
    // Splits sent but not yet in the info count as waiting too.
    const pending = waiting + Math.max(0, task.sent - received);
    const room = this.maxPending - pending;
    if (room < this.minBatch && !this.exhausted()) return undefined;
    await this.fill(Math.max(0, room));
    const update = this.take(index, Math.max(0, room));
    return update.some((u) => u.splits.length > 0 || u.noMoreSplits) ? update : undefined;
  }

  /** Tells task `index` there are no more splits, once all are handed out; undefined when it knows, or splits remain. */
  finish(index: number): ScanSplits[] | undefined {
    if (this.tasks[index].finished || !this.exhausted()) return undefined;
    return this.take(index, 0);
  }

  private async fill(count: number): Promise<void> {
    await Promise.all([...this.cursors.values()].map((cursor) => cursor.fill(count)));
  }

  exhausted(): boolean {
    for (const cursor of this.cursors.values()) if (!cursor.exhausted) return false;
    return true;
  }

  /**
   * Up to `count` splits of each scan, numbered for task `index` (at most MAX_SPLITS_PER_TASK_UPDATE in all);
   * no more splits for the scans exhausted, and for those in `lastForEveryTask` (the other tasks take the rest).
   */
  private take(index: number, count: number, lastForEveryTask: ReadonlySet<number> = NONE): ScanSplits[] {
    const task = this.tasks[index];
    const perScan = Math.min(count, Math.floor(MAX_SPLITS_PER_TASK_UPDATE / this.scans.length));
    const update = this.scans.map((scan) => {
      const cursor = this.cursors.get(scan.id)!;
      const splits = cursor.take(perScan).map((split) => ({ sequenceId: task.sent++, split }));
      return { planNodeId: scan.id, splits, noMoreSplits: cursor.exhausted || lastForEveryTask.has(scan.id) };
    });
    task.finished = update.every((u) => u.noMoreSplits);
    return update;
  }
}
