// A counter whose value decays exponentially: value * exp(-elapsed / decay). With Trino's one-minute
// parameter, 1000 falls to about 368 after a minute.

export const ONE_MINUTE_DECAY_MILLIS = 60_000;

export class DecayCounter {
  private value = 0;
  private updated: number;

  constructor(
    private readonly decayMillis = ONE_MINUTE_DECAY_MILLIS,
    private readonly now: () => number = Date.now,
  ) {
    this.updated = now();
  }

  add(amount = 1): void {
    this.value = this.get() + amount;
  }

  get(): number {
    const now = this.now();
    const elapsed = now - this.updated;
    if (elapsed > 0) {
      this.value *= Math.exp(-elapsed / this.decayMillis);
      this.updated = now;
    }
    return this.value;
  }
}
