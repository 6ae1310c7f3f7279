// Reads the pages of remote output buffers (endpoint 8) and hands them to one consumer as an async
// iterator. Each source (one remote task's buffer) has at most one request in flight, since the token of
// its next request comes in the answer to the current one; sources are fetched concurrently, up to
// `maxConcurrentRequests`, and only while the local buffer has room for what the requests in flight are
// expected to bring (averageBytesPerRequest), so a consumer that stops reading stops the fetching and,
// through the remote buffers' bounds, the producers. Asking for the next token acknowledges the pages
// received; a complete buffer is released with DELETE (endpoint 9). Responses are small (1 MB by
// default) and a source's next request goes out as soon as a response's body is in, while that body is
// decoded page by page, in order, giving the event loop a turn between pages (a large body is decoded
// on one of the node's threads, stream-decoding.ts). Connection errors,
// time-outs, 404 (a task not created yet) and 5xx are retried with backoff; a source that keeps failing
// fails the client with REMOTE_HOST_GONE naming the node.
//
// A source on this very node (`local`) is read the same way, token by token, straight from its task's
// output buffer: the pages themselves, with no HTTP and no Arrow encoding — the in-process exchange of
// a single node, and between two tasks of one worker.

import { httpRequest, type HttpAnswer } from '../internode/http-request.js';
import { EngineError, toEngineError } from '../errors/engine-error.js';
import { yieldIfDue } from '../columnar/cooperative.js';
import type { OperatorRecorder } from '../exec/stats/operator-recorder.js';
import { ARROW_STREAM_MEDIA_TYPE, readPageStream } from '../exec/exchange/page-codec.js';
import { MemoryReservation } from '../exec/operators/operator-support.js';
import { pageSizeInBytes, type Page } from '../columnar/page.js';
import { exchangeBytes } from './exchange-counters.js';
import { ProtocolError } from '../internode/protocol-error.js';
import { readResultsPage, resultsRequestHeaders, type ResultsPage } from '../internode/task-headers.js';
import { Backoff, requestTimeoutMillis } from './exchange-backoff.js';
import { withDeadline } from './request-deadline.js';
import type { OutputBuffer } from './output-buffer.js';
import { decodeStreamInThread } from '../exec/threads/stream-decoding.js';
import { sharedThreadPool, type ThreadPool } from '../exec/threads/thread-pool.js';

export interface ExchangeLocation {
  /** The buffer's results address: `http://host:port/v1/task/{taskId}/results/{outputId}`. */
  uri: string;
  /** The node the task runs on, for error messages (default: the address's host:port). */
  nodeId?: string;
}

export interface ExchangeClientOptions {
  /** Bound on the pages held for the consumer (default 32 MB). */
  maxBufferedBytes?: number;
  /** Most bytes one response may carry (X-Engine-Max-Size, default 1 MB; at least one page comes). */
  maxResponseBytes?: number;
  /** How long the remote side may hold a request while it has no pages (X-Engine-Max-Wait, default 1 s). */
  maxWaitMillis?: number;
  /** Requests in flight across all sources (default 8). */
  maxConcurrentRequests?: number;
  /**
   * A source is given up after at least `minFailures` consecutive failures over `maxErrorDurationMillis`
   * (defaults 5 and 5 s; a server passes query.remoteTaskMaxErrorDuration).
   */
  minFailures?: number;
  maxErrorDurationMillis?: number;
  /** A request that has not answered after this long counts as failed (default: requestTimeoutMillis of the max wait and max error duration). */
  requestTimeoutMillis?: number;
  /** Headers every request carries (GET and DELETE), asked for each request: the node's internal bearer token. */
  headers?: () => Readonly<Record<string, string>>;
  /** This node's tasks, read in process when a location names this node. */
  local?: LocalTaskOutputs;
  /**
   * The consumer gets the end of its input once every buffer said it is complete, while their
   * releases (DELETE) still go out, rather than a round trip later (default false). A task's input is
   * read so: the release only ends the producer, nobody above waits for it. The coordinator's own
   * reader keeps waiting, so that the tasks it reads from have ended (FINISHED) before the query,
   * once over, cancels whichever of its tasks it has not seen end.
   */
  endBeforeRelease?: boolean;
  /** Response bodies of at least `minBodyBytes` are decoded on a thread of `pool` (default: the node's), not on the event loop. */
  threadDecoding?: ThreadDecoding;
}

export interface ThreadDecoding {
  minBodyBytes: number;
  pool?: ThreadPool;
}

/** The output buffers of the tasks this node holds. */
export interface LocalTaskOutputs {
  readonly nodeId: string;
  outputBuffer(taskId: string): OutputBuffer | undefined;
  /** The same, waiting up to `maxWaitMillis` for a task not created yet (task-manager.ts). */
  awaitOutputBuffer(taskId: string, maxWaitMillis: number, signal: AbortSignal): Promise<OutputBuffer | undefined>;
}

/** The task and output buffer a results address names. */
function resultsTarget(uri: string): { taskId: string; bufferId: string } | undefined {
  const match = /\/v1\/task\/([^/]+)\/results\/([^/]+)$/.exec(new URL(uri).pathname);
  return match === null ? undefined : { taskId: decodeURIComponent(match[1]), bufferId: decodeURIComponent(match[2]) };
}

/** The exchange operator's info (INTERFACE.md, operator info). */
export interface ExchangeClientStatus {
  bufferedBytes: number;
  averageBytesPerRequest: number;
  bufferedPages: number;
  pageBufferClientStatuses: PageBufferClientStatus[];
}

export interface PageBufferClientStatus {
  uri: string;
  state: SourceState;
  lastUpdate: string;
  pagesReceived: number;
  requestsScheduled: number;
  requestsCompleted: number;
  httpRequestState: 'queued' | 'running';
}

/** queued: waits for room; scheduled: waits out a retry delay; running: request in flight; completed: buffer complete, DELETE pending. */
type SourceState = 'queued' | 'scheduled' | 'running' | 'completed' | 'closed';

/** Small responses keep the decoding of each short and let a source's requests follow each other closely. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

const WORKER_NODE_ERROR = 'Could not communicate with the remote task. The node may have crashed or be under too much load.';

class Source {
  token = 0;
  instanceId: string | undefined;
  state: SourceState = 'queued';
  lastUpdate = new Date();
  pagesReceived = 0;
  requestsScheduled = 0;
  requestsCompleted = 0;
  request: AbortController | undefined;
  /** The decoding of the bodies received so far; the next body is decoded after it, keeping page order. */
  decoded: Promise<void> = Promise.resolve();

  /** Set for a source on this node: its buffer is read in process. */
  readonly local: { taskId: string; bufferId: string } | undefined;

  constructor(
    readonly location: ExchangeLocation,
    readonly backoff: Backoff,
    localNodeId: string | undefined,
  ) {
    this.local = localNodeId !== undefined && location.nodeId === localNodeId ? resultsTarget(location.uri) : undefined;
  }

  get node(): string {
    return this.location.nodeId ?? new URL(this.location.uri).host;
  }

  setState(state: SourceState): void {
    this.state = state;
    this.lastUpdate = new Date();
  }
}

interface BufferedPage {
  page: Page;
  bytes: number;
}

export class ExchangeClient implements AsyncIterableIterator<Page> {
  private readonly options: Required<Omit<ExchangeClientOptions, 'local' | 'threadDecoding'>>;
  private readonly threadDecoding: ThreadDecoding | undefined;
  private readonly local: LocalTaskOutputs | undefined;
  private readonly sources: Source[] = [];
  /** Pages for the consumer from `queueHead` on; a taken page's slot is cleared so that it can be collected. */
  private readonly queue: (BufferedPage | undefined)[] = [];
  private queueHead = 0;
  private bytesBuffered = 0;
  /** Bytes of response bodies received but not decoded yet, and how many such bodies there are. */
  private bodyBytesPending = 0;
  private bodiesPending = 0;
  private noMoreLocations = false;
  private closed = false;
  private failure: EngineError | undefined;
  private inFlight = 0;
  private responseBytes = 0;
  private successfulRequests = 0;
  private nextSourceIndex = 0;
  private wakeConsumer: (() => void) | undefined;
  /** What the client holds (pages and bodies not decoded yet), counted in the exchange operator's memory. */
  private readonly held: MemoryReservation | undefined;

  /** `stats`: the exchange operator's, which counts the consumer's waits for pages and the CPU of decoding them. */
  constructor(
    options: ExchangeClientOptions = {},
    private readonly stats?: OperatorRecorder,
  ) {
    const maxWaitMillis = options.maxWaitMillis ?? 1000;
    const maxErrorDurationMillis = options.maxErrorDurationMillis ?? 5000;
    this.options = {
      maxBufferedBytes: options.maxBufferedBytes ?? 32 * 1024 * 1024,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      maxWaitMillis,
      maxConcurrentRequests: options.maxConcurrentRequests ?? 8,
      minFailures: options.minFailures ?? 5,
      maxErrorDurationMillis,
      requestTimeoutMillis: options.requestTimeoutMillis ?? requestTimeoutMillis(maxWaitMillis, maxErrorDurationMillis),
      headers: options.headers ?? (() => ({})),
      endBeforeRelease: options.endBeforeRelease ?? false,
    };
    this.local = options.local;
    this.threadDecoding = options.threadDecoding;
    this.held = stats === undefined ? undefined : new MemoryReservation(stats.memory);
  }

  addLocation(location: ExchangeLocation): void {
    // A location already known comes again when the coordinator repeats a task update whose answer
    // it did not get (a retry after a timeout under load): that repeat is not an error.
    if (this.sources.some((s) => s.location.uri === location.uri)) return;
    if (this.noMoreLocations) throw new EngineError('GENERIC_INTERNAL_ERROR', `Location ${location.uri} added after no-more-locations`);
    const { minFailures, maxErrorDurationMillis } = this.options;
    this.sources.push(new Source(location, new Backoff({ minFailures, maxErrorDurationMillis }), this.local?.nodeId));
    this.schedule();
  }

  setNoMoreLocations(): void {
    this.noMoreLocations = true;
    this.wake();
  }

  status(): ExchangeClientStatus {
    return {
      bufferedBytes: this.bytesBuffered,
      averageBytesPerRequest: this.averageBytesPerRequest(),
      bufferedPages: this.queue.length - this.queueHead,
      pageBufferClientStatuses: this.sources.map((s) => ({
        uri: s.location.uri,
        state: s.state,
        lastUpdate: s.lastUpdate.toISOString(),
        pagesReceived: s.pagesReceived,
        requestsScheduled: s.requestsScheduled,
        requestsCompleted: s.requestsCompleted,
        httpRequestState: s.request === undefined ? 'queued' : 'running',
      })),
    };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Page> {
    return this;
  }

  async next(): Promise<IteratorResult<Page>> {
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      if (this.queueHead < this.queue.length) return { done: false, value: this.take() };
      if (this.closed || this.isFinished()) return { done: true, value: undefined };
      const woken = new Promise<void>((resolve) => (this.wakeConsumer = resolve));
      await (this.stats?.blockedOn(woken) ?? woken);
    }
  }

  async return(): Promise<IteratorResult<Page>> {
    this.close();
    return { done: true, value: undefined };
  }

  /**
   * The consumer's query or task ended (cancel, failure): a consumer waiting for pages gets `error`
   * at once (not the end of its input, which would let an aggregation above it emit partial rows).
   */
  abort(error: EngineError): void {
    if (this.failure === undefined) this.fail(error);
    this.close();
  }

  /** Stops fetching and releases the remote buffers not yet released (best effort). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.sources) {
      s.request?.abort();
      if (s.state !== 'closed') {
        s.setState('closed');
        if (s.local !== undefined) this.destroyLocal(s.local);
        else
          httpRequest(s.location.uri, {
            method: 'DELETE',
            headers: this.options.headers(),
            signal: AbortSignal.timeout(this.options.requestTimeoutMillis),
          })
            .then((response) => response.bytes())
            .catch(() => undefined);
      }
    }
    this.queue.length = 0;
    this.queueHead = 0;
    this.bytesBuffered = 0;
    this.held?.release();
    this.wake();
  }

  private isFinished(): boolean {
    const ended = (s: Source) => s.state === 'closed' || (s.state === 'completed' && this.options.endBeforeRelease);
    return this.noMoreLocations && this.bodiesPending === 0 && this.sources.every(ended);
  }

  private take(): Page {
    const { page, bytes } = this.queue[this.queueHead]!;
    this.queue[this.queueHead++] = undefined;
    if (this.queueHead === this.queue.length) {
      this.queue.length = 0;
      this.queueHead = 0;
    } else if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
    this.bytesBuffered -= bytes;
    this.countHeld();
    this.schedule();
    return page;
  }

  private averageBytesPerRequest(): number {
    return this.successfulRequests === 0 ? 0 : Math.round(this.responseBytes / this.successfulRequests);
  }

  /** Starts what may start: DELETEs of complete sources always, fetches while there is room. */
  private schedule(): void {
    if (this.closed || this.failure !== undefined) return;
    const count = this.sources.length;
    for (let i = 0; i < count; i++) {
      const source = this.sources[(this.nextSourceIndex + i) % count];
      if (source.request !== undefined || source.state === 'scheduled' || source.state === 'closed') continue;
      if (source.state === 'completed') {
        this.start(source, () => this.release(source));
        continue;
      }
      if (!this.hasRoom()) break;
      this.nextSourceIndex = (this.nextSourceIndex + i + 1) % count;
      this.start(source, () => this.fetchPages(source));
    }
  }

  private hasRoom(): boolean {
    if (this.inFlight >= this.options.maxConcurrentRequests) return false;
    if (this.bytesBuffered === 0 && this.bodyBytesPending === 0 && this.inFlight === 0) return true;
    const held = this.bytesBuffered + this.bodyBytesPending;
    return held + (this.inFlight + 1) * this.averageBytesPerRequest() < this.options.maxBufferedBytes;
  }

  /** Runs one request of `source` after its retry delay; a failure is retried or fails the client. */
  private start(source: Source, request: () => Promise<void>): void {
    const controller = new AbortController();
    source.request = controller;
    source.requestsScheduled++;
    this.inFlight++;
    const delay = source.backoff.retryDelayMillis;
    if (delay > 0 && source.state !== 'completed') source.setState('scheduled');
    const run = async (): Promise<void> => {
      if (delay > 0) await sleep(delay, controller.signal);
      if (controller.signal.aborted) return;
      if (source.state !== 'completed') source.setState('running');
      await request();
      source.backoff.success();
    };
    run()
      .catch((e: unknown) => this.handleFailure(source, e))
      .finally(() => {
        source.request = undefined;
        source.requestsCompleted++;
        this.inFlight--;
        if (source.state === 'running' || source.state === 'scheduled') source.setState('queued');
        this.schedule();
        this.wake();
      });
  }

  private async fetchPages(source: Source): Promise<void> {
    if (source.local !== undefined) return this.readLocal(source, source.local);
    return this.withRequestDeadline(source, (signal) => this.fetchRemotePages(source, signal));
  }

  private async fetchRemotePages(source: Source, signal: AbortSignal): Promise<void> {
    const uri = `${source.location.uri}/${source.token}`;
    const response = await httpRequest(uri, {
      headers: {
        ...this.options.headers(),
        ...resultsRequestHeaders({ maxBytes: this.options.maxResponseBytes, maxWaitMillis: this.options.maxWaitMillis }),
      },
      signal,
    });
    if (response.status !== 200 && response.status !== 204) {
      const body = await response.text().catch(() => '');
      throw new HttpStatusError(
        response.status,
        `Expected response code 200 or 204 from ${uri}, but was ${response.status}: ${body.slice(0, 1000)}`,
      );
    }
    // The body is read whole first, whatever the headers say: an answer left unread would hold its connection.
    const body = await response.bytes();
    const { token, nextToken, complete, taskInstanceId, taskFailed } = pageHeaders(response, uri);
    this.checkTask(source, uri, taskInstanceId, taskFailed);
    // An answer to a token other than ours (a retried request that crossed another) carries nothing new.
    const current = token === source.token;
    let bodyBytes = 0;
    if (response.status === 200) {
      const contentType = response.header('content-type') ?? '';
      if (!contentType.startsWith(ARROW_STREAM_MEDIA_TYPE))
        throw new EngineError(
          'PAGE_TRANSPORT_ERROR',
          `Expected ${ARROW_STREAM_MEDIA_TYPE} from ${uri} but got ${contentType || 'no Content-Type'}`,
        );
      bodyBytes = body.byteLength;
      if (current && !this.closed) {
        this.decodeInOrder(source, body, nextToken - token, uri);
        source.token = nextToken;
      }
    }
    this.responseBytes += bodyBytes;
    exchangeBytes.received += bodyBytes;
    this.successfulRequests++;
    // Complete: no page after those of this answer (if any) will come.
    if (complete && current) source.setState('completed');
  }

  /** An answer from a task that failed, or from another run of it than the one read so far, fails the client. */
  private checkTask(source: Source, uri: string, instanceId: string, failed: boolean): void {
    if (failed) throw new EngineError('REMOTE_TASK_ERROR', `Remote task failed or was cancelled: ${uri} (node ${source.node})`);
    if (source.instanceId !== undefined && source.instanceId !== instanceId) {
      throw new EngineError(
        'REMOTE_TASK_MISMATCH',
        `Could not communicate with the remote task: the task at ${uri} was restarted (instance ${source.instanceId}, now ${instanceId})`,
      );
    }
    source.instanceId = instanceId;
  }

  /** fetchPages for a task of this node: the same exchange of tokens, with the buffer's pages as they are. */
  private async readLocal(source: Source, target: { taskId: string; bufferId: string }): Promise<void> {
    const uri = `${source.location.uri}/${source.token}`;
    const asked = Date.now();
    const buffer = await this.local!.awaitOutputBuffer(target.taskId, this.options.maxWaitMillis, source.request!.signal);
    // As over HTTP: a task still not created after the wait (404) is retried, a bad request is not.
    if (buffer === undefined) throw new HttpStatusError(404, `Task ${target.taskId} not found on this node`);
    const remaining = Math.max(0, this.options.maxWaitMillis - (Date.now() - asked));
    let result;
    try {
      result = await buffer.get(target.bufferId, source.token, this.options.maxResponseBytes, remaining, source.request!.signal);
    } catch (e) {
      if (e instanceof EngineError && (e.errorName === 'NOT_FOUND' || e.errorName === 'GENERIC_USER_ERROR'))
        throw new HttpStatusError(e.errorName === 'NOT_FOUND' ? 404 : 400, e.message);
      throw e;
    }
    this.checkTask(source, uri, buffer.instanceId, result.aborted);
    const current = result.token === source.token;
    if (current && !this.closed && result.pages.length > 0) {
      for (const output of result.pages) {
        this.accept(output.page, output.bytes);
        this.responseBytes += output.bytes;
      }
      source.pagesReceived += result.pages.length;
      source.token = result.nextToken;
    }
    this.successfulRequests++;
    if (result.complete && current) source.setState('completed');
  }

  private destroyLocal(target: { taskId: string; bufferId: string }): void {
    try {
      this.local!.outputBuffer(target.taskId)?.destroy(target.bufferId);
    } catch {
      // An unknown buffer id: nothing to release.
    }
  }

  /** Releases a complete buffer; a buffer already gone (404) is as good as released. */
  private async release(source: Source): Promise<void> {
    if (source.local !== undefined) {
      this.destroyLocal(source.local);
      source.setState('closed');
      return;
    }
    const status = await this.withRequestDeadline(source, async (signal) => {
      const response = await httpRequest(source.location.uri, { method: 'DELETE', headers: this.options.headers(), signal });
      await response.bytes().catch(() => undefined);
      return response.status;
    });
    if (status >= 300 && status !== 404) throw new HttpStatusError(status, `Releasing ${source.location.uri} answered ${status}`);
    source.setState('closed');
  }

  /** A request of `source`, ended when the source's request is aborted or after the request timeout, its body read included. */
  private withRequestDeadline<T>(source: Source, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return withDeadline([source.request!.signal], this.options.requestTimeoutMillis, request);
  }

  /**
   * Decodes `body` after the bodies `source` received before it; a malformed body fails the client.
   * A large body is decoded on a thread at once, while earlier ones are still being taken in.
   */
  private decodeInOrder(source: Source, body: Uint8Array, expectedPages: number, uri: string): void {
    const bytes = body.byteLength;
    const decoding = this.startDecoding(body);
    this.bodyBytesPending += bytes;
    this.bodiesPending++;
    this.countHeld();
    source.decoded = source.decoded
      .then(() => decoding)
      .then((pages) => this.decode(source, pages, expectedPages, uri))
      .catch((e: unknown) => {
        if (!this.closed && this.failure === undefined) this.fail(toEngineError(e));
      })
      .finally(() => {
        this.bodyBytesPending -= bytes;
        this.bodiesPending--;
        this.countHeld();
        this.schedule();
        this.wake();
      });
  }

  /** The pages of `body`: decoded one at a time as they are taken, or all on a thread for a large body. */
  private startDecoding(body: Uint8Array): Promise<Iterator<Page>> {
    const threads = this.threadDecoding;
    if (threads === undefined || body.byteLength < threads.minBodyBytes) return Promise.resolve(readPageStream(body).pages); // a bad schema fails this request at once
    const decoded = decodeStreamInThread(threads.pool ?? sharedThreadPool(), body).then(({ pages, cpuMillis }) => {
      this.stats?.addBackgroundCpu(cpuMillis);
      return pages.values();
    });
    // Its failure is the client's once the bodies before it are in; it must not go unhandled meanwhile.
    decoded.catch(() => undefined);
    return decoded;
  }

  private async decode(source: Source, pages: Iterator<Page>, expectedPages: number, uri: string): Promise<void> {
    let count = 0;
    for (;;) {
      if (this.closed || this.failure !== undefined) return;
      const started = performance.now();
      const next = pages.next();
      this.stats?.addBackgroundCpu(performance.now() - started);
      if (next.done === true) break;
      this.accept(next.value);
      source.pagesReceived++;
      count++;
      this.wake();
      await yieldIfDue();
    }
    if (count !== expectedPages)
      throw new EngineError('PAGE_TRANSPORT_ERROR', `Response from ${uri} holds ${count} pages but announces ${expectedPages}`);
  }

  /** `bytes`: the page's size when the producer measured it already (a page read in process). */
  private accept(page: Page, bytes = pageSizeInBytes(page)): void {
    this.queue.push({ page, bytes });
    this.bytesBuffered += bytes;
    this.countHeld();
  }

  /** Brings the memory reservation to what the client holds; over the query's or the node's limit the client fails. */
  private countHeld(): void {
    if (this.closed) return;
    try {
      this.held?.set(this.bytesBuffered + this.bodyBytesPending);
    } catch (e) {
      if (this.failure === undefined) this.fail(toEngineError(e));
    }
  }

  private handleFailure(source: Source, e: unknown): void {
    if (this.closed || this.failure !== undefined) return;
    if (!isTransient(e)) {
      this.fail(toEngineError(e));
      return;
    }
    if (source.backoff.failure()) {
      const cause = e instanceof Error ? describeCause(e) : String(e);
      const seconds = (source.backoff.failureDurationMillis / 1000).toFixed(2);
      this.fail(
        new EngineError(
          'REMOTE_HOST_GONE',
          `${WORKER_NODE_ERROR} (node ${source.node}: ${source.location.uri} - ${source.backoff.failureCount} failures, failure duration ${seconds}s, last error: ${cause})`,
        ),
      );
    }
  }

  private fail(error: EngineError): void {
    this.failure = error;
    for (const s of this.sources) s.request?.abort();
    this.wake();
  }

  private wake(): void {
    const wake = this.wakeConsumer;
    this.wakeConsumer = undefined;
    wake?.();
  }
}

class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Worth retrying: the network, a time-out, a node that is overloaded or restarting, a task not created yet. */
function isTransient(e: unknown): boolean {
  if (e instanceof HttpStatusError) return e.status >= 500 || e.status === 404 || e.status === 408 || e.status === 429;
  if (e instanceof EngineError) return false;
  // A request fails with a TypeError for connection errors and a truncated body (http-request.ts); time-outs are DOMExceptions.
  return e instanceof TypeError || (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError'));
}

function describeCause(e: Error): string {
  const cause = (e as { cause?: unknown }).cause;
  if (cause instanceof Error) return `${e.message}: ${(cause as { code?: string }).code ?? cause.message}`;
  return e.message;
}

/** The answer's figures; headers that are missing or malformed fail the exchange. */
function pageHeaders(response: HttpAnswer, uri: string): ResultsPage {
  try {
    return readResultsPage((name) => response.header(name), uri);
  } catch (e) {
    if (e instanceof ProtocolError) throw new EngineError('PAGE_TRANSPORT_ERROR', e.message);
    throw e;
  }
}

function sleep(millis: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, millis);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** What reads a remote source for a task: an ExchangeClient, or a MergingExchangeClient for a merging one. */
export interface RemoteSourceClient {
  addLocation(location: ExchangeLocation): void;
  setNoMoreLocations(): void;
  status(): ExchangeClientStatus;
  abort(error: EngineError): void;
  close(): void;
}

/** Makes `client` fail with `error()` once `signal` aborts (its query or task ended early). */
export function abortOnSignal(client: Pick<RemoteSourceClient, 'abort'>, signal: AbortSignal, error: () => EngineError): void {
  if (signal.aborted) client.abort(error());
  else signal.addEventListener('abort', () => client.abort(error()), { once: true });
}
