// min(x, n), max(x, n), min_by(x, y, n) and max_by(x, y, n): per group the n best (key, value)
// pairs, kept sorted best first (binary search and insert: n is at most 10,000, as Trino bounds
// it). Rows with a NULL key are skipped; a NULL value is kept (min_by/max_by). The intermediate
// state is the keys and values as arrays and n, so partial and final steps give one pass's result.

import { EngineError } from '../../errors/engine-error.js';
import { getScalar, type Column } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { listColumnFromRows } from '../../columnar/list-column.js';
import { BOXED_VALUE_BYTES } from '../../columnar/memory-estimate.js';
import { BIGINT, type SqlType, arrayOf } from '../../types/types.js';
import { scalarComparator } from '../scalar/value-comparison.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn } from './accumulator-support.js';

const MAX_N = 10_000;

export type TopNName = 'min' | 'max' | 'min_by' | 'max_by';

interface Best {
  keys: Scalar[];
  values: Scalar[];
}

class TopNAccumulator implements GroupedAccumulator {
  private groups: (Best | undefined)[] = [];
  private n: number | undefined;
  private elements = 0;
  private readonly better: (a: Scalar, b: Scalar) => boolean;

  constructor(
    private readonly name: TopNName,
    private readonly keyType: SqlType,
    private readonly valueType: SqlType,
  ) {
    const compare = scalarComparator(keyType);
    this.better = name.startsWith('max') ? (a, b) => compare(a, b) > 0 : (a, b) => compare(a, b) < 0;
  }

  ensureCapacity(groupCount: number): void {
    if (this.groups.length < groupCount) this.groups.length = groupCount;
  }

  private checkedN(n: bigint): number {
    const [argument, fn] = this.name.endsWith('_by') ? ['third', this.name] : ['second', `${this.name}_n`];
    if (n <= 0n)
      throw new EngineError(
        'INVALID_FUNCTION_ARGUMENT',
        this.name.endsWith('_by')
          ? `${argument} argument of ${fn} must be a positive integer`
          : `${argument} argument of ${fn} must be positive`,
      );
    if (n > BigInt(MAX_N))
      throw new EngineError(
        'INVALID_FUNCTION_ARGUMENT',
        `${argument} argument of ${fn} must be less than or equal to ${MAX_N}; found ${n}`,
      );
    return Number(n);
  }

  private offer(group: number, key: Scalar, value: Scalar, n: number): void {
    let best = this.groups[group];
    if (best === undefined) {
      best = { keys: [], values: [] };
      this.groups[group] = best;
    }
    const { keys, values } = best;
    if (keys.length === n && !this.better(key, keys[n - 1])) return;
    // The first position whose key the new one beats (ties keep arrival order).
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.better(key, keys[middle])) high = middle;
      else low = middle + 1;
    }
    keys.splice(low, 0, key);
    values.splice(low, 0, value);
    this.elements++;
    if (keys.length > n) {
      keys.pop();
      values.pop();
      this.elements--;
    }
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const byKey = this.name.endsWith('_by');
    const [values, keys, counts] = byKey ? args : [args[0], args[0], args[1]];
    for (let i = start; i < end; i++) {
      if (keys.nulls !== null && keys.nulls[i] === 1) continue;
      if (counts.nulls !== null && counts.nulls[i] === 1) continue;
      this.n ??= this.checkedN(getScalar(counts, i) as bigint);
      this.offer(groupIds[i], getScalar(keys, i), getScalar(values, i), this.n);
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const [keys, values, counts] = intermediates;
    for (let i = start; i < end; i++) {
      const groupKeys = getScalar(keys, i) as readonly Scalar[] | null;
      if (groupKeys === null) continue;
      this.n ??= Number(getScalar(counts, i) as bigint);
      const groupValues = getScalar(values, i) as readonly Scalar[];
      groupKeys.forEach((key, j) => this.offer(groupIds[i], key, groupValues[j], this.n!));
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    const groups = this.groups.slice(start, end);
    const length = end - start;
    const n = this.n ?? 0;
    return [
      listColumnFromRows(
        arrayOf(this.keyType),
        groups.map((g) => g?.keys ?? null),
        length,
      ),
      listColumnFromRows(
        arrayOf(this.valueType),
        groups.map((g) => g?.values ?? null),
        length,
      ),
      { type: BIGINT, length, values: new BigInt64Array(length).fill(BigInt(n)), nulls: null },
    ];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(arrayOf(this.valueType), start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const best = this.groups[group];
    (out.values as Scalar[])[row] = best === undefined ? null : best.values.slice();
    out.nulls[row] = best === undefined ? 1 : 0;
  }

  sizeInBytes(): number {
    return 8 * this.groups.length + 2 * this.elements * BOXED_VALUE_BYTES;
  }
}

/** min/max(x, n) over (x, n), min_by/max_by(x, y, n) over (x, y, n). */
export function topNFunction(name: TopNName, types: readonly SqlType[]): AggregateFunction {
  const byKey = name.endsWith('_by');
  const valueType = types[0];
  const keyType = byKey ? types[1] : types[0];
  return {
    name,
    argumentTypes: byKey ? [valueType, keyType, BIGINT] : [valueType, BIGINT],
    returnType: arrayOf(valueType),
    intermediateTypes: [arrayOf(keyType), arrayOf(valueType), BIGINT],
    createAccumulator: () => new TopNAccumulator(name, keyType, valueType),
  };
}
