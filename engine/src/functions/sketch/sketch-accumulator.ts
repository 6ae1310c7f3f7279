// The grouped accumulator every sketch aggregate shares: one sketch per group (NULL for a group that
// saw no non-null value), partial states and outputs as the serialized sketch, which the final step
// (and merge-style aggregates, whose input is sketches) merges. How raw values enter is the subclass's.

import type { Column } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import type { ColumnOutput, GroupedAccumulator } from '../aggregate/aggregate-function.js';
import { finalColumn } from '../aggregate/accumulator-support.js';
import { rowHasher } from './value-hash.js';

export interface MergeableSketch<S> {
  mergeWith(other: S): void;
  serialize(): Uint8Array;
  sizeInBytes(): number;
}

export interface SketchCodec<S extends MergeableSketch<S>> {
  readonly type: SqlType;
  deserialize(bytes: Uint8Array): S;
}

export class SketchAccumulator<S extends MergeableSketch<S>> implements GroupedAccumulator {
  protected sketches: (S | undefined)[] = [];

  constructor(private readonly codec: SketchCodec<S>) {}

  ensureCapacity(groupCount: number): void {
    while (this.sketches.length < groupCount) this.sketches.push(undefined);
  }

  /** Input rows are serialized sketches (merge aggregates); raw-value aggregates override this. */
  addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    this.addIntermediate(groupIds, args, start, end);
  }

  addIntermediate(groupIds: Int32Array, intermediates: readonly Column[], start: number, end: number): void {
    const column = intermediates[0];
    const values = column.values as Uint8Array[];
    for (let i = start; i < end; i++) {
      if (column.nulls !== null && column.nulls[i] === 1) continue;
      const incoming = this.codec.deserialize(values[i]);
      const current = this.sketches[groupIds[i]];
      if (current === undefined) this.sketches[groupIds[i]] = incoming;
      else current.mergeWith(incoming);
    }
  }

  writeIntermediate(start: number, end: number): Column[] {
    return [this.writeFinal(start, end)];
  }

  writeFinal(start: number, end: number): Column {
    return finalColumn(this.codec.type, start, end, (g, out, row) => this.writeFinalAt(g, out, row));
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

/** An accumulator adding each non-null input value's hash (value-hash.ts) to its group's sketch (made by `create`). */
export class HashingAccumulator<
  S extends MergeableSketch<S> & { addHashWords(high: number, low: number): void },
> extends SketchAccumulator<S> {
  private readonly hash = new Uint32Array(2);

  constructor(
    codec: SketchCodec<S>,
    private readonly create: () => S,
  ) {
    super(codec);
  }

  override addInput(groupIds: Int32Array, args: readonly Column[], start: number, end: number): void {
    const column = args[0];
    if (column.type.kind === 'unknown') return;
    const hashRow = rowHasher(column);
    const hash = this.hash;
    for (let i = start; i < end; i++) {
      if (column.nulls !== null && column.nulls[i] === 1) continue;
      const g = groupIds[i];
      const sketch = this.sketches[g] ?? (this.sketches[g] = this.create());
      hashRow(i, hash);
      sketch.addHashWords(hash[0], hash[1]);
    }
  }
}
