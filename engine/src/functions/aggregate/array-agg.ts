// array_agg(x [ORDER BY k1, ...]): every input value of a group (NULLs included) as an array, in
// input order or sorted by the ORDER BY keys (stable: ties keep input order). The intermediate state
// is the values and each key as arrays side by side, so a partial step on each worker and a final
// step merging them give the same array as one step; an empty group (every row filtered out) is NULL.

import { getScalar, type Column } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { listColumnFromRows } from '../../columnar/list-column.js';
import { BOXED_VALUE_BYTES, POINTER_BYTES } from '../../columnar/memory-estimate.js';
import { type SqlType, arrayOf } from '../../types/types.js';
import { scalarComparator } from '../scalar/value-comparison.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';

/** One ORDER BY key of an aggregate call. */
export interface AggregateOrdering {
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
}

export class ArrayAggAccumulator implements GroupedAccumulator {
  /** Per group: the values, then each key's values, in input order (undefined: no row yet). */
  private groups: (Scalar[][] | undefined)[] = [];
  private elements = 0;

  constructor(
    private readonly types: readonly SqlType[],
    private readonly ordering: readonly AggregateOrdering[],
  ) {}

  ensureCapacity(groupCount: number): void {
    if (this.groups.length < groupCount) this.groups.length = groupCount;
  }

  private state(group: number): Scalar[][] {
    let lists = this.groups[group];
    if (lists === undefined) {
      lists = this.types.map(() => []);
      this.groups[group] = lists;
    }
    return lists;
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    for (let i = start; i < end; i++) {
      const lists = this.state(groupIds[i]);
      for (let c = 0; c < lists.length; c++) lists[c].push(getScalar(args[c], i));
    }
    this.elements += (end - start) * this.types.length;
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    for (let i = start; i < end; i++) {
      const first = getScalar(intermediates[0], i) as readonly Scalar[] | null;
      if (first === null) continue;
      const lists = this.state(groupIds[i]);
      for (let c = 0; c < lists.length; c++) {
        const part = c === 0 ? first : (getScalar(intermediates[c], i) as readonly Scalar[]);
        for (const v of part) lists[c].push(v);
        this.elements += part.length;
      }
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    return this.types.map((type, c) =>
      listColumnFromRows(
        arrayOf(type),
        this.groups.slice(start, end).map((lists) => (lists === undefined ? null : lists[c])),
        end - start,
      ),
    );
  }

  writeFinal(start: number, end: number): Column {
    const rows: (Scalar[] | null)[] = [];
    for (let g = start; g < end; g++) rows.push(this.orderedValues(g));
    return listColumnFromRows(arrayOf(this.types[0]), rows, end - start);
  }

  /** The group's values in the call's order (NULL values included), or null when it had no row. */
  orderedValues(group: number): Scalar[] | null {
    return this.orderedColumns(group, 1)?.[0] ?? null;
  }

  /** The group's first `count` columns, their rows in the call's order; null when it had no row. */
  orderedColumns(group: number, count: number): Scalar[][] | null {
    const lists = this.groups[group];
    if (lists === undefined || lists[0].length === 0) return null;
    if (this.ordering.length === 0) return lists.slice(0, count).map((l) => l.slice());
    const keyColumns = lists.length - this.ordering.length;
    const compare = this.ordering.map((o, k) => {
      const values = compareKey(this.types[keyColumns + k], o);
      const keys = lists[keyColumns + k];
      return (a: number, b: number) => values(keys[a], keys[b]);
    });
    const order = Array.from(lists[0], (_, i) => i);
    order.sort((a, b) => {
      for (const c of compare) {
        const r = c(a, b);
        if (r !== 0) return r;
      }
      return a - b;
    });
    return lists.slice(0, count).map((l) => order.map((i) => l[i]));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const value = this.orderedValues(group);
    (out.values as unknown as Scalar[])[row] = value;
    out.nulls[row] = value === null ? 1 : 0;
  }

  sizeInBytes(): number {
    return this.groups.length * POINTER_BYTES + this.elements * BOXED_VALUE_BYTES;
  }
}

/** The order of one key, NULLs first or last whatever the direction. */
function compareKey(type: SqlType, ordering: AggregateOrdering): (a: Scalar, b: Scalar) => number {
  const compare = scalarComparator(type);
  const direction = ordering.ascending ? 1 : -1;
  const nulls = ordering.nullsFirst ? -1 : 1;
  return (a, b) => {
    if (a === null || b === null) return a === b ? 0 : a === null ? nulls : -nulls;
    return direction * compare(a, b);
  };
}

/** array_agg over `types` (the value, then the ORDER BY keys). */
export function arrayAggFunction(types: readonly SqlType[], ordering: readonly AggregateOrdering[]): AggregateFunction {
  return {
    name: 'array_agg',
    argumentTypes: [...types],
    returnType: arrayOf(types[0]),
    intermediateTypes: types.map(arrayOf),
    ordering,
    createAccumulator: () => new ArrayAggAccumulator(types, ordering),
  };
}
