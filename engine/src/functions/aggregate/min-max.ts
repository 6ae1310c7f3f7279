// min(x), max(x), min_by(x, y), max_by(x, y) over every orderable type, in Trino's ordering (NaN is
// the largest double). The best key of each group lives in a GrowableColumn; numbers compare in a
// typed loop, other types through a comparator specialised per storage.

import { getScalar, type Column, type ColumnValues } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { scalarComparator } from '../scalar/value-comparison.js';
import { GrowableColumn } from '../../columnar/growable-column.js';
import { makeValueCompare } from '../scalar/value-ordering.js';
import type { SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { grow } from './accumulator-support.js';

/**
 * For each non-NULL row of `keys` in [start, end) that beats its group's best key (or whose group
 * has none yet), calls `take(row, group)` and marks the group.
 */
function updateBest(
  groupIds: Int32Array,
  keys: Column,
  best: GrowableColumn,
  has: Uint8Array,
  isMax: boolean,
  start: number,
  end: number,
  take: (row: number, group: number) => void,
): void {
  if (keys.type.kind === 'unknown') return;
  const nulls = keys.nulls;
  const values = keys.values;
  if (keys.type.kind === 'array' || keys.type.kind === 'row') {
    // Arrays are held as JS arrays in the state (GrowableColumn) and compare element by element.
    const compareArrays = scalarComparator(keys.type);
    const current = best.values as Scalar[];
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const g = groupIds[i];
      const c = has[g] === 0 ? 0 : compareArrays(getScalar(keys, i), current[g]);
      if (has[g] === 0 || (isMax ? c > 0 : c < 0)) {
        take(i, g);
        has[g] = 1;
      }
    }
    return;
  }
  if (!Array.isArray(values) && !(values instanceof BigInt64Array)) {
    const v = values as Float64Array;
    const current = best.values as Float64Array;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const g = groupIds[i];
      const x = v[i];
      const c = current[g];
      const better = isMax ? x > c || (x !== x && c === c) : x < c || (c !== c && x === x);
      if (has[g] === 0 || better) {
        take(i, g);
        has[g] = 1;
      }
    }
    return;
  }
  const compare = makeValueCompare(keys.type, values, best.values as ColumnValues);
  for (let i = start; i < end; i++) {
    if (nulls !== null && nulls[i] === 1) continue;
    const g = groupIds[i];
    if (has[g] === 0) {
      take(i, g);
      has[g] = 1;
      continue;
    }
    const c = compare(i, g);
    if (isMax ? c > 0 : c < 0) take(i, g);
  }
}

/** Rows [start, end) of a state column, NULL where the group has no value. */
function stateColumn(state: GrowableColumn, has: Uint8Array, start: number, end: number): Column {
  const column = state.toColumn(start, end);
  let nulls = column.nulls;
  for (let g = start; g < end; g++) {
    if (has[g] === 0) {
      if (nulls === null) nulls = new Uint8Array(end - start);
      nulls[g - start] = 1;
    }
  }
  return { ...column, nulls };
}

function writeStateAt(state: GrowableColumn, present: boolean, group: number, out: ColumnOutput, row: number): void {
  if (!present || (state.nulls !== null && state.nulls[group] === 1)) {
    out.nulls[row] = 1;
    return;
  }
  (out.values as unknown[])[row] = (state.values as ArrayLike<unknown>)[group];
  out.nulls[row] = 0;
}

class ExtremeAccumulator implements GroupedAccumulator {
  private readonly best: GrowableColumn;
  private has = new Uint8Array(16);

  constructor(
    type: SqlType,
    private readonly isMax: boolean,
  ) {
    this.best = new GrowableColumn(type, 16);
  }

  ensureCapacity(groupCount: number): void {
    this.best.ensureCapacity(groupCount);
    this.has = grow(this.has, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const copy = this.best.copierFrom(args[0]);
    updateBest(groupIds, args[0], this.best, this.has, this.isMax, start, end, copy);
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    this.addInput(groupIds, intermediates, start, end);
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [this.writeFinal(start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return stateColumn(this.best, this.has, start, end);
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    writeStateAt(this.best, this.has[group] === 1, group, out, row);
  }

  sizeInBytes(): number {
    return this.best.sizeInBytes() + this.has.byteLength;
  }
}

/** max_by / min_by: the value of x on the row with the largest / smallest y. */
class ByKeyAccumulator implements GroupedAccumulator {
  private readonly keys: GrowableColumn;
  private readonly values: GrowableColumn;
  private has = new Uint8Array(16);

  constructor(
    valueType: SqlType,
    keyType: SqlType,
    private readonly isMax: boolean,
  ) {
    this.keys = new GrowableColumn(keyType, 16);
    this.values = new GrowableColumn(valueType, 16);
  }

  ensureCapacity(groupCount: number): void {
    this.keys.ensureCapacity(groupCount);
    this.values.ensureCapacity(groupCount);
    this.has = grow(this.has, groupCount);
  }

  private add(groupIds: Int32Array, values: Column, keys: Column, start: number, end: number): void {
    const copyKey = this.keys.copierFrom(keys);
    const copyValue = this.values.copierFrom(values);
    updateBest(groupIds, keys, this.keys, this.has, this.isMax, start, end, (row, group) => {
      copyKey(row, group);
      copyValue(row, group);
    });
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    this.add(groupIds, args[0], args[1], start, end);
  }

  /** Intermediate columns: [key, value]. */
  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    this.add(groupIds, intermediates[1], intermediates[0], start, end);
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [stateColumn(this.keys, this.has, start, end), this.writeFinal(start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return stateColumn(this.values, this.has, start, end);
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    writeStateAt(this.values, this.has[group] === 1, group, out, row);
  }

  sizeInBytes(): number {
    return this.keys.sizeInBytes() + this.values.sizeInBytes() + this.has.byteLength;
  }
}

export function extremeFunction(name: 'min' | 'max', type: SqlType): AggregateFunction {
  return {
    name,
    argumentTypes: [type],
    returnType: type,
    intermediateTypes: [type],
    createAccumulator: () => new ExtremeAccumulator(type, name === 'max'),
  };
}

export function byKeyFunction(name: 'min_by' | 'max_by', valueType: SqlType, keyType: SqlType): AggregateFunction {
  return {
    name,
    argumentTypes: [valueType, keyType],
    returnType: valueType,
    intermediateTypes: [keyType, valueType],
    createAccumulator: () => new ByKeyAccumulator(valueType, keyType, name === 'max_by'),
  };
}
