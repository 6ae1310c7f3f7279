// Hands a SOURCE stage's splits to its tasks a few at a time. Each task holds at most
// `maxPendingSplitsPerTask` splits it has not started; as it starts them (its info says so), it gets
// more, so a task on a faster or less loaded node reads more of the table. A task on a node that
// left ACTIVE gets no more (the others take the rest), unless no task of the stage is on an ACTIVE
// node. Once every split is handed out, every task hears there are no more. A stage of one task
// (a single node's) has nobody to balance with: its task gets every split when it is created.

import type { Split } from '../../spi/connector.js';
import type { TableScanNode } from '../../sql/planner/plan.js';
import type { ScanSplits } from '../../worker/task-request.js';

/** Trino's node-scheduler.max-pending-splits-per-task is of this order. */
export const MAX_PENDING_SPLITS_PER_TASK = 8;

interface TaskSplits {
  /** Splits sent to the task; also the sequence id of the next one. */
  sent: number;
  /** Whether it was told there are no more. */
  finished: boolean;
}

export class SplitAssigner {
  private readonly queues: Map<number, Split[]>;
  private readonly tasks: TaskSplits[];

  constructor(
    private readonly scans: readonly TableScanNode[],
    splits: Map<number, Split[]>,
    taskCount: number,
    private maxPending = MAX_PENDING_SPLITS_PER_TASK,
  ) {
    this.queues = new Map([...splits].map(([id, list]) => [id, [...list]]));
    this.tasks = Array.from({ length: taskCount }, () => ({ sent: 0, finished: false }));
    if (taskCount === 1) this.maxPending = Infinity;
  }

  /** The splits of task `index`'s first request. */
  initial(index: number): ScanSplits[] {
    return this.take(index, this.maxPending);
  }

  /**
   * What to send task `index` now that its info says it received `received` splits and has
   * `waiting` of them not started; undefined when there is nothing to send.
   */
  next(index: number, received: number, waiting: number, onActiveNode: boolean, anyOnActiveNode: boolean): ScanSplits[] | undefined {
    const task = this.tasks[index];
    if (task.finished) return undefined;
    if (!onActiveNode && anyOnActiveNode && !this.exhausted()) return undefined;
    // Splits sent but not yet in the info count as waiting too.
    const pending = waiting + Math.max(0, task.sent - received);
    const room = this.maxPending - pending;
    if (room <= 0 && !this.exhausted()) return undefined;
    const update = this.take(index, Math.max(0, room));
    return update.some((u) => u.splits.length > 0 || u.noMoreSplits) ? update : undefined;
  }

  /** Tells task `index` there are no more splits, once all are handed out; undefined when it knows, or splits remain. */
  finish(index: number): ScanSplits[] | undefined {
    if (this.tasks[index].finished || !this.exhausted()) return undefined;
    return this.take(index, 0);
  }

  exhausted(): boolean {
    for (const queue of this.queues.values()) if (queue.length > 0) return false;
    return true;
  }

  private take(index: number, count: number): ScanSplits[] {
    const task = this.tasks[index];
    const update = this.scans.map((scan) => {
      const queue = this.queues.get(scan.id)!;
      const splits = queue.splice(0, count).map((split) => ({ sequenceId: task.sent++, split }));
      return { planNodeId: scan.id, splits, noMoreSplits: queue.length === 0 };
    });
    task.finished = update.every((u) => u.noMoreSplits);
    return update;
  }
}
