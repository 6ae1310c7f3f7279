// Time a worker thread spends working on a task, without the time it waits for splits or credits.
// A worker runs one page at a time, so while a task is busy its wall time is the thread's CPU time.

export class BusyClock {
  private busySince: number | undefined;
  private busyMillis = 0;

  resume(): void {
    this.busySince ??= performance.now();
  }

  pause(): void {
    if (this.busySince === undefined) return;
    this.busyMillis += performance.now() - this.busySince;
    this.busySince = undefined;
  }

  /** Busy time since the last take. */
  take(): number {
    const running = this.busySince !== undefined;
    this.pause();
    const millis = this.busyMillis;
    this.busyMillis = 0;
    if (running) this.resume();
    return millis;
  }
}
