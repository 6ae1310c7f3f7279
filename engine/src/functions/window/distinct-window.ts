// DISTINCT in an aggregate over a window (array_agg(DISTINCT x) OVER w), as Trino's window
// accumulator does it: each frame's rows reach the function once per distinct combination of the
// call's argument columns (its ORDER BY keys included). Only over windows: a grouped DISTINCT
// aggregate is planned with MarkDistinct, so this accumulator has no intermediate state.

import { getScalar, type Column } from '../../columnar/page.js';
import { BOXED_VALUE_BYTES } from '../../columnar/memory-estimate.js';
import { EngineError } from '../../errors/engine-error.js';
import type { SqlType } from '../../types/types.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from '../aggregate/aggregate-function.js';
import { distinctKeyOf, type DistinctKey } from '../scalar/distinct-key.js';

/**
 * `inner` over the distinct rows of its arguments and of `extraKeyTypes` columns after them (ORDER
 * BY keys of a function that ignores order, which still make rows distinct).
 */
export function distinctWindowAggregate(inner: AggregateFunction, extraKeyTypes: readonly SqlType[]): AggregateFunction {
  const types = [...inner.argumentTypes, ...extraKeyTypes];
  const keys = types.map(distinctKeyOf);
  return {
    name: inner.name,
    argumentTypes: types,
    returnType: inner.returnType,
    intermediateTypes: inner.intermediateTypes,
    createAccumulator: (compileLambda) => new DistinctAccumulator(inner.createAccumulator(compileLambda), inner.argumentTypes.length, keys),
  };
}

class DistinctAccumulator implements GroupedAccumulator {
  /** Per group: the keys of the argument rows it took. */
  private seen: (Set<unknown> | undefined)[] = [];
  private keyCount = 0;

  constructor(
    private readonly inner: GroupedAccumulator,
    private readonly innerArguments: number,
    private readonly keys: readonly DistinctKey[],
  ) {}

  ensureCapacity(groupCount: number): void {
    if (this.seen.length < groupCount) this.seen.length = groupCount;
    this.inner.ensureCapacity(groupCount);
  }

  private rowKey(args: readonly Column[], row: number): unknown {
    if (args.length === 1) return this.keys[0](getScalar(args[0], row));
    return JSON.stringify(args.map((c, i) => keyText(this.keys[i](getScalar(c, row)))));
  }

  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const own = args.slice(0, this.innerArguments);
    // Runs of rows seen for the first time go to the function together.
    let run = -1;
    for (let i = start; i < end; i++) {
      const g = groupIds[i];
      let seen = this.seen[g];
      if (seen === undefined) {
        seen = new Set();
        this.seen[g] = seen;
      }
      const key = this.rowKey(args, i);
      const first = !seen.has(key);
      if (first) {
        seen.add(key);
        this.keyCount++;
        if (run < 0) run = i;
      } else if (run >= 0) {
        this.inner.addInput(groupIds, own, run, i);
        run = -1;
      }
    }
    if (run >= 0) this.inner.addInput(groupIds, own, run, end);
  }

  addIntermediate(): void {
    throw new EngineError('GENERIC_INTERNAL_ERROR', 'a DISTINCT window aggregate has no intermediate state');
  }

  writeIntermediate(): Column[] {
    throw new EngineError('GENERIC_INTERNAL_ERROR', 'a DISTINCT window aggregate has no intermediate state');
  }

  writeFinal(start: number, end: number): Column {
    return this.inner.writeFinal(start, end);
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    this.inner.writeFinalAt(group, out, row);
  }

  sizeInBytes(): number {
    return this.inner.sizeInBytes() + this.keyCount * BOXED_VALUE_BYTES;
  }
}

function keyText(key: unknown): unknown {
  return typeof key === 'bigint' ? `${key}n` : key;
}
