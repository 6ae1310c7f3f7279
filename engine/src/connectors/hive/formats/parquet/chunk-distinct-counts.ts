// What row groups' distinct counts (writers give them for dictionary-encoded chunks) say of a
// column's distinct values, merged over the row groups of a file and then over a table's files:
// the same merge at both levels, over footer bounds in one and table scalars in the other.

/** The merged counts; `V`: how the values of the ranges are held. */
export interface DistinctCounts<V> {
  /** The most any row group has: the column has at least as many. */
  largest: number;
  /** Their sum: at most as many (as many when no two row groups share a value). */
  total: number;
  /** The row group of the most non-NULL values (a sample of the column): its distinct count, its values. */
  sample: { distinct: number; values: number };
  /**
   * The greatest of the row groups' least values and the least of their greatest (their ranges are
   * apart when the first is above the second); undefined once any row group's range is unknown.
   */
  highestLow?: V;
  lowestHigh?: V;
}

/** One row group's counts: `distinct` of its `values` non-NULL values, in [low, high]. */
export function rowGroupDistinct<V>(distinct: number, values: number, low: V | undefined, high: V | undefined): DistinctCounts<V> {
  return { largest: distinct, total: distinct, sample: { distinct, values }, highestLow: low, lowestHigh: high };
}

/** `a` and `b` together; `compare` orders two values of the ranges. */
export function mergeDistinctCounts<V>(a: DistinctCounts<V>, b: DistinctCounts<V>, compare: (x: V, y: V) => number): DistinctCounts<V> {
  const known = (x: V | undefined, y: V | undefined) => x !== undefined && y !== undefined;
  return {
    largest: Math.max(a.largest, b.largest),
    total: a.total + b.total,
    sample: b.sample.values > a.sample.values ? b.sample : a.sample,
    highestLow: known(a.highestLow, b.highestLow) ? (compare(a.highestLow!, b.highestLow!) >= 0 ? a.highestLow : b.highestLow) : undefined,
    lowestHigh: known(a.lowestHigh, b.lowestHigh) ? (compare(a.lowestHigh!, b.lowestHigh!) <= 0 ? a.lowestHigh : b.lowestHigh) : undefined,
  };
}
