// One column's statistics, added up over the parts of a table (its files): NULL counts summed, least
// and greatest values merged, and for partition columns the distinct values counted. A part that
// does not say what it holds makes the figure it would add to unknown, never a guess.

import type { ColumnStatistics } from '../../../spi/connector.js';
import type { Scalar } from '../../../types/scalar.js';
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

  /** The column's statistics over a table of `rowCount` rows (undefined: unknown). */
  build(rowCount: number | undefined): ColumnStatistics {
    const statistics: ColumnStatistics = {};
    if (this.nulls !== undefined && rowCount !== undefined && rowCount > 0) statistics.nullsFraction = this.nulls / rowCount;
    else if (this.nulls === 0 && rowCount !== 0) statistics.nullsFraction = 0;
    if (this.distinct !== undefined) statistics.distinctValuesCount = this.distinct.size;
    if (this.boundsKnown && this.low !== undefined && this.high !== undefined) {
      statistics.low = this.low;
      statistics.high = this.high;
    }
    return statistics;
  }
}
