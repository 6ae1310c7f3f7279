// The tasks a node holds. Creates a task on its first POST (only while the node takes new work, and
// only once the request passed its checks: task-update-check.ts), shares one memory context per
// query among that query's tasks here (the per-node query limit), keeps finished tasks for a while
// so that their final info can be read, and fails a task whose coordinator stopped asking about it
// (the coordinator is gone, nobody will read or cancel it). That silence is counted in the node's
// running time (AwakeClock): a node that was stopped or blocked for longer than the client timeout
// has not heard its coordinators meanwhile, and must not fail their live tasks as abandoned before
// it reads the requests waiting for it.

import type { CatalogManager } from '../connectors/catalog-manager.js';
import { formatDuration } from '../config/duration.js';
import { EngineError } from '../errors/engine-error.js';
import type { QuerySpools } from '../exec/local-execution-planner.js';
import type { MemoryContext } from '../exec/memory.js';
import { sessionFromJson } from '../spi/session-json.js';
import type { ExchangeClientOptions, LocalTaskOutputs } from './exchange-client.js';
import { AwakeClock } from './awake-clock.js';
import type { OutputBuffer, OutputBufferOptions } from './output-buffer.js';
import { isDoneState } from '../internode/task-info.js';
import { SqlTask } from './sql-task.js';
import type { TaskUpdateRequest } from '../internode/task-update-request.js';
import { checkTaskUpdate } from './task-update-check.js';

const TASK_ID = /^[0-9a-z_]{1,64}\.\d{1,6}\.\d{1,6}$/;
const SWEEP_INTERVAL_MILLIS = 1000;

export interface TaskManagerOptions {
  catalogs: CatalogManager;
  nodeMemory: MemoryContext;
  /** query.max-memory-per-node: what one query's tasks on this node may hold together. */
  queryMaxMemoryPerNode: number;
  /**
   * The memory of a query this node coordinates (undefined for another coordinator's): its tasks
   * here reserve under it, so that the per-node limit bounds the root stage and the tasks together.
   */
  coordinatedQueryMemory?: (queryId: string) => MemoryContext | undefined;
  outputBuffer: OutputBufferOptions;
  exchange: ExchangeClientOptions;
  /** How long a done task stays listed (default 5 minutes). */
  infoRetentionMillis?: number;
  /** task.clientTimeout: a running task its coordinator has not asked about for this long of the node's running time fails (default 2 minutes). */
  clientTimeoutMillis?: number;
  /**
   * Whether the node takes new tasks now (it is ACTIVE); otherwise a new task is refused with this
   * error — except a task of a query this node coordinates, which it finishes while it drains.
   */
  refusal: () => Error | undefined;
}

interface QueryOnNode {
  memory: MemoryContext;
  tasks: Set<SqlTask>;
  spools: QuerySpools;
}

export class TaskManager {
  private readonly tasks = new Map<string, SqlTask>();
  private readonly queries = new Map<string, QueryOnNode>();
  private readonly listeners: (() => void)[] = [];
  /** Readers of a task's output that came before the task (see awaitOutputBuffer), by task id. */
  private readonly creationWaiters = new Map<string, Set<() => void>>();
  private readonly sweeper: NodeJS.Timeout;
  /** Read at every sweep (and every request of a coordinator), so a longer gap means the node did not run. */
  private readonly clock = new AwakeClock(2 * SWEEP_INTERVAL_MILLIS);

  constructor(private readonly options: TaskManagerOptions) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MILLIS).unref();
  }

  /** POST /v1/task/{taskId}. */
  update(taskId: string, request: TaskUpdateRequest): SqlTask {
    if (!TASK_ID.test(taskId))
      throw new EngineError('GENERIC_USER_ERROR', `Invalid task id: ${taskId} (expected <queryId>.<stage>.<task>)`);
    let task = this.tasks.get(taskId);
    const physical = checkTaskUpdate(taskId, request, task?.plan, this.options.catalogs);
    if (task === undefined) {
      const refusal = this.options.refusal();
      if (refusal !== undefined && this.options.coordinatedQueryMemory?.(request.session.queryId) === undefined) throw refusal;
      task = this.create(taskId, request.session.queryId);
    }
    task.update(request, sessionFromJson(request.session), physical);
    return task;
  }

  get(taskId: string): SqlTask | undefined {
    return this.tasks.get(taskId);
  }

  list(): SqlTask[] {
    return [...this.tasks.values()];
  }

  outputBuffer(taskId: string): OutputBuffer | undefined {
    return this.tasks.get(taskId)?.outputBuffer;
  }

  /**
   * A task's output buffer; for a task not created yet, once it is, waiting up to `maxWaitMillis`.
   * A query's tasks are created all at once, so a consumer may ask before its producer's creation
   * arrived here: it waits for it rather than being answered 404 and retrying after a delay.
   */
  async awaitOutputBuffer(taskId: string, maxWaitMillis: number, signal: AbortSignal): Promise<OutputBuffer | undefined> {
    const buffer = this.outputBuffer(taskId);
    if (buffer !== undefined || maxWaitMillis <= 0 || signal.aborted) return buffer;
    await new Promise<void>((resolve) => {
      const waiters = this.creationWaiters.get(taskId) ?? new Set<() => void>();
      this.creationWaiters.set(taskId, waiters);
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0 && this.creationWaiters.get(taskId) === waiters) this.creationWaiters.delete(taskId);
        resolve();
      };
      const timer = setTimeout(done, maxWaitMillis).unref();
      signal.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
    return this.outputBuffer(taskId);
  }

  cancel(taskId: string, abort: boolean): SqlTask | undefined {
    const task = this.tasks.get(taskId);
    task?.cancel(abort);
    return task;
  }

  /** Tasks not done yet. */
  runningCount(): number {
    let count = 0;
    for (const task of this.tasks.values()) if (!isDoneState(task.state)) count++;
    return count;
  }

  /** Splits of the running tasks that wait. */
  queuedSplits(): number {
    return this.sumOverRunning((task) => task.progress.queuedSplits);
  }

  runningSplits(): number {
    return this.sumOverRunning((task) => task.progress.runningSplits);
  }

  private sumOverRunning(pick: (task: SqlTask) => number): number {
    let sum = 0;
    for (const task of this.tasks.values()) if (!isDoneState(task.state)) sum += pick(task);
    return sum;
  }

  /** Tasks that ended but whose final state no response has carried yet (a shutting-down node waits a little for them). */
  awaitingFinalInfo(): boolean {
    for (const task of this.tasks.values()) if (isDoneState(task.state) && !task.finalInfoSent) return true;
    return false;
  }

  /** What the tasks of each query hold on this node now. */
  reservationsByQuery(): Map<string, number> {
    return new Map([...this.queries].map(([queryId, query]) => [queryId, query.memory.reservedBytes]));
  }

  bufferedBytes(): number {
    let bytes = 0;
    for (const task of this.tasks.values()) bytes += task.outputBuffer?.bufferedBytes ?? 0;
    return bytes;
  }

  /** Called whenever a task ends (the node's state machine waits for the last one when draining). */
  onWorkChanged(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Ends every task (the node stops). */
  close(): void {
    clearInterval(this.sweeper);
    for (const task of this.tasks.values()) task.fail(new EngineError('SERVER_SHUTTING_DOWN', 'Server is shutting down'));
  }

  private create(taskId: string, queryId: string): SqlTask {
    let query = this.queries.get(queryId);
    if (query === undefined) {
      const parent = this.options.coordinatedQueryMemory?.(queryId) ?? this.options.nodeMemory;
      query = { memory: parent.child(`tasks of ${queryId}`, this.options.queryMaxMemoryPerNode), tasks: new Set(), spools: new Map() };
      this.queries.set(queryId, query);
    }
    const entry = query;
    const task = new SqlTask(
      taskId,
      {
        catalogs: this.options.catalogs,
        queryMemory: entry.memory,
        querySpools: entry.spools,
        outputBuffer: this.options.outputBuffer,
        exchange: this.options.exchange,
        awakeMillis: () => this.clock.read(),
      },
      (done) => this.taskDone(queryId, done),
    );
    entry.tasks.add(task);
    this.tasks.set(taskId, task);
    for (const wake of [...(this.creationWaiters.get(taskId) ?? [])]) wake();
    return task;
  }

  private taskDone(queryId: string, task: SqlTask): void {
    const query = this.queries.get(queryId);
    if (query !== undefined) {
      query.tasks.delete(task);
      if (query.tasks.size === 0) {
        query.memory.close();
        this.queries.delete(queryId);
      }
    }
    for (const listener of this.listeners) listener();
  }

  private sweep(): void {
    const now = Date.now();
    const awake = this.clock.read();
    const retention = this.options.infoRetentionMillis ?? 5 * 60_000;
    const clientTimeout = this.options.clientTimeoutMillis ?? 2 * 60_000;
    for (const [id, task] of this.tasks) {
      if (isDoneState(task.state)) {
        if (task.endTime !== undefined && now - task.endTime.getTime() > retention) this.tasks.delete(id);
      } else if (awake - task.lastHeardAwakeMillis > clientTimeout) {
        const message = `Task ${id} was abandoned: no request from its coordinator for ${formatDuration(clientTimeout)} of this node's running time (task.clientTimeout); the last came at ${task.lastHeartbeat.toISOString()}`;
        task.fail(new EngineError('ABANDONED_TASK', message));
      }
    }
  }
}

/** The output buffers of `tasks()` (read when asked: the task manager's own exchange options name it before it exists), for exchanges on this node. */
export function localTaskOutputs(nodeId: string, tasks: () => TaskManager): LocalTaskOutputs {
  return {
    nodeId,
    outputBuffer: (taskId) => tasks().outputBuffer(taskId),
    awaitOutputBuffer: (taskId, maxWaitMillis, signal) => tasks().awaitOutputBuffer(taskId, maxWaitMillis, signal),
  };
}
