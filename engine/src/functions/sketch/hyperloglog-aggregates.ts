// approx_set(x) and merge(HyperLogLog), as Trino has them: a HyperLogLog of 4096 buckets (standard
// error 1.04/64 = 1.625%) per group, NULL for a group without a non-null value. The partial step
// emits the serialized sketch, which the final step merges.

import type { Column } from '../../spi/page.js';
import { BIGINT, DOUBLE, HYPER_LOG_LOG, isString, type SqlType } from '../../types/types.js';
import { canCoerce } from '../../types/coercion.js';
import type { AggregateFunction, ColumnOutput, GroupedAccumulator } from '../aggregate/aggregate-function.js';
import { finalColumn } from '../aggregate/accumulator-support.js';
import { HyperLogLog } from './hyperloglog.js';
import { hashValueAt } from './value-hash.js';

export const APPROX_SET_BUCKETS = 4096;

/** Per-group sketches; `addInput` is what differs between approx_set and merge. */
abstract class SketchAccumulator implements GroupedAccumulator {
  protected sketches: (HyperLogLog | undefined)[] = [];

  ensureCapacity(groupCount: number): void {
    while (this.sketches.length < groupCount) this.sketches.push(undefined);
  }

  abstract addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void;

  /** Merges serialized sketches (merge's input, and every partial state) into the groups. */
  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const column = intermediates[0];
    const values = column.values as Uint8Array[];
    for (let i = start; i < end; i++) {
      if (column.nulls !== null && column.nulls[i] === 1) continue;
      const incoming = HyperLogLog.deserialize(values[i]);
      const current = this.sketches[groupIds[i]];
      if (current === undefined) this.sketches[groupIds[i]] = incoming;
      else current.mergeWith(incoming);
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [this.writeFinal(start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(HYPER_LOG_LOG, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
  }

  writeFinalAt(group: number, out: ColumnOutput, row: number): void {
    const sketch = this.sketches[group];
    out.nulls[row] = sketch === undefined ? 1 : 0;
    if (sketch !== undefined) (out.values as Uint8Array[])[row] = sketch.serialize();
  }

  sizeInBytes(): number {
    let bytes = this.sketches.length * 8;
    for (const sketch of this.sketches) if (sketch !== undefined) bytes += sketch.sizeInBytes();
    return bytes;
  }
}

class ApproxSetAccumulator extends SketchAccumulator {
  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    if (column.type.kind === 'unknown') return;
    for (let i = start; i < end; i++) {
      if (column.nulls !== null && column.nulls[i] === 1) continue;
      const g = groupIds[i];
      const sketch = this.sketches[g] ?? (this.sketches[g] = HyperLogLog.empty(APPROX_SET_BUCKETS));
      sketch.addHash(hashValueAt(column, i));
    }
  }
}

class MergeAccumulator extends SketchAccumulator {
  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    this.addIntermediate(groupIds, args, start, end);
  }
}

/** approx_set over bigint (and the integers), double (and real) or varchar; undefined otherwise. */
export function approxSetFunction(argumentType: SqlType): AggregateFunction | undefined {
  const input = isString(argumentType) && argumentType.kind === 'varchar' ? argumentType : [BIGINT, DOUBLE].find((t) => canCoerce(argumentType, t));
  if (input === undefined) return undefined;
  return { name: 'approx_set', argumentTypes: [input], returnType: HYPER_LOG_LOG, intermediateTypes: [HYPER_LOG_LOG], createAccumulator: () => new ApproxSetAccumulator() };
}

/** merge(HyperLogLog) (a P4HyperLogLog is coerced to HyperLogLog, as in Trino). */
export function mergeHyperLogLogFunction(argumentType: SqlType): AggregateFunction | undefined {
  if (!canCoerce(argumentType, HYPER_LOG_LOG)) return undefined;
  return { name: 'merge', argumentTypes: [HYPER_LOG_LOG], returnType: HYPER_LOG_LOG, intermediateTypes: [HYPER_LOG_LOG], createAccumulator: () => new MergeAccumulator() };
}
