// A controller's queue of keys: a key queued several times before it is handled is handled once,
// handling runs after the current turn of the event loop (never inside a store listener), and a
// handler can ask to see a key again after a delay (minReadySeconds, deadlines, retries).
export class WorkQueue {
  private readonly pending = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly handle: (key: string) => void,
    private readonly onError: (key: string, err: unknown) => void,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  }

  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    const existing = this.timers.get(key);
    if (existing) clearTimeout(existing);
    const timer = setTimeout(
      () => {
        this.timers.delete(key);
        this.add(key);
      },
      Math.max(0, delayMs),
    );
    timer.unref();
    this.timers.set(key, timer);
  }

  private drain(): void {
    this.scheduled = false;
    const keys = [...this.pending];
    this.pending.clear();
    for (const key of keys) {
      if (this.stopped) return;
      try {
        this.handle(key);
      } catch (err) {
        this.onError(key, err);
        this.addAfter(key, 500);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.pending.clear();
  }
}
