// bitwise_and_agg / bitwise_or_agg / bitwise_xor_agg over bigint: the running value per group kept
// as two 32-bit words (the operations are per bit, so per word), never a BigInt per row.

import type { Column } from '../../columnar/page.js';
import { int64Words } from '../../columnar/hash-functions.js';
import { BIGINT } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { finalColumn, grow } from './accumulator-support.js';

export type BitwiseOperation = 'and' | 'or' | 'xor';

const COMBINE: Record<BitwiseOperation, (a: number, b: number) => number> = {
  and: (a, b) => a & b,
  or: (a, b) => a | b,
  xor: (a, b) => a ^ b,
};

class BitwiseAccumulator implements GroupedAccumulator {
  private words = new Int32Array(32);
  private seen = new Uint8Array(16);

  constructor(private readonly combine: (a: number, b: number) => number) {}

  ensureCapacity(groupCount: number): void {
    this.words = grow(this.words, 2 * groupCount);
    this.seen = grow(this.seen, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    if (column.type.kind === 'unknown') return;
    const input = int64Words(column.values as BigInt64Array);
    const nulls = column.nulls;
    const { words, seen, combine } = this;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const g = groupIds[i];
      const [lo, hi] = [input[2 * i], input[2 * i + 1]];
      words[2 * g] = seen[g] === 1 ? combine(words[2 * g], lo) : lo;
      words[2 * g + 1] = seen[g] === 1 ? combine(words[2 * g + 1], hi) : hi;
      seen[g] = 1;
    }
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    this.addInput(groupIds, intermediates, start, end);
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [this.writeFinal(start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(BIGINT, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const values = int64Words(out.values as BigInt64Array);
    values[2 * row] = this.words[2 * group];
    values[2 * row + 1] = this.words[2 * group + 1];
    out.nulls[row] = this.seen[group] === 1 ? 0 : 1;
  }

  sizeInBytes(): number {
    return this.words.byteLength + this.seen.byteLength;
  }
}

export function bitwiseAggregate(operation: BitwiseOperation): AggregateFunction {
  return {
    name: `bitwise_${operation}_agg`,
    argumentTypes: [BIGINT],
    returnType: BIGINT,
    intermediateTypes: [BIGINT],
    createAccumulator: () => new BitwiseAccumulator(COMBINE[operation]),
  };
}
