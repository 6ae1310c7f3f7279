// The node's worker threads. Started on first need (at most one per core), reused by every query,
// and referenced only while they run a task, so they never keep the process alive on their own.
// A thread that dies fails the tasks it was running (never the process) and is replaced on the
// next need; shutdown terminates them all.

import { availableParallelism } from 'node:os';
import { oldGenerationLimitBytes } from '../heap-guard.js';
import { Worker, type Transferable } from 'node:worker_threads';
import { EngineError } from '../../errors/engine-error.js';
import type { MainToWorker, StartTask, WorkerToMain } from './worker-protocol.js';

const WORKER_ENTRY = new URL('./worker-main.js', import.meta.url);
/**
 * Each worker has a heap of its own, as large as the main thread's old generation (so
 * --max-old-space-size bounds them too), stated explicitly: a worker that runs out of it is ended
 * alone, failing its tasks with EXCEEDED_LOCAL_MEMORY_LIMIT, never the process.
 */
const WORKER_HEAP_MB = Math.max(64, Math.floor(oldGenerationLimitBytes() / (1024 * 1024)));

/** Receives the messages of one task, or its loss when the thread dies. */
export interface TaskListener {
  onMessage(message: WorkerToMain): void;
  onFailure(error: EngineError): void;
}

export class PoolWorker {
  /** Tasks running in the thread; a detached one has no listener left but still runs to its end. */
  private readonly tasks = new Map<number, TaskListener | undefined>();
  private alive = true;

  constructor(
    private readonly thread: Worker,
    private readonly onDeath: (worker: PoolWorker) => void,
  ) {
    thread.unref();
    thread.on('message', (message: WorkerToMain) => this.route(message));
    thread.on('error', (e: Error & { code?: string }) =>
      e.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? this.die(new EngineError('EXCEEDED_LOCAL_MEMORY_LIMIT', `Query exceeded per-node memory limit: a worker thread ran out of its heap of ${WORKER_HEAP_MB}MB`))
        : this.die(new EngineError('GENERIC_INTERNAL_ERROR', `Worker thread failed: ${e.message}`)),
    );
    thread.on('exit', (code: number) => this.die(new EngineError('GENERIC_INTERNAL_ERROR', `Worker thread exited with code ${code}`)));
  }

  /** Running tasks: the pool gives new tasks to the least loaded threads. */
  get load(): number {
    return this.tasks.size;
  }

  start(message: StartTask, listener: TaskListener, transfer: Transferable[] = []): void {
    if (this.tasks.size === 0) this.thread.ref();
    this.tasks.set(message.taskId, listener);
    this.post(message, transfer);
  }

  post(message: MainToWorker, transfer: Transferable[] = []): void {
    if (this.alive) this.thread.postMessage(message, transfer);
  }

  /** Stops delivering a task's messages (the task itself is told to stop with `cancel`). */
  detach(taskId: number): void {
    if (this.tasks.has(taskId)) this.tasks.set(taskId, undefined);
  }

  terminate(): Promise<number> {
    return this.thread.terminate();
  }

  private route(message: WorkerToMain): void {
    const listener = this.tasks.get(message.taskId);
    if (message.type === 'done' || message.type === 'failed' || message.type === 'poorReduction') {
      this.tasks.delete(message.taskId);
      if (this.tasks.size === 0) this.thread.unref();
    }
    listener?.onMessage(message);
  }

  private die(error: EngineError): void {
    if (!this.alive) return;
    this.alive = false;
    const listeners = [...this.tasks.values()];
    this.tasks.clear();
    this.thread.unref();
    this.onDeath(this);
    for (const listener of listeners) listener?.onFailure(error);
  }
}

export interface WorkerPoolStats {
  /** Threads running now. */
  threads: number;
  /** Tasks started since the pool was made. */
  tasksStarted: number;
  /** Tasks running in the threads now (a stopped query's tasks count until they have wound down). */
  runningTasks: number;
  /** Sources whose work went back to the main thread because partial aggregation did not pay. */
  fallbacks: number;
}

export class WorkerPool {
  private readonly workers: PoolWorker[] = [];
  private tasksStarted = 0;
  private fallbacks = 0;

  constructor(readonly maxThreads: number = availableParallelism()) {}

  /** Up to `count` distinct threads (at most maxThreads), least loaded first, starting threads as needed. */
  acquire(count: number): PoolWorker[] {
    const wanted = Math.max(1, Math.min(count, this.maxThreads));
    while (this.workers.length < wanted) this.workers.push(this.spawn());
    return [...this.workers].sort((a, b) => a.load - b.load).slice(0, wanted);
  }

  startTask(worker: PoolWorker, message: StartTask, listener: TaskListener, transfer: Transferable[] = []): void {
    this.tasksStarted++;
    worker.start(message, listener, transfer);
  }

  stats(): WorkerPoolStats {
    const runningTasks = this.workers.reduce((n, w) => n + w.load, 0);
    return { threads: this.workers.length, tasksStarted: this.tasksStarted, runningTasks, fallbacks: this.fallbacks };
  }

  recordFallback(): void {
    this.fallbacks++;
  }

  /** Terminates every thread (their tasks fail); later work starts new ones. */
  async shutdown(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private spawn(): PoolWorker {
    return new PoolWorker(new Worker(WORKER_ENTRY, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } }), (dead) => {
      const i = this.workers.indexOf(dead);
      if (i >= 0) this.workers.splice(i, 1);
    });
  }
}

let shared: WorkerPool | undefined;

/** The process's pool: one set of threads for every query of the node. */
export function sharedWorkerPool(): WorkerPool {
  shared ??= new WorkerPool();
  return shared;
}

/** Terminates the shared pool's threads, if it was ever used (server shutdown). */
export async function shutdownSharedWorkerPool(): Promise<void> {
  await shared?.shutdown();
}
