// A weighted word list of the generator: a pick draws one stream value v and takes the first value
// whose running weight exceeds floor(v / m * totalWeight) — dbgen's pick_str, done with a table
// indexed by the drawn weight unit instead of a walk.

import { MODULUS } from './random.js';
import type { WeightedValues } from './distribution-data.js';

export class Distribution {
  readonly values: readonly string[];
  /** Running sums of the weights (for `nations` these are the region keys). */
  readonly runningWeights: readonly number[];
  readonly totalWeight: number;
  /** Value index for each weight unit 0 .. totalWeight-1. */
  private readonly indexByUnit: Int32Array;

  constructor(entries: WeightedValues) {
    this.values = entries.map(([value]) => value);
    let running = 0;
    this.runningWeights = entries.map(([, weight]) => (running += weight));
    this.totalWeight = running;
    const pickable = entries.every(([, weight]) => weight > 0);
    this.indexByUnit = new Int32Array(pickable ? running : 0);
    if (pickable) {
      let unit = 0;
      entries.forEach(([, weight], index) => this.indexByUnit.fill(index, unit, (unit += weight)));
    }
  }

  get size(): number {
    return this.values.length;
  }

  /** The index of the value that weight unit `unit` (0 .. totalWeight-1) falls in. */
  indexOfUnit(unit: number): number {
    return this.indexByUnit[unit];
  }

  /** The index of the value that stream value `seed` picks. */
  pickIndex(seed: number): number {
    return this.indexByUnit[Math.floor((seed / MODULUS) * this.totalWeight)];
  }

  /** The value that stream value `seed` picks. */
  pick(seed: number): string {
    return this.values[this.pickIndex(seed)];
  }
}
