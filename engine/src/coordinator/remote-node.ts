// What a node knows about another node it talks to: its address, decaying request/failure counters,
// and the last failure — the entry GET /v1/node and /v1/node/failed report — when it last answered
// anything (a health check, a request of one of its tasks), and whether it has been declared gone:
// the tasks it holds then fail at once (NodeLiveness).

import { formatDuration } from '../config/duration.js';
import { EngineError } from '../errors/engine-error.js';
import { DecayCounter } from './decay-counter.js';

export interface FailureInfo {
  type: string;
  message: string;
  stack: string[];
  suppressed: FailureInfo[];
}

/** What the coordinator's health checks know of a node that holds tasks, and learn from those tasks. */
export interface NodeLiveness {
  /** Aborted, with REMOTE_HOST_GONE naming the node as its reason, once the health checks declare the node gone. */
  readonly gone: AbortSignal;
  /** A request of one of the node's tasks was answered: the node runs, however its health checks fare. */
  answered(): void;
}

/** A node never declared gone: this node, to itself. */
export const ALWAYS_LIVE: NodeLiveness = { gone: new AbortController().signal, answered: () => undefined };

export interface NodeEntry {
  uri: string;
  recentRequests: number;
  recentFailures: number;
  recentSuccesses: number;
  recentFailureRatio: number;
  recentFailuresByType: Record<string, number>;
  lastRequestTime: string;
  lastResponseTime: string;
  age: string;
  lastFailureInfo?: FailureInfo;
}

export class RemoteNode implements NodeLiveness {
  private readonly requests: DecayCounter;
  private readonly successes: DecayCounter;
  private readonly failures: DecayCounter;
  private readonly failuresByType = new Map<string, DecayCounter>();
  private readonly firstSeen: number;
  private lastRequest: number;
  private lastResponse: number;
  private lastFailure: FailureInfo | undefined;
  /** Health checks failed in a row. */
  private failedChecks = 0;
  /** Health checks started and failed since the node was first seen. */
  private checksStarted = 0;
  private checksFailed = 0;
  /** Epoch milliseconds of the node's last answer: to a health check, or to a request of one of its tasks. */
  private lastAnswer: number;
  /** Aborted once the node is declared gone; replaced when it answers a health check again. */
  private goneController = new AbortController();
  /** Whether the last health check of this node failed. */
  failedLastCheck = false;
  /** The node's own state (ACTIVE, ISOLATING, ...) as its last successful health check read it. */
  state: string | undefined;
  /**
   * Whether the node refused a task since its last health check (it left ACTIVE in between): the
   * scheduler gives it no more until a check reads its state again, instead of every query placing a
   * task there and being refused during the seconds until the next check.
   */
  refusedWork = false;
  /** The node's GET /v1/status as the last successful health check read it (the web interface shows it), and when. */
  lastStatus: Readonly<Record<string, unknown>> | undefined;
  lastStatusTime: number | undefined;
  /** From the node's announcement. */
  version = '';
  coordinator = false;
  /** The worker threads the node announced (undefined: it did not say). */
  workerThreads: number | undefined;
  /** Epoch milliseconds of the node's last announcement. */
  lastAnnounced: number;

  constructor(
    readonly nodeId: string,
    readonly uri: string,
    private readonly now: () => number = Date.now,
  ) {
    this.requests = new DecayCounter(undefined, now);
    this.successes = new DecayCounter(undefined, now);
    this.failures = new DecayCounter(undefined, now);
    this.firstSeen = now();
    this.lastRequest = this.firstSeen;
    this.lastResponse = this.firstSeen;
    this.lastAnnounced = this.firstSeen;
    this.lastAnswer = this.firstSeen;
  }

  /** A health check read the node's state: it is what the node says, a refusal before it is past. */
  checked(state: string, status?: Readonly<Record<string, unknown>>): void {
    this.state = state;
    if (status !== undefined) {
      this.lastStatus = status;
      this.lastStatusTime = this.now();
    }
    this.refusedWork = false;
  }

  /** Records an announcement (the first or a renewal). */
  announced(version: string, coordinator: boolean, workerThreads?: number): void {
    this.version = version;
    this.coordinator = coordinator;
    this.workerThreads = workerThreads;
    this.lastAnnounced = this.now();
  }

  /** Whether the node stopped renewing its announcement for longer than maxAgeMillis. */
  announcementExpired(maxAgeMillis: number): boolean {
    return this.now() - this.lastAnnounced > maxAgeMillis;
  }

  requestStarted(): void {
    this.requests.add();
    this.checksStarted++;
    this.lastRequest = this.now();
  }

  requestSucceeded(): void {
    this.successes.add();
    this.lastResponse = this.now();
    this.failedLastCheck = false;
    this.failedChecks = 0;
    this.lastAnswer = this.lastResponse;
    if (this.goneController.signal.aborted) this.goneController = new AbortController();
  }

  requestFailed(failure: FailureInfo): void {
    this.failures.add();
    this.checksFailed++;
    let byType = this.failuresByType.get(failure.type);
    if (!byType) {
      byType = new DecayCounter(undefined, this.now);
      this.failuresByType.set(failure.type, byType);
    }
    byType.add();
    this.lastFailure = failure;
    this.failedLastCheck = true;
    this.failedChecks++;
  }

  /** A request of one of the node's tasks was answered: the node runs, however its health checks fare. */
  answered(): void {
    this.lastAnswer = this.now();
  }

  /** The type of the last failure (a socket error code such as ECONNREFUSED, TimeoutError, ...). */
  get lastFailureType(): string | undefined {
    return this.lastFailure?.type;
  }

  /** Health checks of the node since this coordinator first saw it (GET /metrics): a count, not decaying. */
  get healthChecks(): number {
    return this.checksStarted;
  }

  /** Of those, the checks that failed. */
  get healthChecksFailed(): number {
    return this.checksFailed;
  }

  /** Health checks failed in a row since the last that succeeded. */
  get failedChecksInARow(): number {
    return this.failedChecks;
  }

  /** How long the node has answered nothing: no health check, no request of a task. */
  get silentMillis(): number {
    return this.now() - this.lastAnswer;
  }

  /**
   * Aborted, with REMOTE_HOST_GONE naming the node as its reason, once the node is declared gone: the
   * tasks placed on it until then fail. A node that answers a health check again takes new tasks under
   * a new signal.
   */
  get gone(): AbortSignal {
    return this.goneController.signal;
  }

  /** Declares the node gone (`why`: what the coordinator saw); its tasks fail with REMOTE_HOST_GONE. */
  declareGone(why: string): void {
    if (this.gone.aborted) return;
    const last = this.lastFailure === undefined ? '' : ` (last failure: ${this.lastFailure.message})`;
    this.goneController.abort(
      new EngineError(
        'REMOTE_HOST_GONE',
        `Could not communicate with the remote task. The node may have crashed or be under too much load. Node ${this.nodeId} (${this.uri}) ${why}${last}`,
      ),
    );
  }

  entry(): NodeEntry {
    const requests = this.requests.get();
    const failures = this.failures.get();
    const entry: NodeEntry = {
      uri: this.uri,
      recentRequests: requests,
      recentFailures: failures,
      recentSuccesses: this.successes.get(),
      recentFailureRatio: requests > 0 ? failures / requests : 0,
      recentFailuresByType: Object.fromEntries([...this.failuresByType].map(([type, counter]) => [type, counter.get()])),
      lastRequestTime: new Date(this.lastRequest).toISOString(),
      lastResponseTime: new Date(this.lastResponse).toISOString(),
      age: formatDuration(this.now() - this.firstSeen),
    };
    if (this.lastFailure) entry.lastFailureInfo = this.lastFailure;
    return entry;
  }
}

/** A thrown value as failure info (the shape of Trino's ExecutionFailureInfo without location). */
export function failureInfo(error: unknown): FailureInfo {
  const e = error instanceof Error ? error : new Error(String(error));
  return {
    type: e.name,
    message: e.message,
    stack: (e.stack ?? '')
      .split('\n')
      .slice(1)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
    suppressed: [],
  };
}
