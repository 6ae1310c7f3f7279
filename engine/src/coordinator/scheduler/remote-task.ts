// The coordinator's handle on one task of a query on some node: creates it (POST), follows its
// state by long-polling its info (GET with the version it has seen), and cancels or aborts it
// (DELETE). A node that stops answering is retried with backoff and, after several failures over a
// few seconds, reported gone (REMOTE_HOST_GONE), naming it; a task that failed reports its error.
// Updates of a created task (more splits) are sent again after a connection error or a 5xx: the
// task takes each split's sequence id once, so a repeat of an update that did arrive adds nothing.

import { EngineError } from '../../errors/engine-error.js';
import { ERROR_CODES, type ErrorName } from '../../errors/error-codes.js';
import { Backoff } from '../../worker/exchange-backoff.js';
import type { TaskUpdateRequest } from '../../worker/task-request.js';
import type { TaskAnswer, TaskChannel } from './task-channel.js';

/** The fields of a task's info the coordinator reads (the rest goes into the query detail as is). */
export interface RemoteTaskInfo {
  taskId: string;
  state: string;
  self: string;
  failures: { message: string; errorCode?: { name: string } }[];
  stats: {
    totalSplits: number;
    queuedSplits: number;
    runningSplits: number;
    completedSplits: number;
    rawInputPositions: number;
    rawInputDataSize: string;
    outputPositions: number;
    createTime: string;
    endTime?: string;
    totalCpuTime: string;
    totalBlockedTime: string;
    elapsedTime: string;
    totalDrivers: number;
    queuedDrivers: number;
    runningDrivers: number;
    completedDrivers: number;
    memoryReservation: string;
    peakMemoryReservation: string;
  };
  [field: string]: unknown;
}

export interface TaskNode {
  nodeId: string;
  uri: string;
}

export type { InternalHeaders } from './task-channel.js';

const POLL_WAIT = '1s';
const DONE_STATES = new Set(['FINISHED', 'CANCELED', 'ABORTED', 'FAILED']);

export class RemoteTask {
  info: RemoteTaskInfo | undefined;
  /** The version of `info`, as the node wrote it (a 64-bit integer: kept as text). */
  private version: string | undefined;
  private polling = false;
  private closed = false;
  private readonly stop = new AbortController();

  constructor(
    readonly taskId: string,
    readonly node: TaskNode,
    private readonly channel: TaskChannel,
  ) {}

  get uri(): string {
    return `${this.node.uri}/v1/task/${this.taskId}`;
  }

  /** The address of one of the task's output buffers, for the exchange clients that read it. */
  resultsUri(bufferId: number): string {
    return `${this.uri}/results/${bufferId}`;
  }

  get done(): boolean {
    return this.info !== undefined && DONE_STATES.has(this.info.state);
  }

  /**
   * POST: creates (or updates) the task; a node that refuses (not ACTIVE) throws SERVER_SHUTTING_DOWN,
   * one whose port refuses the connection (its process is gone) NodeGoneError, one that does not
   * answer REMOTE_HOST_GONE.
   */
  async update(request: TaskUpdateRequest): Promise<void> {
    let response: TaskAnswer;
    try {
      response = await this.channel.update(this.taskId, request, this.signal());
    } catch (e) {
      if (this.closed) throw e;
      const code = (e as { cause?: { code?: unknown } }).cause?.code;
      const message = `Could not send task ${this.taskId} to node ${this.node.nodeId} (${this.node.uri}): ${typeof code === 'string' ? code : (e as Error).message}`;
      if (code === 'ECONNREFUSED') throw new NodeGoneError(this.node.nodeId, `${message}: the node is gone`);
      throw new EngineError('REMOTE_HOST_GONE', `${message}. The node may have crashed or be under too much load.`);
    }
    const text = response.text;
    if (response.status === 503) throw new EngineError('SERVER_SHUTTING_DOWN', `Node ${this.node.nodeId} refused task ${this.taskId}: ${errorMessage(text)}`);
    if (response.status !== 200) throw new TaskRequestError(response.status, `${request.fragment === undefined ? 'Updating' : 'Creating'} task ${this.taskId} on node ${this.node.nodeId} failed with ${response.status}: ${errorMessage(text)}`);
    this.accept(text);
  }

  /**
   * Sends an update after those sent before it (updates to one task never overtake each other),
   * again after a transient failure, until the node counts as gone.
   */
  send(request: TaskUpdateRequest): Promise<void> {
    const sent = this.updates.then(() => (this.closed ? undefined : this.updateRetrying(request)));
    this.updates = sent.catch(() => undefined);
    return sent;
  }

  private async updateRetrying(request: TaskUpdateRequest): Promise<void> {
    const backoff = new Backoff({ minFailures: 3, maxErrorDurationMillis: 5000 });
    for (;;) {
      try {
        return await this.update(request);
      } catch (e) {
        const transient = (e instanceof EngineError && e.errorName === 'REMOTE_HOST_GONE') || (e instanceof TaskRequestError && e.status >= 500 && e.status !== 503);
        if (this.closed || !transient || backoff.failure()) throw e;
        await delay(backoff.retryDelayMillis, this.stop.signal);
      }
    }
  }

  private updates: Promise<void> = Promise.resolve();

  /**
   * Follows the task until it is done; `onChange` sees each new info. Rejects with the task's
   * failure, or REMOTE_HOST_GONE when its node stops answering.
   */
  async follow(onChange: (info: RemoteTaskInfo) => void): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    const backoff = new Backoff({ minFailures: 3, maxErrorDurationMillis: 5000 });
    while (!this.closed && !this.done) {
      try {
        const response = await this.channel.info(this.taskId, { version: this.version, maxWait: POLL_WAIT }, this.signal());
        const text = response.text;
        if (response.status === 404) throw new EngineError('REMOTE_TASK_ERROR', `Task ${this.taskId} is no longer known to node ${this.node.nodeId}`);
        if (response.status !== 200) throw new Error(`status ${response.status}`);
        this.accept(text);
        backoff.success();
        onChange(this.info!);
      } catch (e) {
        if (this.closed) return;
        if (e instanceof EngineError) throw e;
        if (backoff.failure()) throw this.hostGone(e);
        await delay(backoff.retryDelayMillis, this.stop.signal);
      }
    }
    const failure = this.info?.state === 'FAILED' ? this.info.failures[0] : undefined;
    if (failure !== undefined) throw remoteError(failure, this.node.nodeId);
  }

  /** The task's own failure, asked for once now (an exchange saw only that the task failed); undefined if it did not fail. */
  async failure(): Promise<EngineError | undefined> {
    if (!this.done) {
      try {
        const response = await this.channel.info(this.taskId, {}, AbortSignal.timeout(5000));
        if (response.status === 200) this.accept(response.text);
      } catch {
        return undefined;
      }
    }
    const failure = this.info?.state === 'FAILED' ? this.info.failures[0] : undefined;
    return failure === undefined ? undefined : remoteError(failure, this.node.nodeId);
  }

  /** DELETE: abort drops its buffered output (failure); cancel lets it be read (early end, e.g. LIMIT). */
  async cancel(abort: boolean): Promise<void> {
    this.closed = true;
    this.stop.abort();
    if (this.done) return;
    try {
      const response = await this.channel.cancel(this.taskId, abort, AbortSignal.timeout(5000));
      if (response.status === 200) this.accept(response.text);
    } catch {
      // The node is gone: nothing left to cancel there.
    }
  }

  private hostGone(e: unknown): EngineError {
    const cause = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e);
    return new EngineError('REMOTE_HOST_GONE', `Could not communicate with the remote task. The node may have crashed or be under too much load. Node ${this.node.nodeId} (${this.node.uri}): ${cause}`);
  }

  private accept(text: string): void {
    this.info = JSON.parse(text) as RemoteTaskInfo;
    this.version = /"version":(\d+)/.exec(text)?.[1];
  }

  private signal(): AbortSignal {
    return AbortSignal.any([this.stop.signal, AbortSignal.timeout(15_000)]);
  }
}

/** A task could not be created because the node's port refused the connection: nothing of it started there. */
export class NodeGoneError extends EngineError {
  constructor(
    readonly nodeId: string,
    message: string,
  ) {
    super('REMOTE_HOST_GONE', message);
  }
}

/** A task request the node answered with an error status. */
class TaskRequestError extends EngineError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super('REMOTE_TASK_ERROR', message);
  }
}

function errorMessage(text: string): string {
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text.slice(0, 500);
  } catch {
    return text.slice(0, 500);
  }
}

/** A task's failure as the query's error: the same error name, the message naming the node. */
function remoteError(failure: { message: string; errorCode?: { name: string } }, nodeId: string): EngineError {
  const name = failure.errorCode?.name;
  const known = name !== undefined && name in ERROR_CODES;
  return new EngineError(known ? (name as ErrorName) : 'REMOTE_TASK_ERROR', known ? failure.message : `Remote task on node ${nodeId} failed: ${failure.message}`);
}

function delay(millis: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, millis);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
