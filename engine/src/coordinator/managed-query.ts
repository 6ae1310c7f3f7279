// One query on the coordinator: its lifecycle (QUEUED -> PLANNING -> STARTING -> RUNNING ->
// FINISHING -> FINISHED | FAILED), timings, memory, cancellation and the buffer its client reads.

import { variantWireForm } from '../types/variant/variant-client.js';
import { EngineError, toEngineError } from '../errors/engine-error.js';
import type { MemoryContext } from '../exec/memory.js';
import { isDone, type QueryState } from './query-state.js';
import { CancelHold } from './cancel-hold.js';
import { ResultBuffer, type JsonRowsChunk, type ResponseLimits } from './result-buffer.js';
import type { Session } from '../spi/session.js';
import type { OutputColumn, StatementResult } from '../spi/statement-result.js';
import { newQueryProgress } from '../spi/query-progress.js';
import type { DistributedView, QueryExecutionContext } from './query-execution-context.js';
import { QueryMemoryUsage } from './query-memory.js';
import { OperatorRecorders } from '../exec/stats/operator-recorder.js';
import type { StageSnapshot } from './scheduler/stage-snapshot.js';
import type { PlanFragment } from '../sql/planner/distributed/fragmenter.js';

/** What a finished query keeps of its result: the figures the protocol reports, nothing that references operators or data. */
export type StatementSummary = Omit<StatementResult, 'pages'>;

/** What runs a statement (the StatementExecutor). */
export interface StatementRunner {
  execute(sql: string, session: Session, context: QueryExecutionContext): Promise<StatementResult>;
}

/** Where the statement came from, for the query detail. */
export interface ClientInfo {
  remoteAddress: string;
  userAgent?: string;
}

export class ManagedQuery {
  readonly createTime = Date.now();
  executionStartTime: number | undefined;
  planningEndTime: number | undefined;
  endTime: number | undefined;
  /** Last time the client polled; a query not polled for long is abandoned. */
  lastClientAccess = this.createTime;
  error: EngineError | undefined;
  /** While running, the statement's result; once done only its summary (no page stream, so no operators or data). */
  result: StatementResult | StatementSummary | undefined;
  buffer: ResultBuffer | undefined;
  readonly progress = newQueryProgress();
  /** When the query runs over the cluster: its stages below the root. */
  subStages: () => StageSnapshot[] = () => [];
  /** The nodes that ran some of the query (this one alone until it runs over the cluster). */
  nodeCount: () => number = () => 1;
  /** Its fragments once planned to run as tasks (the web interface draws them). */
  fragments: PlanFragment | undefined;
  /** Whether the client read the final response (or gave up on the query). */
  clientFinished = false;
  /** Counts state changes (the task version clients see). */
  version = 0;
  /** Path of the resource group that admitted the query, e.g. ['global', 'alice']. */
  resourceGroupId: readonly string[] | undefined;
  /** What the query holds on every node, and its peaks (`memory` is this node's share). */
  readonly memoryUsage: QueryMemoryUsage;
  /** The root stage's task, which runs in the query itself (a child of `memory`, beside the query's tasks on this node). */
  readonly rootTaskMemory: MemoryContext;
  /** The operators of the root stage's task, counted and timed as they run. */
  readonly rootOperators: OperatorRecorders;

  private current: QueryState = 'QUEUED';
  /** Dropped once the query is done: operators may have left abort listeners on its signal. */
  private abort: AbortController | undefined = new AbortController();
  /** Failures from outside wait while a write commits (see CancelHold). */
  private readonly cancelHold = new CancelHold();
  private readonly waiters = new Set<() => void>();
  private readonly doneListeners: Array<(query: ManagedQuery) => void> = [];

  constructor(
    readonly id: string,
    readonly sql: string,
    /** The client's session; the query's own once it runs with WITH SESSION. */
    public session: Session,
    readonly client: ClientInfo,
    readonly memory: MemoryContext,
    private readonly limits: ResponseLimits,
  ) {
    // The node takes the memory back when its heap is nearly full and this query holds the most.
    memory.onRevoke((error) => this.fail(error));
    this.rootTaskMemory = memory.child(`${id}.0.0`);
    this.memoryUsage = new QueryMemoryUsage(memory, this.rootTaskMemory);
    this.rootOperators = new OperatorRecorders(this.rootTaskMemory, this.progress);
  }

  get state(): QueryState {
    return this.current;
  }

  get done(): boolean {
    return isDone(this.current);
  }

  get columns(): readonly OutputColumn[] | undefined {
    return this.result?.columns;
  }

  get canceled(): boolean {
    return this.error?.errorName === 'USER_CANCELED';
  }

  /** Plans and runs the statement, feeding the result buffer until the result ends or the query fails. */
  async run(runner: StatementRunner): Promise<void> {
    if (this.done) return;
    this.executionStartTime = Date.now();
    this.transition('PLANNING');
    try {
      const signal = this.abort!.signal;
      const onDistributed = (view: DistributedView) => {
        this.subStages = () => view.subStages();
        this.nodeCount = () => view.nodeCount();
        this.fragments = view.root;
      };
      const context = {
        signal,
        memory: this.rootTaskMemory,
        memoryUsage: this.memoryUsage,
        operators: this.rootOperators,
        progress: this.progress,
        onDistributed,
        holdCancel: <T>(work: () => Promise<T>) => this.cancelHold.hold(work),
        onQuerySession: (session: Session) => {
          this.session = session;
        },
      };
      const result = await runner.execute(this.sql, this.session, context);
      if (this.done) {
        await result.pages[Symbol.asyncIterator]().return?.();
        return;
      }
      this.result = result;
      this.planningEndTime = Date.now();
      this.transition('STARTING');
      this.buffer = new ResultBuffer(result.columns, this.limits, () => this.notify(), variantWireForm(this.session));
      this.transition('RUNNING');
      await this.buffer.fill(result.pages, signal);
      if (this.done) return;
      if (this.buffer.complete) this.finish();
      else this.transition('FINISHING');
    } catch (e) {
      this.failNow(e);
    } finally {
      this.memory.close();
    }
  }

  /** The next response's rows; the query is FINISHED once the last row was handed out. */
  takeRows(): JsonRowsChunk {
    if (!this.buffer || this.current === 'FAILED') return { parts: [], rowCount: 0 };
    const rows = this.buffer.take();
    if (this.current === 'FINISHING' && this.buffer.complete) this.finish();
    return rows;
  }

  /** Fails the query from outside (a cancel, a limit, the server stopping); while a write commits, once it ended (see CancelHold). */
  fail(cause: unknown): void {
    this.cancelHold.request(() => this.failNow(cause));
  }

  private failNow(cause: unknown): void {
    if (this.done) return;
    const abort = this.abort;
    this.error = toEngineError(cause);
    this.end('FAILED');
    abort?.abort(this.error);
  }

  cancel(): void {
    this.fail(new EngineError('USER_CANCELED', 'Query was canceled'));
  }

  touch(now = Date.now()): void {
    this.lastClientAccess = now;
  }

  /** Resolves at the next change of state or buffered rows, or after `millis`. */
  waitForChange(millis: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, millis));
      this.waiters.add(wake);
    });
  }

  onDone(listener: (query: ManagedQuery) => void): void {
    this.doneListeners.push(listener);
  }

  // Timings in milliseconds, as of `now` for a query still running.

  queuedMillis(now = Date.now()): number {
    return (this.executionStartTime ?? this.endTime ?? now) - this.createTime;
  }

  elapsedMillis(now = Date.now()): number {
    return (this.endTime ?? now) - this.createTime;
  }

  analysisMillis(now = Date.now()): number {
    if (this.executionStartTime === undefined) return 0;
    return (this.planningEndTime ?? this.endTime ?? now) - this.executionStartTime;
  }

  /** Time spent producing results after planning. */
  executionMillis(now = Date.now()): number {
    if (this.planningEndTime === undefined) return 0;
    return (this.endTime ?? now) - this.planningEndTime;
  }

  private finish(): void {
    this.end('FINISHED');
  }

  private end(state: 'FINISHED' | 'FAILED'): void {
    this.endTime = Date.now();
    this.memoryUsage.end();
    this.releaseExecution();
    this.transition(state);
    for (const listener of this.doneListeners) listener(this);
  }

  /**
   * A finished query stays in the history with its statistics only: the page stream (and through
   * it the operator tree, hash tables and pages) is dropped, and a failed query's unread rows too.
   */
  private releaseExecution(): void {
    if (this.result !== undefined) {
      const { columns, updateType, updateCount, sessionChanges } = this.result;
      this.result = { columns, updateType, updateCount, sessionChanges };
    }
    this.abort = undefined;
  }

  private transition(state: QueryState): void {
    this.current = state;
    this.version++;
    this.notify();
  }

  private notify(): void {
    for (const wake of [...this.waiters]) wake();
  }
}
