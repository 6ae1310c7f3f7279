// The work queue between watch events and reconciles: a key is queued at most once however many
// events name it, is never reconciled by two workers at once (an event during its reconcile queues it
// again for afterwards), and a failed reconcile is retried after a delay that doubles with each
// failure in a row (rate-limited), from baseDelayMs up to maxDelayMs. A reconcile may ask to be run
// again after some time (a drain to poll, an autoscaler to sample).
export interface ReconcileResult {
  requeueAfterMs?: number;
}

export type Reconcile = (key: string) => Promise<ReconcileResult>;

export interface WorkQueueOptions {
  concurrency: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Called with each failure (after which the key is retried). */
  onError: (key: string, err: unknown, retryInMs: number) => void;
}

export class WorkQueue {
  private readonly ready: string[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Set<string>();
  /** Keys an event named while they were being reconciled. */
  private readonly dirty = new Set<string>();
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly failures = new Map<string, number>();
  private active = 0;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly reconcile: Reconcile,
    private readonly options: WorkQueueOptions,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    if (this.running.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.ready.push(key);
    this.pump();
  }

  /** Queues the key after `delayMs`, unless it is due sooner already. */
  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    const at = Date.now() + delayMs;
    const existing = this.timers.get(key);
    if (existing && existing.at <= at) return;
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, delayMs);
    this.timers.set(key, { at, timer });
  }

  /** How many failures in a row the key has had. */
  failureCount(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  private pump(): void {
    while (!this.stopped && this.active < this.options.concurrency && this.ready.length > 0) {
      const key = this.ready.shift()!;
      this.queued.delete(key);
      this.running.add(key);
      this.active++;
      void this.process(key);
    }
  }

  private async process(key: string): Promise<void> {
    let requeueAfterMs: number | undefined;
    try {
      requeueAfterMs = (await this.reconcile(key)).requeueAfterMs;
      this.failures.delete(key);
    } catch (err) {
      const count = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, count);
      requeueAfterMs = Math.min(this.options.baseDelayMs * 2 ** (count - 1), this.options.maxDelayMs);
      this.options.onError(key, err, requeueAfterMs);
    } finally {
      this.running.delete(key);
      this.active--;
    }
    if (this.dirty.delete(key)) this.add(key);
    else if (requeueAfterMs !== undefined) this.addAfter(key, requeueAfterMs);
    this.pump();
    if (this.active === 0 && this.ready.length === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Stops taking work; resolves once the reconciles under way have finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.ready.length = 0;
    this.queued.clear();
    if (this.active > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }
}
