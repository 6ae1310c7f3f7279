// One job in a worker thread: runs its scan pipeline over the splits the main thread hands out,
// asking for the next split as it starts one (so one is always at hand), and posts the output pages
// back, waiting for a credit when it has posted as many as the main thread allows in flight. The
// query's shared cancel flag is checked at every page, so a LIMIT or a cancel stops it promptly.

import type { Session } from '../../spi/session.js';
import type { TableConstraint } from '../../spi/connector.js';
import { EngineError, toEngineError } from '../../errors/engine-error.js';
import { MemoryContext } from '../memory.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import { estimatedPageBytes } from '../../columnar/page.js';
import { PartialAggregationDoesNotPay } from './adaptive-partial.js';
import { BusyClock } from './busy-clock.js';
import { encodePage } from './page-transfer.js';
import { partitionedFinal } from './partitioned-final.js';
import { partitionedWindow } from './thread-window.js';
import type { ExchangeHooks } from './hash-exchange.js';
import { scanPipelineStream, sharedSideKeys } from './scan-pipeline.js';
import { buildSideFromShared } from './shared-build-side.js';
import { MemoryReservation } from '../operators/operator-support.js';
import { unsharedBytes } from '../../columnar/shared-page.js';
import { errorPayload, type MainToJob, type StartJob, type ThreadToMain } from './thread-messages.js';
import { openWorkerSplit } from './split-readers.js';
import type { WorkerSplit } from '../../spi/worker-split.js';
import { DYNAMIC_FILTER_SPLITS_METRIC } from '../dynamic-filters/dynamic-filters.js';
import { withCancelFlag } from '../expression/routine-interrupts.js';

/** A change in a task's memory worth a message of its own (between the reports that go with splits and pages). */
export const MEMORY_REPORT_BYTES = 1 << 20;

export type PostToMain = (message: ThreadToMain, transfer?: ArrayBuffer[]) => void;

export class ThreadJob {
  private readonly splits: (WorkerSplit | null)[] = [];
  private splitRequested = false;
  private noMoreSplits = false;
  private credits: number;
  private wakeUp: (() => void) | undefined;
  private readonly abort = new AbortController();
  private readonly clock = new BusyClock();
  private readonly memory: MemoryContext;
  /** What the main thread was last told the task holds. */
  private reportedMemory = 0;
  /** The scan's dynamic filters: those complete at the start, then the newer ones a split came with. */
  private dynamicFilter: TableConstraint | undefined;

  constructor(
    private readonly task: StartJob,
    private readonly post: PostToMain,
  ) {
    this.credits = task.credits;
    this.dynamicFilter = task.dynamicFilter;
    this.memory = new MemoryContext(`task ${task.taskId}`, task.memoryLimitBytes);
  }

  receive(message: MainToJob): void {
    switch (message.type) {
      case 'split':
        this.splitRequested = false;
        // A complete filter holds for every split, those queued already too.
        if (message.dynamicFilter !== undefined) this.dynamicFilter = message.dynamicFilter;
        if (message.split === null) this.noMoreSplits = true;
        this.splits.push(message.split);
        break;
      case 'credit':
        this.credits++;
        break;
      case 'cancel':
        this.abort.abort();
        break;
      case 'start':
        break;
    }
    const wake = this.wakeUp;
    this.wakeUp = undefined;
    wake?.();
  }

  /** Runs the task where the routines it evaluates can see its query's cancel flag (routine-interrupts.ts). */
  run(): Promise<void> {
    return withCancelFlag(this.task.cancelFlag, () => this.runTask());
  }

  private async runTask(): Promise<void> {
    const { taskId, session } = this.task;
    const memory = this.memory;
    const ctx: OperatorContext = { memory, signal: this.abort.signal, timeZone: session.timeZone };
    this.clock.resume();
    try {
      const output = this.output(ctx);
      for await (const page of output) {
        await this.takeCredit();
        const encoded = encodePage(page);
        this.post({ type: 'page', taskId, page: encoded.page, memoryBytes: this.memoryToReport() }, encoded.transfer);
      }
      this.post({ type: 'done', taskId, cpuMillis: this.clock.take() });
    } catch (e) {
      if (e instanceof PartialAggregationDoesNotPay) this.post({ type: 'poorReduction', taskId });
      else this.post({ type: 'failed', taskId, error: errorPayload(toEngineError(e)) });
    } finally {
      memory.close();
    }
  }

  /** The fragment's operators over the scan of this task's splits, with their build sides. */
  private output(ctx: OperatorContext): PageStream {
    const { fragment, session, exchange } = this.task;
    const keys = sharedSideKeys(fragment);
    const builds = this.task.builds.map((shared, i) => buildSideFromShared(shared, keys[i]));
    // This thread's own copy of the build sides' strings; the rest is shared with the main thread, which counts it.
    new MemoryReservation(ctx.memory).set(builds.reduce((bytes, side) => bytes + unsharedBytes(side.page), 0));
    const partial = scanPipelineStream(ctx, fragment, this.scan(session), builds);
    const hooks: ExchangeHooks = {
      pause: () => this.clock.pause(),
      resume: () => this.clock.resume(),
      received: () => this.reportMemory(),
    };
    if (fragment.window !== undefined) {
      // A window sees whole partitions only once every thread's rows were exchanged by their keys' hash.
      if (exchange === undefined) throw new EngineError('GENERIC_INTERNAL_ERROR', 'A window on the threads needs their exchange');
      return partitionedWindow(ctx, partial, fragment.window, exchange, hooks);
    }
    return exchange !== undefined && fragment.finalAggregation !== undefined
      ? partitionedFinal(ctx, partial, fragment.finalAggregation, exchange, hooks)
      : partial;
  }

  /**
   * Tells the main thread what the task holds when it changed by MEMORY_REPORT_BYTES since last told:
   * a final step's groups (or a window's rows) grow after the last split is done and before its first page goes out.
   */
  private reportMemory(): void {
    if (Math.abs(this.memory.reservedBytes - this.reportedMemory) < MEMORY_REPORT_BYTES) return;
    this.post({ type: 'memory', taskId: this.task.taskId, memoryBytes: this.memoryToReport() });
  }

  /** What the task holds now, as the main thread is about to be told. */
  private memoryToReport(): number {
    this.reportedMemory = this.memory.reservedBytes;
    return this.reportedMemory;
  }

  /** The pages of every split this task is given, counting rows, bytes and busy time per split. */
  private async *scan(session: Session): PageStream {
    const { taskId, fragment } = this.task;
    for (;;) {
      const split = await this.nextSplit();
      if (split === null) return;
      let rows = 0;
      let bytes = 0;
      const dynamicFilter = this.dynamicFilter;
      const source = openWorkerSplit(split, fragment.columns, session, dynamicFilter);
      for await (const page of source) {
        this.throwIfCanceled();
        rows += page.rowCount;
        bytes += estimatedPageBytes(page);
        yield page;
      }
      const read = source.metrics?.();
      const metrics = dynamicFilter === undefined ? read : { ...read, [DYNAMIC_FILTER_SPLITS_METRIC]: 1 };
      this.post({
        type: 'splitDone',
        taskId,
        rows,
        bytes,
        cpuMillis: this.clock.take(),
        memoryBytes: this.memoryToReport(),
        ...(metrics === undefined ? {} : { metrics }),
      });
    }
  }

  /** The next split (null once there are no more), asking ahead for the one after it. */
  private async nextSplit(): Promise<WorkerSplit | null> {
    for (;;) {
      this.throwIfCanceled();
      const split = this.splits.shift();
      if (split !== undefined) {
        this.requestSplit();
        return split;
      }
      this.requestSplit();
      await this.idle();
    }
  }

  private requestSplit(): void {
    if (this.splitRequested || this.noMoreSplits) return;
    this.splitRequested = true;
    this.post({ type: 'needSplit', taskId: this.task.taskId });
  }

  private async takeCredit(): Promise<void> {
    while (this.credits === 0) {
      this.throwIfCanceled();
      await this.idle();
    }
    this.credits--;
  }

  /** Waits for the next message from the main thread (not counted as busy time). */
  private async idle(): Promise<void> {
    this.clock.pause();
    await new Promise<void>((resolve) => (this.wakeUp = resolve));
    this.clock.resume();
  }

  private throwIfCanceled(): void {
    if (Atomics.load(this.task.cancelFlag, 0) !== 0) this.abort.abort();
    if (this.abort.signal.aborted) throw new EngineError('USER_CANCELED', 'Query was canceled');
  }
}
