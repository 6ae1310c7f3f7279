// One aggregate call inside a hash aggregation: routes a page's argument columns (after the FILTER
// mask and DISTINCT) into its grouped accumulator, or merges intermediate columns in a final step.

import { EngineError } from '../../errors/engine-error.js';
import type { AggregateFunction, GroupedAccumulator } from '../../functions/aggregate/aggregate-function.js';
import { takeColumn, type Column, type Page } from '../../columnar/page.js';
import { INTEGER } from '../../types/types.js';
import { compileExpression } from '../expression/compiler.js';
import { newKeyGroupTable, type KeyGroupTable } from '../hash/key-group-table.js';

export type AggregationStep = 'single' | 'partial' | 'final';

export interface AggregateCallSpec {
  function: AggregateFunction;
  /** Raw argument channels; in a final step, the channels of the intermediate columns. */
  argumentChannels: number[];
  distinct: boolean;
  /** A boolean column: only rows where it is TRUE count (the FILTER clause). */
  maskChannel?: number;
}

export class AggregateCall {
  readonly accumulator: GroupedAccumulator;
  /** Seen (group, arguments) pairs, for DISTINCT. */
  private readonly seen: KeyGroupTable | null;
  private seenIds = new Int32Array(0);

  constructor(
    private readonly spec: AggregateCallSpec,
    private readonly step: AggregationStep,
  ) {
    if (spec.distinct && step !== 'single') {
      throw new EngineError('NOT_SUPPORTED', `DISTINCT aggregation ${spec.function.name} cannot run as a ${step} step`);
    }
    this.accumulator = spec.function.createAccumulator(compileExpression);
    this.seen = spec.distinct ? newKeyGroupTable([INTEGER, ...spec.function.argumentTypes]) : null;
  }

  /** Adds rows [0, count) of `page`; groupIds[i] is row i's group; groups below groupCount exist. */
  add(page: Page, groupIds: Int32Array, count: number, groupCount: number): void {
    this.accumulator.ensureCapacity(groupCount);
    let args = this.spec.argumentChannels.map((c) => page.columns[c]);
    if (this.step === 'final') {
      this.accumulator.addIntermediate(groupIds, args, 0, count);
      return;
    }
    let ids = groupIds;
    let n = count;
    if (this.spec.maskChannel !== undefined) {
      const selected = maskedRows(page.columns[this.spec.maskChannel], n);
      if (selected !== null) {
        ids = gatherIds(ids, selected.positions, selected.count);
        args = args.map((a) => takeColumn(a, selected.positions, selected.count));
        n = selected.count;
      }
    }
    if (this.seen !== null) {
      const fresh = this.firstOccurrences(ids, args, n);
      ids = gatherIds(ids, fresh.positions, fresh.count);
      args = args.map((a) => takeColumn(a, fresh.positions, fresh.count));
      n = fresh.count;
    }
    if (n > 0) this.accumulator.addInput(ids, args, 0, n);
  }

  /** The rows whose (group, arguments) the DISTINCT table has not seen before. */
  private firstOccurrences(ids: Int32Array, args: Column[], n: number): { positions: Int32Array; count: number } {
    const seen = this.seen as KeyGroupTable;
    const keys: Column[] = [{ type: INTEGER, length: n, values: ids.subarray(0, n), nulls: null }, ...args];
    if (this.seenIds.length < n) this.seenIds = new Int32Array(n);
    let next = seen.groupCount;
    seen.putRows(keys, n, this.seenIds);
    const positions = new Int32Array(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (this.seenIds[i] === next) {
        positions[count++] = i;
        next++;
      }
    }
    return { positions, count };
  }

  sizeInBytes(): number {
    return this.accumulator.sizeInBytes() + (this.seen === null ? 0 : this.seen.sizeInBytes() + this.seenIds.byteLength);
  }
}

/** Rows where the mask is TRUE; null when every row is. */
function maskedRows(mask: Column, count: number): { positions: Int32Array; count: number } | null {
  const values = mask.values as Uint8Array;
  const nulls = mask.nulls;
  const positions = new Int32Array(count);
  let n = 0;
  for (let i = 0; i < count; i++) if (values[i] === 1 && (nulls === null || nulls[i] === 0)) positions[n++] = i;
  return n === count ? null : { positions, count: n };
}

function gatherIds(ids: Int32Array, positions: Int32Array, count: number): Int32Array {
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = ids[positions[i]];
  return out;
}
