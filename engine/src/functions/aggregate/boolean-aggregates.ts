// bool_and(b) / every(b) and bool_or(b): per group 0 = no value yet, 1 = TRUE, 2 = FALSE.

import type { Column } from '../../columnar/page.js';
import { BOOLEAN } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, grow } from './accumulator-support.js';

const TRUE = 1;
const FALSE = 2;

class BooleanAccumulator implements GroupedAccumulator {
  private state = new Uint8Array(16);

  constructor(private readonly isAnd: boolean) {}

  ensureCapacity(groupCount: number): void {
    this.state = grow(this.state, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    if (column.type.kind === 'unknown') return;
    const values = column.values as Uint8Array;
    const nulls = column.nulls;
    const state = this.state;
    // AND: FALSE wins; OR: TRUE wins.
    const winner = this.isAnd ? FALSE : TRUE;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const g = groupIds[i];
      if (state[g] === winner) continue;
      state[g] = values[i] === 1 ? TRUE : FALSE;
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    this.addInput(groupIds, intermediates, start, end);
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [this.writeFinal(start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(BOOLEAN, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const s = this.state[group];
    out.nulls[row] = s === 0 ? 1 : 0;
    (out.values as Uint8Array)[row] = s === TRUE ? 1 : 0;
  }

  sizeInBytes(): number {
    return this.state.byteLength;
  }
}

export function booleanAggregate(name: string, isAnd: boolean): AggregateFunction {
  return {
    name,
    argumentTypes: [BOOLEAN],
    returnType: BOOLEAN,
    intermediateTypes: [BOOLEAN],
    createAccumulator: () => new BooleanAccumulator(isAnd),
  };
}
