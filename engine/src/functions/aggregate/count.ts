// count(*), count(x) and count_if(b): a double per group (exact far beyond any row count), written
// out as bigint through its words.

import type { Column } from '../../columnar/page.js';
import { int64Words } from '../../columnar/hash-functions.js';
import { BIGINT, BOOLEAN, type SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from './aggregate-function.js';
import { grow } from './accumulator-support.js';
import { isSafeInt64, readInt64Number } from '../../columnar/int64-numbers.js';

export type CountMode = 'rows' | 'non-null' | 'true';

class CountAccumulator implements GroupedAccumulator {
  private counts = new Float64Array(16);

  constructor(private readonly mode: CountMode) {}

  ensureCapacity(groupCount: number): void {
    this.counts = grow(this.counts, groupCount);
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const counts = this.counts;
    if (this.mode === 'rows') {
      for (let i = start; i < end; i++) counts[groupIds[i]]++;
      return;
    }
    const nulls = args[0].nulls;
    if (this.mode === 'true') {
      const values = args[0].values as Uint8Array;
      for (let i = start; i < end; i++) if (values[i] === 1 && (nulls === null || nulls[i] === 0)) counts[groupIds[i]]++;
      return;
    }
    if (args[0].type.kind === 'unknown') return;
    if (nulls === null) for (let i = start; i < end; i++) counts[groupIds[i]]++;
    else for (let i = start; i < end; i++) if (nulls[i] === 0) counts[groupIds[i]]++;
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const column = intermediates[0];
    const words = int64Words(column.values as BigInt64Array);
    const nulls = column.nulls;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      this.counts[groupIds[i]] += isSafeInt64(words, i) ? readInt64Number(words, i) : Number((column.values as BigInt64Array)[i]);
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [this.writeFinal(start, end)];
  }

  writeFinal(start: number, end: number): Column {
    const values = new BigInt64Array(end - start);
    for (let g = start; g < end; g++) values[g - start] = BigInt(this.counts[g]);
    return { type: BIGINT, length: end - start, values, nulls: null };
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    (out.values as BigInt64Array)[row] = BigInt(this.counts[group]);
    out.nulls[row] = 0;
  }

  sizeInBytes(): number {
    return this.counts.byteLength;
  }
}

export function countFunction(name: string, mode: CountMode, argumentTypes: SqlType[]): AggregateFunction {
  return {
    name,
    argumentTypes: mode === 'true' ? [BOOLEAN] : argumentTypes,
    returnType: BIGINT,
    intermediateTypes: [BIGINT],
    createAccumulator: () => new CountAccumulator(mode),
  };
}
