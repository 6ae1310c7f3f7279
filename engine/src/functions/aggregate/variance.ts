// variance / var_samp / var_pop / stddev / stddev_samp / stddev_pop: Welford's running mean and sum
// of squared deviations per group (numerically stable), merged with Chan's formula.

import type { Column } from '../../columnar/page.js';
import { int64Words } from '../../columnar/hash-functions.js';
import { BIGINT, DOUBLE, type SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, grow, toFloat64 } from './accumulator-support.js';
import { readInt64Number, writeInt64Number } from '../../columnar/int64-numbers.js';

export type VarianceKind = 'var_samp' | 'var_pop' | 'stddev_samp' | 'stddev_pop';

class VarianceAccumulator implements GroupedAccumulator {
  private counts = new Float64Array(16);
  private means = new Float64Array(16);
  private m2s = new Float64Array(16);

  constructor(private readonly kind: VarianceKind) {}

  ensureCapacity(groupCount: number): void {
    this.counts = grow(this.counts, groupCount);
    this.means = grow(this.means, groupCount);
    this.m2s = grow(this.m2s, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    if (column.type.kind === 'unknown') return;
    const values = toFloat64(column);
    const nulls = column.nulls;
    const { counts, means, m2s } = this;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const g = groupIds[i];
      const x = values[i];
      const n = ++counts[g];
      const delta = x - means[g];
      means[g] += delta / n;
      m2s[g] += delta * (x - means[g]);
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const countWords = int64Words(intermediates[0].values as BigInt64Array);
    const otherMeans = intermediates[1].values as Float64Array;
    const otherM2s = intermediates[2].values as Float64Array;
    const { counts, means, m2s } = this;
    for (let i = start; i < end; i++) {
      const nb = readInt64Number(countWords, i);
      if (nb === 0) continue;
      const g = groupIds[i];
      const na = counts[g];
      const n = na + nb;
      const delta = otherMeans[i] - means[g];
      means[g] += (delta * nb) / n;
      m2s[g] += otherM2s[i] + (delta * delta * na * nb) / n;
      counts[g] = n;
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    const length = end - start;
    const countValues = new BigInt64Array(length);
    const words = int64Words(countValues);
    for (let g = start; g < end; g++) writeInt64Number(words, g - start, this.counts[g]);
    return [
      { type: BIGINT, length, values: countValues, nulls: null },
      { type: DOUBLE, length, values: this.means.slice(start, end), nulls: null },
      { type: DOUBLE, length, values: this.m2s.slice(start, end), nulls: null },
    ];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(DOUBLE, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const n = this.counts[group];
    const sample = this.kind === 'var_samp' || this.kind === 'stddev_samp';
    if (n === 0 || (sample && n < 2)) {
      out.nulls[row] = 1;
      return;
    }
    const variance = this.m2s[group] / (sample ? n - 1 : n);
    (out.values as Float64Array)[row] = this.kind.startsWith('stddev') ? Math.sqrt(variance) : variance;
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    return this.counts.byteLength * 3;
  }
}

export function varianceFunction(name: string, kind: VarianceKind, argumentType: SqlType): AggregateFunction {
  return {
    name,
    argumentTypes: [argumentType],
    returnType: DOUBLE,
    intermediateTypes: [BIGINT, DOUBLE, DOUBLE],
    createAccumulator: () => new VarianceAccumulator(kind),
  };
}
