// One column's statistics, added up over the parts of a table (its files): NULL counts summed, least
// and greatest values merged, for partition columns the distinct values counted, for Parquet columns
// a distinct count inferred from the row groups' (an estimate: see chunkDistinctCount). A part that
// does not say what it holds makes the figure it would add to unknown, never a guess.

import type { ColumnStatistics } from '../../../spi/connector.js';
import type { Scalar } from '../../../types/scalar.js';
import type { ChunkDistinctCounts } from '../formats/parquet/file-statistics.js';
import { distinctFromDraws } from '../../distinct-draws.js';
import { mergeDistinctCounts } from '../formats/parquet/chunk-distinct-counts.js';
import { compareScalars } from './scalar-order.js';

type Value = Exclude<Scalar, null>;

export class ColumnStatisticsBuilder {
  /** Undefined once a part's NULL count is unknown. */
  private nulls: number | undefined = 0;
  private low: Value | undefined;
  private high: Value | undefined;
  private boundsKnown = true;
  /** Distinct non-NULL values (partition columns, whose values the folders name), by a key of their value. */
  private readonly distinct: Set<string> | undefined;
  /** The parts' row groups' distinct counts merged; undefined once a part gives none. */
  private chunkDistinct: ChunkDistinctCounts | undefined;
  private chunkDistinctKnown = true;

  constructor(countDistinct: boolean) {
    this.distinct = countDistinct ? new Set() : undefined;
  }

  /**
   * A part's figures: its NULL count (undefined: unknown), and its least and greatest non-NULL
   * values (undefined: unknown; not looked at when `allNull`).
   */
  add(nulls: number | undefined, allNull: boolean, low: Scalar | undefined, high: Scalar | undefined): void {
    this.nulls = this.nulls === undefined || nulls === undefined ? undefined : this.nulls + nulls;
    if (allNull) return;
    if (low === undefined || low === null || high === undefined || high === null) {
      this.boundsKnown = false;
      return;
    }
    if (this.low === undefined || compareScalars(low, this.low) < 0) this.low = low;
    if (this.high === undefined || compareScalars(high, this.high) > 0) this.high = high;
  }

  /** A part all of whose rows (`rows`, undefined when unknown) hold one value (a partition folder's). */
  addConstant(rows: number | undefined, value: Scalar): void {
    if (value !== null)
      this.distinct?.add(`${typeof value}:${value instanceof Uint8Array ? Buffer.from(value).toString('hex') : String(value)}`);
    this.add(value === null ? rows : 0, value === null, value, value);
  }

  /** A part's row groups' distinct counts (undefined: it gives none, so the column's distinct count is unknown). */
  addChunkDistinct(counts: ChunkDistinctCounts | undefined): void {
    const merged = this.chunkDistinct;
    if (counts === undefined || !this.chunkDistinctKnown) {
      this.chunkDistinctKnown = false;
      return;
    }
    if (merged === undefined) {
      this.chunkDistinct = counts;
      return;
    }
    this.chunkDistinct = mergeDistinctCounts(merged, counts, compareScalars);
  }

  /**
   * The distinct count the row groups' counts give (Parquet writers give them for dictionary-encoded
   * chunks: DuckDB's files, ours): when the row groups' ranges overlap, their values are taken as drawn
   * at random from the column's, so the count that makes the largest row group's expected, at least
   * the most any row group has; when their ranges are apart (values clustered, as in sorted files),
   * the sum of their counts. Never more than the non-NULL rows.
   */
  private chunkDistinctCount(nonNullRows: number | undefined): number | undefined {
    const counts = this.chunkDistinct;
    if (!this.chunkDistinctKnown || counts === undefined) return undefined;
    const limit = nonNullRows ?? counts.total;
    const { highestLow, lowestHigh } = counts;
    const apart = highestLow !== undefined && lowestHigh !== undefined && compareScalars(highestLow, lowestHigh) > 0;
    const estimate = apart
      ? counts.total
      : Math.max(counts.largest, distinctFromDraws(counts.sample.distinct, counts.sample.values, limit));
    return Math.min(estimate, limit);
  }

  /** The column's statistics over a table of `rowCount` rows (undefined: unknown). */
  build(rowCount: number | undefined): ColumnStatistics {
    const statistics: ColumnStatistics = {};
    if (this.nulls !== undefined && rowCount !== undefined && rowCount > 0) statistics.nullsFraction = this.nulls / rowCount;
    else if (this.nulls === 0 && rowCount !== 0) statistics.nullsFraction = 0;
    if (this.distinct !== undefined) statistics.distinctValuesCount = this.distinct.size;
    else {
      const nonNull = rowCount === undefined || this.nulls === undefined ? undefined : rowCount - this.nulls;
      const counted = this.chunkDistinctCount(nonNull);
      if (counted !== undefined) statistics.distinctValuesCount = counted;
    }
    if (this.boundsKnown && this.low !== undefined && this.high !== undefined) {
      statistics.low = this.low;
      statistics.high = this.high;
    }
    return statistics;
  }
}
