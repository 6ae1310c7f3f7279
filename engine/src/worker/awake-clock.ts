// The time this node has been running: a monotonic clock, less the stretches in which the node could
// not run — stopped (SIGSTOP), frozen with its virtual machine, its event loop held — which show as
// gaps between readings longer than the node lets pass while it runs. A node judging how long others
// have been silent counts in this time: it cannot have heard them while it was not running, and their
// requests of that time wait, unread, in its sockets.

export class AwakeClock {
  private awake = 0;
  private last: number;

  /** `maxGapMillis`: the longest gap between two readings while the node runs (it reads at least that often). */
  constructor(
    private readonly maxGapMillis: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.last = now();
  }

  /** Milliseconds this node has been running since the clock started. */
  read(): number {
    const now = this.now();
    this.awake += Math.min(Math.max(0, now - this.last), this.maxGapMillis);
    this.last = now;
    return this.awake;
  }
}
