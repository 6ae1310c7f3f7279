// A moment that can be moved earlier while someone waits for it: the end of a grace period that
// a second, shorter delete cuts short.
export class Deadline {
  private readonly waiters = new Set<() => void>();

  constructor(private at: number) {}

  get time(): number {
    return this.at;
  }

  moveEarlier(at: number): void {
    if (at >= this.at) return;
    this.at = at;
    for (const wake of this.waiters) wake();
  }

  /** Moves it later (the kubelet's minimum 2 s window for SIGTERM after a long preStop hook). */
  extendTo(at: number): void {
    if (at > this.at) this.at = at;
  }

  /** Resolves when the deadline passes (checked again whenever it is moved). */
  async passed(): Promise<void> {
    while (Date.now() < this.at) {
      let wake!: () => void;
      const woken = new Promise<void>((resolve) => (wake = resolve));
      // Unreferenced: a race's loser (the deadline of a container that exited in time) keeps no process alive.
      const timer = setTimeout(wake, this.at - Date.now()).unref();
      this.waiters.add(wake);
      await woken;
      clearTimeout(timer);
      this.waiters.delete(wake);
    }
  }
}

/** A sleep that `cancel` ends early (backoff waits while the pod is being deleted). */
export class CancellableSleep {
  private resolve?: () => void;
  private timer?: NodeJS.Timeout;

  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.resolve = resolve;
      this.timer = setTimeout(resolve, ms);
    }).finally(() => {
      this.resolve = undefined;
    });
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.resolve?.();
  }
}
