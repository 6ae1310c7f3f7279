// geometric_mean(x): exp of the mean of ln(x) per group.

import type { Column } from '../../exec/page.js';
import { int64Words } from '../../exec/hash/hash-functions.js';
import { BIGINT, DOUBLE, type SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, grow, readInt64Number, toFloat64, writeInt64Number } from './accumulator-support.js';

class GeometricMeanAccumulator implements GroupedAccumulator {
  private logSums = new Float64Array(16);
  private counts = new Float64Array(16);

  ensureCapacity(groupCount: number): void {
    this.logSums = grow(this.logSums, groupCount);
    this.counts = grow(this.counts, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    if (column.type.kind === 'unknown') return;
    const values = toFloat64(column);
    const nulls = column.nulls;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const g = groupIds[i];
      this.logSums[g] += Math.log(values[i]);
      this.counts[g]++;
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const sums = intermediates[0].values as Float64Array;
    const words = int64Words(intermediates[1].values as BigInt64Array);
    for (let i = start; i < end; i++) {
      this.logSums[groupIds[i]] += sums[i];
      this.counts[groupIds[i]] += readInt64Number(words, i);
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    const length = end - start;
    const counts = new BigInt64Array(length);
    const words = int64Words(counts);
    for (let g = start; g < end; g++) writeInt64Number(words, g - start, this.counts[g]);
    return [
      { type: DOUBLE, length, values: this.logSums.slice(start, end), nulls: null },
      { type: BIGINT, length, values: counts, nulls: null },
    ];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(DOUBLE, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const n = this.counts[group];
    out.nulls[row] = n === 0 ? 1 : 0;
    if (n > 0) (out.values as Float64Array)[row] = Math.exp(this.logSums[group] / n);
  }

  sizeInBytes(): number {
    return this.logSums.byteLength * 2;
  }
}

export function geometricMeanFunction(argumentType: SqlType): AggregateFunction {
  return {
    name: 'geometric_mean',
    argumentTypes: [argumentType],
    returnType: DOUBLE,
    intermediateTypes: [DOUBLE, BIGINT],
    createAccumulator: () => new GeometricMeanAccumulator(),
  };
}
