// A query's memory as its coordinator sees it, as Trino's coordinator sees it: what the query holds
// now is what it holds on this node (its root stage, and its tasks here, which reserve under the
// query's context) plus what each of its tasks on other nodes said it holds in its last report. Its
// peak is the largest of: that sum as seen at each task report (or reading), the peak of its
// context here, and the largest peak one task reported. Each is a lower bound of the true peak (a
// task reports every so often, so a sum between two reports goes unseen); none is a sum of peaks
// reached at different moments.

import type { MemoryContext } from '../exec/memory.js';

/** What a task's info says of its memory. */
export interface TaskMemoryReport {
  reservedBytes: number;
  peakBytes: number;
}

export class QueryMemoryUsage {
  /** The last reservation of each task on another node. */
  private readonly remote = new Map<string, number>();
  private remoteBytes = 0;
  private peakSeen = 0;
  private peakTask = 0;
  private ended = false;

  /**
   * `local`: the query's context on this node, its tasks here included; `rootTask`: the root stage's
   * task, which runs in the query itself (a child of `local`) and sends no reports.
   */
  constructor(
    private readonly local: MemoryContext,
    private readonly rootTask?: MemoryContext,
  ) {}

  /**
   * A task's report. A task on this node reserves under the local context already: only its peak is
   * taken from the report.
   */
  taskReported(taskId: string, report: TaskMemoryReport, onThisNode: boolean): void {
    this.peakTask = Math.max(this.peakTask, report.peakBytes, report.reservedBytes);
    if (!onThisNode && !this.ended) {
      this.remoteBytes += report.reservedBytes - (this.remote.get(taskId) ?? 0);
      this.remote.set(taskId, report.reservedBytes);
    }
    this.peakSeen = Math.max(this.peakSeen, this.reservedBytes);
  }

  /** The query ended: whatever its tasks held is released (a task that never sent its final report included). */
  end(): void {
    this.ended = true;
    this.remote.clear();
    this.remoteBytes = 0;
  }

  /** What the query holds now on every node. */
  get reservedBytes(): number {
    return this.local.reservedBytes + this.remoteBytes;
  }

  /** The peak so far; a reading is an observation of the sum too, so the peak is never below what the query holds now. */
  get peakBytes(): number {
    this.peakSeen = Math.max(this.peakSeen, this.reservedBytes);
    return Math.max(this.peakSeen, this.local.peakBytes, this.peakTaskBytes);
  }

  /** The largest peak one task of the query reported (Trino's peakTaskUserMemory). */
  get peakTaskBytes(): number {
    return Math.max(this.peakTask, this.rootTask?.peakBytes ?? 0);
  }
}
