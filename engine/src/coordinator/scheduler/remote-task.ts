// The coordinator's handle on one task of a query on some node: creates it (POST), follows its
// state by long-polling its info (GET with the version it has seen), and cancels or aborts it
// (DELETE); a task that failed reports its error. Its node is reported gone (REMOTE_HOST_GONE, naming
// it) as soon as the health checks declare it gone (`nodeGone`), or once its requests have failed for
// the max error duration (query.remoteTaskMaxErrorDuration), retried with backoff until then; every
// request has a deadline, so a node that answers nothing (stopped, frozen) cannot hold a query.
// Updates of a created task (more splits) are sent again after a connection error or a 5xx: the
// task takes each split's sequence id once, so a repeat of an update that did arrive adds nothing.
// The remote dynamic filters' domains a task publishes come with the long poll's answer that shows
// them published (the poll names the version seen); an info that shows a version past those seen
// without them (an update's answer, a node that does not send them) has them fetched, once each
// (watchDynamicFilters).

import { EngineError } from '../../errors/engine-error.js';
import { ERROR_CODES, type ErrorName } from '../../errors/error-codes.js';
import { Backoff, requestTimeoutMillis } from '../../worker/exchange-backoff.js';
import { withDeadline } from '../../worker/request-deadline.js';
import { isDoneState, type TaskFailure, type TaskInfo } from '../../internode/task-info.js';
import type { TaskUpdateRequest } from '../../internode/task-update-request.js';
import type { DynamicFilterDomain, VersionedDynamicFilterDomains } from '../../internode/dynamic-filter-domains.js';
import { ALWAYS_LIVE, type NodeLiveness } from '../remote-node.js';
import type { TaskAnswer, TaskChannel } from './task-channel.js';

export interface TaskNode {
  nodeId: string;
  uri: string;
  /** The worker threads it announced, which its tasks' physical plans are made for (undefined: this node's own). */
  workerThreads?: number;
}

export interface RemoteTaskOptions {
  /** query.remoteTaskMaxErrorDuration: how long the task's requests may keep failing. */
  maxErrorDurationMillis: number;
  /** The task's node as the health checks see it (default: a node never declared gone). */
  node?: NodeLiveness;
}

export type { InternalHeaders } from './task-channel.js';

const POLL_WAIT_MILLIS = 1000;
/** Fetches of a task's dynamic filter domains that may fail before the coordinator goes without them, and the pause between. */
const MAX_DOMAIN_FETCH_RETRIES = 3;
const DOMAIN_FETCH_RETRY_MILLIS = 200;
/** A single request whose answer the query does not depend on (a cancel, a last look at a failure). */
const SHORT_REQUEST_MILLIS = 5000;

export class RemoteTask {
  info: TaskInfo | undefined;
  private polling = false;
  private closed = false;
  /** The task's requests failed for the max error duration: its node does not answer. */
  private gaveUp = false;
  private readonly stop = new AbortController();
  private readonly liveness: NodeLiveness;
  /** The node's gone signal when the task was made (a node that answers again gets a new one, for new tasks). */
  private readonly nodeGone: AbortSignal;
  private readonly maxErrorDurationMillis: number;
  /** A request that has not answered after this long counts as failed. */
  private readonly requestTimeoutMillis: number;
  /** Sees the domains the task publishes (watchDynamicFilters). */
  private onDomains: ((domains: DynamicFilterDomain[]) => void) | undefined;
  /** The dynamic filters version whose domains `onDomains` has seen. */
  private domainsVersion = 0;
  private fetchingDomains = false;
  private failedDomainFetches = 0;

  constructor(
    readonly taskId: string,
    readonly node: TaskNode,
    private readonly channel: TaskChannel,
    options: RemoteTaskOptions,
  ) {
    this.liveness = options.node ?? ALWAYS_LIVE;
    this.nodeGone = this.liveness.gone;
    this.maxErrorDurationMillis = options.maxErrorDurationMillis;
    this.requestTimeoutMillis = requestTimeoutMillis(POLL_WAIT_MILLIS, options.maxErrorDurationMillis);
  }

  get uri(): string {
    return `${this.node.uri}/v1/task/${this.taskId}`;
  }

  /** The address of one of the task's output buffers, for the exchange clients that read it. */
  resultsUri(bufferId: number): string {
    return `${this.uri}/results/${bufferId}`;
  }

  get done(): boolean {
    return this.info !== undefined && isDoneState(this.info.state);
  }

  /** Whether the task's node is declared gone, or stopped answering the task's requests: nothing sent to it now is answered soon. */
  get unreachable(): boolean {
    return this.gaveUp || this.nodeGone.aborted;
  }

  /**
   * POST: creates (or updates) the task; a node that refuses (not ACTIVE) throws SERVER_SHUTTING_DOWN,
   * one whose port refuses the connection (its process is gone) or that the health checks declared
   * gone meanwhile NodeGoneError, one that does not answer REMOTE_HOST_GONE.
   */
  async update(request: TaskUpdateRequest): Promise<void> {
    let response: TaskAnswer;
    try {
      response = await this.request((signal) => this.channel.update(this.taskId, request, signal));
    } catch (e) {
      // The node answered, with what the protocol does not allow (internode/): no retry mends that.
      if (this.closed || (e instanceof EngineError && e.errorName === 'REMOTE_TASK_ERROR')) throw e;
      if (this.nodeGone.aborted) throw new NodeGoneError(this.node.nodeId, (this.nodeGone.reason as Error).message);
      const code = (e as { cause?: { code?: unknown } }).cause?.code;
      const message = `Could not send task ${this.taskId} to node ${this.node.nodeId} (${this.node.uri}): ${typeof code === 'string' ? code : (e as Error).message}`;
      if (code === 'ECONNREFUSED') throw new NodeGoneError(this.node.nodeId, `${message}: the node is gone`);
      throw new EngineError('REMOTE_HOST_GONE', `${message}. The node may have crashed or be under too much load.`);
    }
    if (response.status === 503)
      throw new EngineError('SERVER_SHUTTING_DOWN', `Node ${this.node.nodeId} refused task ${this.taskId}: ${response.message}`);
    if (response.info === undefined)
      throw new TaskRequestError(
        response.status,
        `${request.fragment === undefined ? 'Updating' : 'Creating'} task ${this.taskId} on node ${this.node.nodeId} failed with ${response.status}: ${response.message}`,
      );
    this.take(response.info);
  }

  /**
   * Creates the task (the request with its fragment), again after a transient failure such as a
   * connection reset: a repeated creation adds nothing (the node keeps the first fragment and takes
   * each split once). Updates sent meanwhile wait for it: one that reached the node before the task
   * existed there would be refused, failing the query.
   */
  create(request: TaskUpdateRequest): Promise<void> {
    const created = this.updates
      .then(() => this.updateRetrying(request))
      .catch((e: unknown) => {
        this.notCreated = true;
        throw e;
      });
    this.updates = created.catch(() => undefined);
    this.creation = this.updates;
    return created;
  }

  /**
   * Sends an update that adds no splits or locations (remote dynamic filters' domains) once the task
   * is created, without waiting for the updates sent before it: the node takes it the same in any
   * order, and a split update it is slow to answer must not hold back the filters the task's scans
   * wait for (seen at 58-460 ms under load). Retried as send's are.
   */
  sendUnordered(request: TaskUpdateRequest): Promise<void> {
    if (request.sources.length > 0 || request.remoteSources.length > 0)
      throw new EngineError('GENERIC_INTERNAL_ERROR', `An update of task ${this.taskId} with splits or locations must keep its order`);
    return this.creation.then(() => (this.closed || this.notCreated ? undefined : this.updateRetrying(request)));
  }

  /**
   * Sends an update after the creation and the updates sent before it (updates to one task never
   * overtake each other), again after a transient failure, until the node counts as gone.
   */
  send(request: TaskUpdateRequest): Promise<void> {
    const sent = this.updates.then(() => (this.closed || this.notCreated ? undefined : this.updateRetrying(request)));
    this.updates = sent.catch(() => undefined);
    return sent;
  }

  private async updateRetrying(request: TaskUpdateRequest): Promise<void> {
    const backoff = this.backoff();
    for (;;) {
      try {
        return await this.update(request);
      } catch (e) {
        // A node whose port refuses connections is gone (its process ended): sending again mends nothing.
        const transient =
          (e instanceof EngineError && e.errorName === 'REMOTE_HOST_GONE' && !(e instanceof NodeGoneError)) ||
          (e instanceof TaskRequestError && e.status >= 500 && e.status !== 503);
        if (this.closed || this.nodeGone.aborted || !transient) throw e;
        if (backoff.failure()) {
          this.gaveUp = true;
          throw e;
        }
        await delay(backoff.retryDelayMillis, [this.stop.signal, this.nodeGone]);
      }
    }
  }

  private updates: Promise<void> = Promise.resolve();
  /** Settles once the task's creation did (sendUnordered waits for it alone). */
  private creation: Promise<void> = Promise.resolve();
  /** The task's creation failed: there is no task on the node to update. */
  private notCreated = false;

  /**
   * Follows the task until it is done; `onChange` sees each new info. Rejects with the task's
   * failure, or REMOTE_HOST_GONE when its node is declared gone or stops answering.
   */
  async follow(onChange: (info: TaskInfo) => void): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    const backoff = this.backoff();
    while (!this.closed && !this.done) {
      try {
        const response = await this.request((signal) =>
          this.channel.info(
            this.taskId,
            {
              version: this.info?.version,
              maxWaitMillis: POLL_WAIT_MILLIS,
              // The domains come with the info that shows them published: no fetch (a round trip to a busy node) needed.
              ...(this.onDomains === undefined ? {} : { dynamicFiltersSince: this.domainsVersion }),
            },
            signal,
          ),
        );
        if (response.status === 404)
          throw new EngineError('REMOTE_TASK_ERROR', `Task ${this.taskId} is no longer known to node ${this.node.nodeId}`);
        if (response.info === undefined) throw new Error(`status ${response.status}`);
        backoff.success();
        const kept = this.take(response.info);
        if (kept !== undefined) onChange(kept);
      } catch (e) {
        if (this.closed) return;
        if (this.nodeGone.aborted) throw this.nodeGone.reason;
        if (e instanceof EngineError) throw e;
        if (backoff.failure()) {
          this.gaveUp = true;
          throw this.hostGone(e, backoff);
        }
        await delay(backoff.retryDelayMillis, [this.stop.signal, this.nodeGone]);
      }
    }
    const failure = this.info?.state === 'FAILED' ? this.info.failures[0] : undefined;
    if (failure !== undefined) throw remoteError(failure, this.node.nodeId);
  }

  /**
   * `onDomains` sees the remote filters' domains the task publishes, each once: they are fetched when
   * an info, a poll's or an update's answer alike, shows a dynamic filters version past those seen.
   */
  watchDynamicFilters(onDomains: (domains: DynamicFilterDomain[]) => void): void {
    this.onDomains = onDomains;
    this.fetchDomains();
  }

  private fetchDomains(): void {
    if (this.onDomains === undefined || this.fetchingDomains || (this.info?.dynamicFiltersVersion ?? 0) <= this.domainsVersion) return;
    this.fetchingDomains = true;
    const since = this.domainsVersion;
    this.request((signal) => this.channel.dynamicFilters(this.taskId, since, signal))
      .then(
        (answer) => {
          this.fetchingDomains = false;
          this.failedDomainFetches = 0;
          this.takeDomains(since, answer);
          // Published more meanwhile.
          this.fetchDomains();
        },
        // A done task sends no more infos to ask again on: a few more tries, a moment apart. Filters are an
        // optimization: should all fail, the scans go on unfiltered after their wait.
        async () => {
          if (++this.failedDomainFetches <= MAX_DOMAIN_FETCH_RETRIES && !this.closed)
            await delay(DOMAIN_FETCH_RETRY_MILLIS, [this.stop.signal, this.nodeGone]);
          this.fetchingDomains = false;
          if (this.failedDomainFetches <= MAX_DOMAIN_FETCH_RETRIES && !this.closed) this.fetchDomains();
        },
      )
      .catch(() => undefined);
  }

  /** Domains published after the first `since` (a fetch's answer, or an info's): those not seen yet go to `onDomains`. */
  private takeDomains(since: number, answer: VersionedDynamicFilterDomains): void {
    if (this.onDomains === undefined || answer.version <= this.domainsVersion || since > this.domainsVersion) return;
    const unseen = answer.domains.slice(this.domainsVersion - since);
    this.domainsVersion = answer.version;
    if (unseen.length > 0) this.onDomains(unseen);
  }

  /** The task's own failure, asked for once now (an exchange saw only that the task failed); undefined if it did not fail. */
  async failure(): Promise<EngineError | undefined> {
    if (!this.done) {
      try {
        const response = await this.ask([this.nodeGone], SHORT_REQUEST_MILLIS, (signal) =>
          this.channel.info(this.taskId, { maxWaitMillis: 0 }, signal),
        );
        if (response.info !== undefined) this.take(response.info);
      } catch {
        return undefined;
      }
    }
    const failure = this.info?.state === 'FAILED' ? this.info.failures[0] : undefined;
    return failure === undefined ? undefined : remoteError(failure, this.node.nodeId);
  }

  /**
   * DELETE: abort drops its buffered output (failure); cancel lets it be read (early end, e.g. LIMIT).
   * `wait` false (by default for a node that does not answer): the request is sent but not waited for.
   * It reaches the node all the same: a stopped node reads it when it runs again (SIGCONT), even after
   * this side stopped waiting, and ends the task then.
   */
  async cancel(abort: boolean, wait = !this.unreachable): Promise<void> {
    this.closed = true;
    this.stop.abort();
    if (this.done) return;
    const sent = this.sendCancel(abort);
    if (wait) await sent;
  }

  private async sendCancel(abort: boolean): Promise<void> {
    try {
      const response = await this.ask([], SHORT_REQUEST_MILLIS, (signal) => this.channel.cancel(this.taskId, abort, signal));
      if (response.info !== undefined) this.take(response.info);
    } catch {
      // The node's process is gone (nothing left to cancel there), or it does not answer (it reads the request if it runs again).
    }
  }

  /**
   * Keeps `info` unless the task's info is newer already (answers of concurrent requests, say a poll
   * and a cancel, may arrive in either order); a done task's whole info (version the largest)
   * replaces a summarized one of the same version. The info kept, if it was. Domains it carries
   * are taken either way (each once), and the info kept goes without them.
   */
  private take(info: TaskInfo): TaskInfo | undefined {
    const { dynamicFilterDomains: carried, ...kept } = info;
    if (carried !== undefined) this.takeDomains(carried.version - carried.domains.length, carried);
    const current = this.info;
    if (
      current !== undefined &&
      (info.version < current.version || (info.version === current.version && info.stats.pipelines.length < current.stats.pipelines.length))
    )
      return undefined;
    this.info = kept;
    this.fetchDomains();
    return kept;
  }

  private hostGone(e: unknown, backoff: Backoff): EngineError {
    const cause = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e);
    const seconds = (backoff.failureDurationMillis / 1000).toFixed(1);
    return new EngineError(
      'REMOTE_HOST_GONE',
      `Could not communicate with the remote task. The node may have crashed or be under too much load. Node ${this.node.nodeId} (${this.node.uri}): ${backoff.failureCount} failed requests over ${seconds} s, the last: ${cause}`,
    );
  }

  /** When the task's requests give up: after failures over the max error duration. */
  private backoff(): Backoff {
    return new Backoff({ minFailures: 3, maxErrorDurationMillis: this.maxErrorDurationMillis });
  }

  /** A request that ends when the task is closed, when its node is declared gone, or after the request timeout. */
  private request<T>(send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.ask([this.stop.signal, this.nodeGone], this.requestTimeoutMillis, send);
  }

  /** A request to the node, ended by `signals` or after `timeoutMillis`; an answer tells the health checks the node runs. */
  private async ask<T>(signals: readonly AbortSignal[], timeoutMillis: number, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const answer = await withDeadline(signals, timeoutMillis, send);
    this.liveness.answered();
    return answer;
  }
}

/**
 * A task request failed because its node is gone: its port refused the connection (nothing of the task
 * started there), or the health checks declared it gone while the request waited (if the task started
 * there after all, the cancel that follows reaches it when the node answers again).
 */
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

/** A task's failure as the query's error: the same error name, the message naming the node. */
function remoteError(failure: TaskFailure, nodeId: string): EngineError {
  const name = failure.errorCode.name;
  const known = name in ERROR_CODES;
  return new EngineError(
    known ? (name as ErrorName) : 'REMOTE_TASK_ERROR',
    known ? failure.message : `Remote task on node ${nodeId} failed: ${failure.message}`,
  );
}

/** Waits `millis`, or less when one of `signals` aborts. */
function delay(millis: number, signals: readonly AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    if (signals.some((s) => s.aborted)) return resolve();
    const done = () => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, millis);
    for (const s of signals) s.addEventListener('abort', done, { once: true });
  });
}
