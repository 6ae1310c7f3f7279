// arbitrary(x) / any_value(x): the first non-NULL value each group sees.

import type { Column } from '../../columnar/page.js';
import { GrowableColumn } from '../../columnar/growable-column.js';
import type { SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, grow } from './accumulator-support.js';

class ArbitraryAccumulator implements GroupedAccumulator {
  private readonly value: GrowableColumn;
  private has = new Uint8Array(16);

  constructor(private readonly type: SqlType) {
    this.value = new GrowableColumn(type, 16);
  }

  ensureCapacity(groupCount: number): void {
    this.value.ensureCapacity(groupCount);
    this.has = grow(this.has, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    if (column.type.kind === 'unknown') return;
    const copy = this.value.copierFrom(column);
    const nulls = column.nulls;
    const has = this.has;
    for (let i = start; i < end; i++) {
      const g = groupIds[i];
      if (has[g] === 1 || (nulls !== null && nulls[i] === 1)) continue;
      copy(i, g);
      has[g] = 1;
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    this.addInput(groupIds, intermediates, start, end);
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [this.writeFinal(start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(this.type, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    if (this.has[group] === 0) {
      out.nulls[row] = 1;
      return;
    }
    (out.values as unknown[])[row] = (this.value.values as ArrayLike<unknown>)[group];
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    return this.value.sizeInBytes() + this.has.byteLength;
  }
}

export function arbitraryFunction(name: string, type: SqlType): AggregateFunction {
  return {
    name,
    argumentTypes: [type],
    returnType: type,
    intermediateTypes: [type],
    createAccumulator: () => new ArbitraryAccumulator(type),
  };
}
