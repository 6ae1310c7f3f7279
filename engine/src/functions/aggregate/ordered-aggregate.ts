// ORDER BY inside the call of an order-sensitive aggregate that has no ordered form of its own
// (map_agg(k, v ORDER BY t): the first value of a key in that order wins): the group's rows are
// kept, with their ORDER BY keys, as array_agg keeps them, and fed to the function in the call's
// order when the group's value is asked for. The intermediate state is those rows as arrays side
// by side (array_agg's), so partial steps and a final step give what one step gives.

import { columnFromScalars, type Column } from '../../columnar/page.js';
import { arrayOf, type SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator, LambdaCompiler } from './aggregate-function.js';
import { ArrayAggAccumulator, type AggregateOrdering } from './array-agg.js';

/** `inner` taking its rows in the order of `ordering` over keys of `keyTypes` (its last arguments). */
export function orderedAggregate(
  inner: AggregateFunction,
  keyTypes: readonly SqlType[],
  ordering: readonly AggregateOrdering[],
): AggregateFunction {
  const types = [...inner.argumentTypes, ...keyTypes];
  return {
    name: inner.name,
    argumentTypes: types,
    returnType: inner.returnType,
    intermediateTypes: types.map(arrayOf),
    ordering,
    createAccumulator: (compileLambda) => new OrderedAccumulator(inner, types, ordering, compileLambda),
  };
}

class OrderedAccumulator implements GroupedAccumulator {
  private readonly rows: ArrayAggAccumulator;

  constructor(
    private readonly inner: AggregateFunction,
    types: readonly SqlType[],
    ordering: readonly AggregateOrdering[],
    private readonly compileLambda: LambdaCompiler | undefined,
  ) {
    this.rows = new ArrayAggAccumulator(types, ordering);
  }

  ensureCapacity(groupCount: number): void {
    this.rows.ensureCapacity(groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    this.rows.addInput(groupIds, args, start, end);
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    this.rows.addIntermediate(groupIds, intermediates, start, end);
  }

  writeIntermediate(start: number, end: number): Column[] {
    return this.rows.writeIntermediate(start, end);
  }

  writeFinal(start: number, end: number): Column {
    return this.folded(start, end).writeFinal(0, end - start);
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    this.folded(group, group + 1).writeFinalAt(0, out, row);
  }

  /** A fresh accumulator of the function holding groups [start, end) (as 0, 1, ...), each fed its rows in order. */
  private folded(start: number, end: number): GroupedAccumulator {
    const accumulator = this.inner.createAccumulator(this.compileLambda);
    accumulator.ensureCapacity(end - start);
    const argumentTypes = this.inner.argumentTypes;
    for (let g = start; g < end; g++) {
      const values = this.rows.orderedColumns(g, argumentTypes.length);
      if (values === null) continue;
      const n = values[0].length;
      accumulator.addInput(
        new Int32Array(n).fill(g - start),
        values.map((v, c) => columnFromScalars(argumentTypes[c], v)),
        0,
        n,
      );
    }
    return accumulator;
  }

  sizeInBytes(): number {
    return this.rows.sizeInBytes();
  }
}
