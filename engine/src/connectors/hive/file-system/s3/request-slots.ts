// The node's bound on S3 requests in flight (s3.max-connections, Trino's "maximum number of
// connections to S3"): a count of free slots in shared memory, so that the main thread and every
// worker thread of a node draw on one budget. A request takes a slot for each attempt and gives it
// back when the attempt ends; one that finds none free waits (without blocking its thread) until
// another gives one back.

/** Waits at most this long between looks at the count (a slot freed and taken at once wakes no one). */
const WAIT_SLICE_MS = 50;

type WaitAsync = (array: Int32Array, index: number, value: number, timeout: number) => { async: boolean; value: Promise<string> | string };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

export class RequestSlots {
  constructor(
    /** One Int32: the free slots. On a SharedArrayBuffer, it travels to worker threads unchanged. */
    readonly free: Int32Array,
  ) {}

  /** The shared count of `slots` free slots. */
  static shared(slots: number): Int32Array {
    const free = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    free[0] = slots;
    return free;
  }

  /** Takes a slot, waiting for one; an aborted signal ends the wait with its reason. */
  async take(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const free = Atomics.load(this.free, 0);
      if (free > 0) {
        if (Atomics.compareExchange(this.free, 0, free, free - 1) === free) return;
        continue;
      }
      const waiting = waitAsync(this.free, 0, free, WAIT_SLICE_MS);
      if (waiting.async) await waiting.value;
    }
  }

  giveBack(): void {
    Atomics.add(this.free, 0, 1);
    Atomics.notify(this.free, 0, 1);
  }
}
