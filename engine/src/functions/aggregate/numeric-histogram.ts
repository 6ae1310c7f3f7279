// numeric_histogram(buckets, value [, weight]): an approximate histogram of at most `buckets`
// (value, weight) bins per group, as Trino's (Ben-Haim and Tom-Tov's streaming histogram): values
// are buffered, equal values pooled, and while there are too many bins the two closest neighbours
// merge into their weighted mean. With at most `buckets` distinct values the result is exact; the
// total weight and the weighted mean are always kept. Keys and values are double (real for real).

import { EngineError } from '../../errors/engine-error.js';
import { getScalar, type Column } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { listColumnFromRows } from '../../columnar/list-column.js';
import { MapValue } from '../../types/map-value.js';
import { BIGINT, DOUBLE, type SqlType, arrayOf, mapOf } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, toFloat64 } from './accumulator-support.js';

/** Entries buffered per bin before a compaction. */
const BUFFER_FACTOR = 4;

class Histogram {
  values: number[] = [];
  weights: number[] = [];

  constructor(readonly buckets: number) {}

  add(value: number, weight: number): void {
    this.values.push(value);
    this.weights.push(weight);
    if (this.values.length >= this.buckets * BUFFER_FACTOR) this.compact();
  }

  /** Pools equal values, then merges the closest neighbours down to `buckets` bins. */
  compact(): void {
    const order = this.values.map((_, i) => i).sort((a, b) => this.values[a] - this.values[b]);
    const values: number[] = [];
    const weights: number[] = [];
    for (const i of order) {
      if (values.length > 0 && values[values.length - 1] === this.values[i]) weights[weights.length - 1] += this.weights[i];
      else {
        values.push(this.values[i]);
        weights.push(this.weights[i]);
      }
    }
    while (values.length > this.buckets) {
      let closest = 0;
      for (let i = 1; i < values.length - 1; i++) if (values[i + 1] - values[i] < values[closest + 1] - values[closest]) closest = i;
      const weight = weights[closest] + weights[closest + 1];
      values[closest] = (values[closest] * weights[closest] + values[closest + 1] * weights[closest + 1]) / weight;
      weights[closest] = weight;
      values.splice(closest + 1, 1);
      weights.splice(closest + 1, 1);
    }
    this.values = values;
    this.weights = weights;
  }
}

class NumericHistogramAccumulator implements GroupedAccumulator {
  private groups: (Histogram | undefined)[] = [];

  constructor(private readonly valueType: SqlType) {}

  ensureCapacity(groupCount: number): void {
    if (this.groups.length < groupCount) this.groups.length = groupCount;
  }

  private histogram(group: number, buckets: number): Histogram {
    let histogram = this.groups[group];
    if (histogram === undefined) {
      histogram = new Histogram(buckets);
      this.groups[group] = histogram;
    }
    return histogram;
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const [buckets, values, weights] = args;
    const numbers = toFloat64(values);
    const weightNumbers = weights === undefined ? undefined : toFloat64(weights);
    for (let i = start; i < end; i++) {
      if (args.some((c) => c.nulls !== null && c.nulls[i] === 1)) continue;
      const bucketCount = getScalar(buckets, i) as bigint;
      if (bucketCount < 2n) throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'numeric_histogram bucket count must be greater than one');
      this.histogram(groupIds[i], Number(bucketCount)).add(numbers[i], weightNumbers === undefined ? 1 : weightNumbers[i]);
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const [buckets, values, weights] = intermediates;
    for (let i = start; i < end; i++) {
      const groupValues = getScalar(values, i) as readonly number[] | null;
      if (groupValues === null) continue;
      const histogram = this.histogram(groupIds[i], Number(getScalar(buckets, i) as bigint));
      const groupWeights = getScalar(weights, i) as readonly number[];
      groupValues.forEach((v, j) => histogram.add(v, groupWeights[j]));
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    const groups = this.groups.slice(start, end);
    groups.forEach((h) => h?.compact());
    const length = end - start;
    return [
      { type: BIGINT, length, values: BigInt64Array.from(groups, (h) => BigInt(h?.buckets ?? 0)), nulls: null },
      listColumnFromRows(
        arrayOf(DOUBLE),
        groups.map((h) => h?.values ?? null),
        length,
      ),
      listColumnFromRows(
        arrayOf(DOUBLE),
        groups.map((h) => h?.weights ?? null),
        length,
      ),
    ];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(mapOf(this.valueType, this.valueType), start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const histogram = this.groups[group];
    if (histogram === undefined) {
      out.nulls[row] = 1;
      return;
    }
    histogram.compact();
    const cast = this.valueType.kind === 'real' ? Math.fround : (x: number) => x;
    (out.values as Scalar[])[row] = new MapValue(histogram.values.map(cast), histogram.weights.map(cast));
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    let bytes = 8 * this.groups.length;
    for (const h of this.groups) if (h !== undefined) bytes += 16 * h.values.length + 48;
    return bytes;
  }
}

export function numericHistogramFunction(types: readonly SqlType[]): AggregateFunction | undefined {
  if (types.length !== 2 && types.length !== 3) return undefined;
  const valueType = types[1].kind === 'real' ? types[1] : DOUBLE;
  const weighted = types.length === 3;
  return {
    name: 'numeric_histogram',
    argumentTypes: [BIGINT, valueType, ...(weighted ? [valueType] : [])],
    returnType: mapOf(valueType, valueType),
    intermediateTypes: [BIGINT, arrayOf(DOUBLE), arrayOf(DOUBLE)],
    createAccumulator: () => new NumericHistogramAccumulator(valueType),
  };
}
