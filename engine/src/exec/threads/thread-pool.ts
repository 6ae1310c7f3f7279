// The node's worker threads. Started on first need (at most maxThreads), reused by every query, and
// referenced only while they run a job, so they never keep the process alive on their own. A
// thread left without a job for idleMillis is stopped, giving its heap back to the system; the
// next job starts a new one. A thread that dies fails the jobs it was running (never the process)
// and is replaced on the next need; shutdown terminates them all.

import { availableParallelism } from 'node:os';
import { Worker, type Transferable } from 'node:worker_threads';
import {
  DEFAULT_BUFFER_POOL_BYTES,
  DEFAULT_BUFFER_POOL_IDLE_MILLIS,
  DEFAULT_WORKER_THREAD_IDLE_MILLIS,
  SEMI_SPACE_MB,
  bufferPoolShare,
  maxNodeMemoryForHeap,
  workerThreadHeapBytes,
} from '../../config/memory-budget.js';
import { EngineError } from '../../errors/engine-error.js';
import { oldGenerationLimitBytes } from '../../process/heap-guard.js';
import { DEFAULT_WORKER_THREAD_NICE } from '../../process/thread-priority.js';
import { formatBytes } from '../memory.js';
import type { DecodeStream, FillJoinTable, MainToThread, StartJob, ThreadData, ThreadToMain } from './thread-messages.js';

const WORKER_ENTRY = new URL('./thread-main.js', import.meta.url);
const MB = 1024 * 1024;

export interface ThreadPoolOptions {
  /** The most threads (task.maxWorkerThreads). */
  maxThreads: number;
  /**
   * Each thread's old generation, stated explicitly (a share of the node memory, see memory-budget):
   * a thread that runs out of it is ended alone, failing its tasks with EXCEEDED_LOCAL_MEMORY_LIMIT.
   */
  threadHeapBytes: number;
  /** A thread without a task this long is stopped (task.workerThreadIdleTimeout). */
  idleMillis: number;
  /** How many nice steps below the event loop the threads run (task.workerThreadNice). */
  nice: number;
  /** Each thread's buffer pool: its share of memory.bufferPoolSize (see bufferPoolShare), and its idle time. */
  bufferPoolBytes: number;
  bufferPoolIdleMillis: number;
}

/** Without a server's settings (tests, tools): a thread per core sharing what this process's heap would give the node. */
export function defaultThreadPoolOptions(maxThreads = availableParallelism()): ThreadPoolOptions {
  return {
    maxThreads,
    threadHeapBytes: workerThreadHeapBytes(maxNodeMemoryForHeap(oldGenerationLimitBytes()), maxThreads),
    idleMillis: DEFAULT_WORKER_THREAD_IDLE_MILLIS,
    nice: DEFAULT_WORKER_THREAD_NICE,
    bufferPoolBytes: bufferPoolShare(DEFAULT_BUFFER_POOL_BYTES, maxThreads),
    bufferPoolIdleMillis: DEFAULT_BUFFER_POOL_IDLE_MILLIS,
  };
}

/** A message that starts a task in a thread: a job, or a one-message job. */
type OneTask = StartJob | DecodeStream | FillJoinTable;

/** Receives the messages of one task, or its loss when the thread dies. */
export interface JobListener {
  onMessage(message: ThreadToMain): void;
  onFailure(error: EngineError): void;
}

export class PooledThread {
  /** Tasks running in the thread; a detached one has no listener left but still runs to its end. */
  private readonly tasks = new Map<number, JobListener | undefined>();
  private alive = true;

  constructor(
    private readonly thread: Worker,
    heapBytes: number,
    private readonly events: { onDeath(worker: PooledThread): void; onIdle(worker: PooledThread): void },
  ) {
    thread.unref();
    thread.on('message', (message: ThreadToMain) => this.route(message));
    thread.on('error', (e: Error & { code?: string }) =>
      e.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? this.die(
            new EngineError(
              'EXCEEDED_LOCAL_MEMORY_LIMIT',
              `Query exceeded per-node memory limit: a worker thread ran out of its heap of ${formatBytes(heapBytes)}`,
            ),
          )
        : this.die(new EngineError('GENERIC_INTERNAL_ERROR', `Worker thread failed: ${e.message}`)),
    );
    thread.on('exit', (code: number) => this.die(new EngineError('GENERIC_INTERNAL_ERROR', `Worker thread exited with code ${code}`)));
  }

  /** Running tasks: the pool gives new tasks to the least loaded threads. */
  get load(): number {
    return this.tasks.size;
  }

  start(message: OneTask, listener: JobListener, transfer: Transferable[] = []): void {
    if (this.tasks.size === 0) this.thread.ref();
    this.tasks.set(message.taskId, listener);
    this.post(message, transfer);
  }

  post(message: MainToThread, transfer: Transferable[] = []): void {
    if (this.alive) this.thread.postMessage(message, transfer);
  }

  /** Asks the thread to empty its caches and collect its garbage (the node's memory is short). */
  relieveMemory(): void {
    if (this.alive) this.thread.postMessage({ type: 'relieveMemory' } satisfies MainToThread);
  }

  /** Asks the thread to free the buffers its pool holds (the node's memory pool needs them). */
  releaseBuffers(): void {
    if (this.alive) this.thread.postMessage({ type: 'releaseBuffers' } satisfies MainToThread);
  }

  /** Stops delivering a task's messages (the task itself is told to stop with `cancel`). */
  detach(taskId: number): void {
    if (this.tasks.has(taskId)) this.tasks.set(taskId, undefined);
  }

  terminate(): Promise<number> {
    return this.thread.terminate();
  }

  private route(message: ThreadToMain): void {
    const listener = this.tasks.get(message.taskId);
    if (
      message.type === 'done' ||
      message.type === 'failed' ||
      message.type === 'poorReduction' ||
      message.type === 'decodedStream' ||
      message.type === 'joinTableFilled'
    ) {
      this.tasks.delete(message.taskId);
      if (this.tasks.size === 0) {
        this.thread.unref();
        this.events.onIdle(this);
      }
    }
    listener?.onMessage(message);
  }

  private die(error: EngineError): void {
    if (!this.alive) return;
    this.alive = false;
    const listeners = [...this.tasks.values()];
    this.tasks.clear();
    this.thread.unref();
    this.events.onDeath(this);
    for (const listener of listeners) listener?.onFailure(error);
  }
}

export interface ThreadPoolStats {
  /** Threads running now. */
  threads: number;
  /** Tasks started since the pool was made. */
  tasksStarted: number;
  /** Tasks running in the threads now (a stopped query's tasks count until they have wound down). */
  runningTasks: number;
  /** Sources whose work went back to the main thread because partial aggregation did not pay. */
  fallbacks: number;
  /** Threads stopped after idleMillis without a task. */
  threadsStopped: number;
}

export class ThreadPool {
  private readonly workers: PooledThread[] = [];
  private readonly idleTimers = new Map<PooledThread, NodeJS.Timeout>();
  private tasksStarted = 0;
  private fallbacks = 0;
  private threadsStopped = 0;
  private options: ThreadPoolOptions;

  constructor(options: ThreadPoolOptions | number = defaultThreadPoolOptions()) {
    this.options = typeof options === 'number' ? defaultThreadPoolOptions(options) : options;
  }

  get settings(): ThreadPoolOptions {
    return this.options;
  }

  get maxThreads(): number {
    return this.options.maxThreads;
  }

  /** New settings, for the threads started from now on (those running keep their heap until they stop). */
  configure(options: ThreadPoolOptions): void {
    this.options = options;
  }

  /**
   * Up to `count` distinct threads (at most maxThreads), the least loaded, starting threads as needed.
   * They come in the pool's order, not by load: a scan hands its i-th split to the i-th thread, and
   * a memory table's split read again by the thread that read it last finds its strings decoded in
   * that thread's cache. Ordered by load, two scans of one query running side by side swapped the
   * threads from run to run (q13's orders comments decoded again: 0.2 to 0.75 s on sf1).
   */
  acquire(count: number): PooledThread[] {
    const wanted = Math.max(1, Math.min(count, this.options.maxThreads));
    while (this.workers.length < wanted) this.workers.push(this.spawn());
    return leastLoadedInOrder(this.workers, wanted);
  }

  startTask(worker: PooledThread, message: OneTask, listener: JobListener, transfer: Transferable[] = []): void {
    this.tasksStarted++;
    this.cancelIdle(worker);
    worker.start(message, listener, transfer);
  }

  stats(): ThreadPoolStats {
    const runningTasks = this.workers.reduce((n, w) => n + w.load, 0);
    return {
      threads: this.workers.length,
      tasksStarted: this.tasksStarted,
      runningTasks,
      fallbacks: this.fallbacks,
      threadsStopped: this.threadsStopped,
    };
  }

  recordFallback(): void {
    this.fallbacks++;
  }

  /** Asks every thread to give back what it can (caches, garbage). */
  relieveMemory(): void {
    for (const worker of this.workers) worker.relieveMemory();
  }

  releaseBuffers(): void {
    for (const worker of this.workers) worker.releaseBuffers();
  }

  /** Terminates every thread (their tasks fail); later work starts new ones. */
  async shutdown(): Promise<void> {
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private spawn(): PooledThread {
    const heapBytes = this.options.threadHeapBytes;
    const thread = new Worker(WORKER_ENTRY, {
      workerData: {
        nice: this.options.nice,
        bufferPoolBytes: this.options.bufferPoolBytes,
        bufferPoolIdleMillis: this.options.bufferPoolIdleMillis,
      } satisfies ThreadData,
      // V8 sizes the young generation at three semi-spaces.
      resourceLimits: { maxOldGenerationSizeMb: Math.floor(heapBytes / MB), maxYoungGenerationSizeMb: 3 * SEMI_SPACE_MB },
    });
    const worker = new PooledThread(thread, heapBytes, {
      onDeath: (dead) => {
        this.cancelIdle(dead);
        const i = this.workers.indexOf(dead);
        if (i >= 0) this.workers.splice(i, 1);
      },
      onIdle: (idle) => this.stopWhenStillIdle(idle),
    });
    // Idle until its first task (which acquire's caller starts at once): one never given a task stops too.
    this.stopWhenStillIdle(worker);
    return worker;
  }

  /** Stops `worker` once it has had no task for idleMillis (a task started meanwhile cancels this). */
  private stopWhenStillIdle(worker: PooledThread): void {
    this.cancelIdle(worker);
    const timer = setTimeout(() => {
      this.idleTimers.delete(worker);
      const i = this.workers.indexOf(worker);
      if (worker.load > 0 || i < 0) return;
      this.workers.splice(i, 1);
      this.threadsStopped++;
      void worker.terminate();
    }, this.options.idleMillis);
    timer.unref();
    this.idleTimers.set(worker, timer);
  }

  private cancelIdle(worker: PooledThread): void {
    clearTimeout(this.idleTimers.get(worker));
    this.idleTimers.delete(worker);
  }
}

let lastJobId = 0;

/** A job id no other job of the process has (a thread routes its messages by it). */
export function newJobId(): number {
  return ++lastJobId;
}

let shared: ThreadPool | undefined;

/** The process's pool: one set of threads for every query of the node. */
export function sharedThreadPool(): ThreadPool {
  shared ??= new ThreadPool();
  return shared;
}

/** The node's settings for its pool (a server sets them at start, before any query). */
export function configureSharedThreadPool(options: ThreadPoolOptions): void {
  sharedThreadPool().configure(options);
}

/** Terminates the shared pool's threads, if it was ever used (server shutdown). */
export async function shutdownSharedThreadPool(): Promise<void> {
  await shared?.shutdown();
}

/** The `wanted` least loaded of `threads` (the first of equally loaded ones), in their order in `threads`. */
export function leastLoadedInOrder<T extends { readonly load: number }>(threads: readonly T[], wanted: number): T[] {
  if (wanted >= threads.length) return [...threads];
  const chosen = new Set([...threads].sort((a, b) => a.load - b.load).slice(0, wanted));
  return threads.filter((t) => chosen.has(t));
}
