// The summary figures of the benchmarks: medians of runs, geometric means of ratios.

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** NaN for no values. */
export function geometricMean(values: readonly number[]): number {
  return values.length === 0 ? NaN : Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length);
}
