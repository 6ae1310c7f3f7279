// Turns of the event loop for others' work (a server's heartbeats and requests) between the
// synchronous steps of a long planning. A short planning runs in one go: a turn costs a query
// whatever else runs in the loop meanwhile, so one is taken only once a slice has run this long.

/** Synchronous work after which a planning gives the loop a turn. */
export const SLICE_MILLIS = 10;

/** Resolves after the event loop has run what is waiting (setImmediate: after I/O callbacks). */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** Takes a turn when the work since the last one has run `sliceMillis` or more. */
export class TurnTaker {
  private sliceStart = performance.now();

  constructor(private readonly sliceMillis = SLICE_MILLIS) {}

  async between(): Promise<void> {
    if (performance.now() - this.sliceStart < this.sliceMillis) return;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
