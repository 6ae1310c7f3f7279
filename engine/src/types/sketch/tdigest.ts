// A t-digest (Dunning): a small summary of a distribution from which quantiles are read with a
// rank error that shrinks towards the tails. Values are kept as weighted centroids; when the
// buffer fills, centroids sorted by mean are merged greedily while a cluster spans at most one
// unit of the k1 scale k(q) = δ/(2π)·asin(2q - 1), with δ = 100 as Trino's default. Singleton
// centroids keep their exact value, so small inputs give exact order statistics; digests merge
// by pooling centroids, so partial and final aggregation agree with one pass within the bounds.

const COMPRESSION = 100;
/** Centroids kept before a merge pass; a pass leaves at most about COMPRESSION of them. */
const BUFFER_LIMIT = 6 * COMPRESSION;

export class TDigest {
  means: number[] = [];
  weights: number[] = [];
  totalWeight = 0;
  min = Infinity;
  max = -Infinity;
  private unmerged = false;

  add(value: number, weight = 1): void {
    this.means.push(value);
    this.weights.push(weight);
    this.totalWeight += weight;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    this.unmerged = true;
    if (this.means.length >= BUFFER_LIMIT) this.compress();
  }

  /** Pools another digest's centroids (its min and max too). */
  addDigest(means: readonly number[], weights: readonly number[], min: number, max: number): void {
    for (let i = 0; i < means.length; i++) {
      this.means.push(means[i]);
      this.weights.push(weights[i]);
      this.totalWeight += weights[i];
    }
    this.min = Math.min(this.min, min);
    this.max = Math.max(this.max, max);
    this.unmerged = true;
    if (this.means.length >= BUFFER_LIMIT) this.compress();
  }

  /** Sorts the centroids and merges neighbours within the k1 scale's bound. */
  compress(): void {
    if (!this.unmerged) return;
    this.unmerged = false;
    const order = this.means.map((_, i) => i).sort((a, b) => this.means[a] - this.means[b]);
    const means: number[] = [];
    const weights: number[] = [];
    const total = this.totalWeight;
    const k = (q: number) => (COMPRESSION / (2 * Math.PI)) * Math.asin(2 * Math.min(1, Math.max(0, q)) - 1);
    let weightBefore = 0;
    for (const i of order) {
      const last = means.length - 1;
      if (last >= 0) {
        const merged = weights[last] + this.weights[i];
        if (k((weightBefore + merged) / total) - k(weightBefore / total) <= 1) {
          means[last] += ((this.means[i] - means[last]) * this.weights[i]) / merged;
          weights[last] = merged;
          continue;
        }
        weightBefore += weights[last];
      }
      means.push(this.means[i]);
      weights.push(this.weights[i]);
    }
    this.means = means;
    this.weights = weights;
  }

  /**
   * The value at quantile q: a linear interpolation between the centroids' centres (the minimum and
   * maximum at the ends); within a singleton centroid, its exact value.
   */
  valueAt(q: number): number {
    this.compress();
    const count = this.means.length;
    if (count === 0) return NaN;
    if (count === 1) return this.means[0];
    const position = q * this.totalWeight;
    if (position < 1) return this.min;
    if (position >= this.totalWeight - 1) return this.max;
    let before = 0;
    let previousCentre = 0;
    let previousValue = this.min;
    for (let i = 0; i < count; i++) {
      const weight = this.weights[i];
      const centre = before + weight / 2;
      if (weight === 1 && Math.abs(position - centre) <= 0.5 && position < before + 1) return this.means[i];
      if (position < centre) return interpolate(position, previousCentre, previousValue, centre, this.means[i]);
      before += weight;
      previousCentre = centre;
      previousValue = this.means[i];
    }
    return interpolate(position, previousCentre, previousValue, this.totalWeight, this.max);
  }

  sizeInBytes(): number {
    return 16 * this.means.length + 64;
  }
}

function interpolate(x: number, x0: number, y0: number, x1: number, y1: number): number {
  if (x1 <= x0) return y1;
  return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}
