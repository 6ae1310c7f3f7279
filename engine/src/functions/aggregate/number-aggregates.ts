// sum and avg of NUMBER, as Trino's NumberSumAggregation and NumberAverageAggregation: exact sums
// (NUMBER addition, so an infinity or NaN among the inputs gives Infinity or NaN), the average that
// sum divided by the count with NUMBER division.

import type { Column } from '../../columnar/page.js';
import { BIGINT, NUMBER, type SqlType } from '../../types/types.js';
import { addNumbers, divideNumbers } from '../../types/number/number-arithmetic.js';
import { type NumberValue, numberText, numberValue } from '../../types/number/number-value.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, grow } from './accumulator-support.js';
import { addCounts, countsColumn } from './avg.js';

type Kind = 'sum' | 'avg';

class NumberSumAccumulator implements GroupedAccumulator {
  private sums: (NumberValue | undefined)[] = [];
  private counts = new Float64Array(16);

  constructor(private readonly kind: Kind) {}

  ensureCapacity(groupCount: number): void {
    if (this.sums.length < groupCount) this.sums.length = groupCount;
    this.counts = grow(this.counts, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    this.addSums(groupIds, args[0], start, end, true);
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    this.addSums(groupIds, intermediates[0], start, end, false);
    if (this.kind === 'avg') addCounts(this.counts, groupIds, intermediates[1], start, end);
  }

  /** Adds the non-null values of `column`, counting them as inputs when `counting`. */
  private addSums(groupIds: Int32Array, column: Column, start: number, end: number, counting: boolean): void {
    const values = column.values as readonly string[];
    const nulls = column.nulls;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const group = groupIds[i];
      const value = numberValue(values[i]);
      const sum = this.sums[group];
      this.sums[group] = sum === undefined ? value : addNumbers(sum, value);
      if (counting) this.counts[group]++;
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    const sums = finalColumn(NUMBER, start, end, (g, out, row) => this.writeSum(g, out, row));
    return this.kind === 'sum' ? [sums] : [sums, countsColumn(this.counts, start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(NUMBER, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const sum = this.sums[group];
    if (this.kind === 'sum' || sum === undefined) {
      this.writeSum(group, out, row);
      return;
    }
    (out.values as string[])[row] = numberText(divideNumbers(sum, { unscaled: BigInt(this.counts[group]), scale: 0 }));
    out.nulls[row] = 0;
  }

  private writeSum(group: number, out: ColumnOutput, row: number): void {
    const sum = this.sums[group];
    out.nulls[row] = sum === undefined ? 1 : 0;
    if (sum !== undefined) (out.values as string[])[row] = numberText(sum);
  }

  sizeInBytes(): number {
    // A sum's text is at most about 200 digits; count each slot at its JS object size plus its digits.
    return this.sums.length * 64 + this.counts.byteLength;
  }
}

/** sum or avg of a NUMBER argument; undefined for any other type. */
export function numberAggregate(kind: Kind, argumentType: SqlType): AggregateFunction | undefined {
  if (argumentType.kind !== 'number') return undefined;
  return {
    name: kind,
    argumentTypes: [NUMBER],
    returnType: NUMBER,
    intermediateTypes: kind === 'sum' ? [NUMBER] : [NUMBER, BIGINT],
    createAccumulator: () => new NumberSumAccumulator(kind),
  };
}
