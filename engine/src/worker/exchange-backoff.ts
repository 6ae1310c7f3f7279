// When to retry a request to a remote task and when to give up on it: a failing source is retried with
// growing delays and declared gone only after both enough failures and enough time, so one dropped
// connection or a worker's short pause does not fail a query, but a node that stays silent fails it
// within the max error duration (query.remoteTaskMaxErrorDuration) and a request timeout or two.

export interface BackoffOptions {
  /** Give up only after at least this many consecutive failures ... */
  minFailures: number;
  /** ... spread over at least this long since the first of them. */
  maxErrorDurationMillis: number;
  now?: () => number;
}

/** Delay before the n-th retry (n = failures so far), the last one repeating. */
const RETRY_DELAYS_MILLIS = [0, 50, 100, 200, 500, 1000];

export class Backoff {
  private failures = 0;
  private firstFailureAt = 0;
  private readonly now: () => number;

  constructor(private readonly options: BackoffOptions) {
    this.now = options.now ?? Date.now;
  }

  get failureCount(): number {
    return this.failures;
  }

  /** Milliseconds since the first of the current run of failures. */
  get failureDurationMillis(): number {
    return this.failures === 0 ? 0 : this.now() - this.firstFailureAt;
  }

  get retryDelayMillis(): number {
    return RETRY_DELAYS_MILLIS[Math.min(this.failures, RETRY_DELAYS_MILLIS.length - 1)];
  }

  success(): void {
    this.failures = 0;
  }

  /** Records a failure; true when the source should be given up. */
  failure(): boolean {
    if (this.failures === 0) this.firstFailureAt = this.now();
    this.failures++;
    return this.failures >= this.options.minFailures && this.failureDurationMillis >= this.options.maxErrorDurationMillis;
  }
}

/**
 * How long a request to a task may go unanswered before it counts as failed: what the other node may
 * hold it for (`waitMillis`), plus the max error duration but 1 to 10 s — a node that stopped (SIGSTOP,
 * a frozen VM) answers nothing, and with the failures needed to give up, a much longer wait would
 * stretch the max error duration several times over.
 */
export function requestTimeoutMillis(waitMillis: number, maxErrorDurationMillis: number): number {
  return waitMillis + Math.min(10_000, Math.max(1000, maxErrorDurationMillis));
}
