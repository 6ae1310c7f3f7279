// approx_most_frequent(buckets, value, capacity) over bigint and varchar: a stream summary (space
// saving, Metwally et al., as Trino's) of at most `capacity` counters per group; when it is full a
// new value takes the place of the smallest counter and inherits its count. The result is the
// `buckets` largest counters as map(value, bigint), most frequent first. With capacity at or above
// the number of distinct values the counts are exact.

import { EngineError } from '../../errors/engine-error.js';
import { getScalar, type Column } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { listColumnFromRows } from '../../columnar/list-column.js';
import { MapValue } from '../../types/map-value.js';
import { BOXED_VALUE_BYTES } from '../../columnar/memory-estimate.js';
import { BIGINT, type SqlType, VARCHAR, arrayOf, mapOf } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn } from './accumulator-support.js';

/**
 * Counters bucketed by count, so that a row costs O(1): an increment by one moves its value to the
 * next bucket, and an eviction takes a value from the smallest bucket. (Merged states add larger
 * counts; finding the new smallest bucket then scans the buckets, at most `capacity` of them.)
 */
class StreamSummary {
  /** Counters by value (bigint and string values are their own map keys). */
  readonly counters = new Map<bigint | string, number>();
  private readonly buckets = new Map<number, Set<bigint | string>>();
  private smallest = Infinity;

  constructor(readonly capacity: number) {}

  offer(item: bigint | string, increment: number): void {
    const count = this.counters.get(item);
    if (count !== undefined) {
      this.leave(item, count);
      this.enter(item, count + increment);
      if (!this.buckets.has(this.smallest)) this.smallest = increment === 1 && count === this.smallest ? count + 1 : this.findSmallest();
      return;
    }
    if (this.counters.size < this.capacity) {
      this.enter(item, increment);
      this.smallest = Math.min(this.smallest, increment);
      return;
    }
    const evicted = this.buckets.get(this.smallest)!.values().next().value as bigint | string;
    const floor = this.smallest;
    this.leave(evicted, floor);
    this.counters.delete(evicted);
    this.enter(item, floor + increment);
    if (!this.buckets.has(floor)) this.smallest = increment === 1 ? floor + 1 : this.findSmallest();
  }

  private enter(item: bigint | string, count: number): void {
    this.counters.set(item, count);
    let bucket = this.buckets.get(count);
    if (bucket === undefined) {
      bucket = new Set();
      this.buckets.set(count, bucket);
    }
    bucket.add(item);
  }

  private leave(item: bigint | string, count: number): void {
    const bucket = this.buckets.get(count)!;
    bucket.delete(item);
    if (bucket.size === 0) this.buckets.delete(count);
  }

  private findSmallest(): number {
    let smallest = Infinity;
    for (const count of this.buckets.keys()) if (count < smallest) smallest = count;
    return smallest;
  }

  top(k: number): Array<[bigint | string, number]> {
    return [...this.counters].sort((a, b) => b[1] - a[1]).slice(0, k);
  }
}

class ApproxMostFrequentAccumulator implements GroupedAccumulator {
  private groups: (StreamSummary | undefined)[] = [];
  private buckets: number | undefined;
  private counters = 0;

  constructor(private readonly valueType: SqlType) {}

  ensureCapacity(groupCount: number): void {
    if (this.groups.length < groupCount) this.groups.length = groupCount;
  }

  private summary(group: number, capacity: number): StreamSummary {
    let summary = this.groups[group];
    if (summary === undefined) {
      summary = new StreamSummary(capacity);
      this.groups[group] = summary;
    }
    return summary;
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const [buckets, values, capacities] = args;
    for (let i = start; i < end; i++) {
      if ([buckets, values, capacities].some((c) => c.nulls !== null && c.nulls[i] === 1)) continue;
      const bucketCount = getScalar(buckets, i) as bigint;
      if (bucketCount < 2n)
        throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'approx_most_frequent bucket count must be greater than one');
      const capacity = getScalar(capacities, i) as bigint;
      if (capacity < 1n || capacity > 2147483647n)
        throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'approx_most_frequent capacity must be between 1 and 2147483647');
      this.buckets = Number(bucketCount);
      const summary = this.summary(groupIds[i], Number(capacity));
      const before = summary.counters.size;
      summary.offer(getScalar(values, i) as bigint | string, 1);
      this.counters += summary.counters.size - before;
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const [items, counts, buckets, capacities] = intermediates;
    for (let i = start; i < end; i++) {
      const groupItems = getScalar(items, i) as readonly (bigint | string)[] | null;
      if (groupItems === null) continue;
      this.buckets = Number(getScalar(buckets, i) as bigint);
      const summary = this.summary(groupIds[i], Number(getScalar(capacities, i) as bigint));
      const groupCounts = getScalar(counts, i) as readonly bigint[];
      const before = summary.counters.size;
      groupItems.forEach((item, j) => summary.offer(item, Number(groupCounts[j])));
      this.counters += summary.counters.size - before;
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    const groups = this.groups.slice(start, end);
    const length = end - start;
    const tops = groups.map((g) => g?.top(g.capacity));
    const constant = (value: (g: StreamSummary) => number) => ({
      type: BIGINT,
      length,
      values: BigInt64Array.from(groups, (g) => BigInt(g === undefined ? 0 : value(g))),
      nulls: null,
    });
    return [
      listColumnFromRows(
        arrayOf(this.valueType),
        tops.map((t) => (t === undefined ? null : t.map(([item]) => item))),
        length,
      ),
      listColumnFromRows(
        arrayOf(BIGINT),
        tops.map((t) => (t === undefined ? null : t.map(([, count]) => BigInt(count)))),
        length,
      ),
      constant(() => this.buckets ?? 0),
      constant((g) => g.capacity),
    ];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(mapOf(this.valueType, BIGINT), start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const summary = this.groups[group];
    if (summary === undefined || this.buckets === undefined) {
      out.nulls[row] = 1;
      return;
    }
    const top = summary.top(this.buckets);
    (out.values as Scalar[])[row] = new MapValue(
      top.map(([item]) => item),
      top.map(([, count]) => BigInt(count)),
    );
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    return 8 * this.groups.length + 3 * this.counters * BOXED_VALUE_BYTES;
  }
}

export function approxMostFrequentFunction(types: readonly SqlType[]): AggregateFunction | undefined {
  if (types.length !== 3) return undefined;
  const value = types[1];
  const valueType =
    value.kind === 'varchar' || value.kind === 'char'
      ? VARCHAR
      : ['tinyint', 'smallint', 'integer', 'bigint', 'unknown'].includes(value.kind)
        ? BIGINT
        : undefined;
  if (valueType === undefined) return undefined;
  return {
    name: 'approx_most_frequent',
    argumentTypes: [BIGINT, valueType, BIGINT],
    returnType: mapOf(valueType, BIGINT),
    intermediateTypes: [arrayOf(valueType), arrayOf(BIGINT), BIGINT, BIGINT],
    createAccumulator: () => new ApproxMostFrequentAccumulator(valueType),
  };
}
