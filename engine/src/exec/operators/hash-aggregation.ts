// GROUP BY (and DISTINCT, which is a group by without aggregates): assigns each row a dense group id
// through a key group table (key-group-table.ts), feeds pages (big ones in slices, bounded-pages.ts) into grouped accumulators, and once
// the input ends emits the groups in pages of TARGET_PAGE_ROWS. Without group channels it is a
// global aggregation: exactly one row, even for empty input.

import type { SqlType } from '../../types/types.js';
import { newKeyGroupTable } from '../hash/key-group-table.js';
import type { Column } from '../../columnar/page.js';
import { AggregateCall, type AggregateCallSpec, type AggregationStep } from './aggregate-call.js';
import type { OperatorContext, PageStream } from './operator.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';
import { MemoryReservation, throwIfCanceled } from './operator-support.js';
import { isPartialGrouping, partialGrouping } from './partial-grouping.js';
import { pagesOfAtMost } from './bounded-pages.js';
import { isMainThread } from 'node:worker_threads';

export type { AggregateCallSpec, AggregationStep } from './aggregate-call.js';

export interface HashAggregationSpec {
  inputTypes: readonly SqlType[];
  groupChannels: number[];
  aggregates: AggregateCallSpec[];
  step: AggregationStep;
}

/** Output: the group channels in order, then per aggregate its final value (its intermediates when partial). */
export async function* hashAggregation(ctx: OperatorContext, input: PageStream, spec: HashAggregationSpec): PageStream {
  if (isPartialGrouping(spec)) {
    yield* partialGrouping(ctx, input, spec);
    return;
  }
  const global = spec.groupChannels.length === 0;
  const hash = global ? null : newKeyGroupTable(spec.groupChannels.map((c) => spec.inputTypes[c]));
  const calls = spec.aggregates.map((a) => new AggregateCall(a, spec.step));
  const reservation = new MemoryReservation(ctx.memory);
  let groupCount = global ? 1 : 0;
  let groupIds = new Int32Array(0);
  const retainedBytes = (): number => {
    let bytes = groupIds.byteLength + (hash === null ? 0 : hash.sizeInBytes());
    for (const c of calls) bytes += c.sizeInBytes();
    return bytes;
  };
  try {
    for (const c of calls) c.accumulator.ensureCapacity(groupCount);
    // Grouped, a page's rows cost a hash and key comparisons each: on the event loop's thread big pages
    // go in slices (a copy each); a pool thread answers no heartbeat and takes them whole.
    for await (const page of global || !isMainThread ? input : pagesOfAtMost(ctx, input)) {
      throwIfCanceled(ctx);
      const n = page.rowCount;
      if (n === 0) continue;
      if (groupIds.length < n) groupIds = new Int32Array(n);
      if (hash !== null) {
        hash.putRows(
          spec.groupChannels.map((c) => page.columns[c]),
          n,
          groupIds,
        );
        groupCount = hash.groupCount;
      }
      for (const c of calls) c.add(page, groupIds, n, groupCount);
      reservation.set(retainedBytes());
    }
    for (let start = 0; start < groupCount; start += TARGET_PAGE_ROWS) {
      throwIfCanceled(ctx);
      const end = Math.min(groupCount, start + TARGET_PAGE_ROWS);
      const columns: Column[] = hash === null ? [] : hash.keyColumns(start, end);
      for (const c of calls) {
        if (spec.step === 'partial') columns.push(...c.accumulator.writeIntermediate(start, end));
        else columns.push(c.accumulator.writeFinal(start, end));
      }
      yield { rowCount: end - start, columns };
    }
  } finally {
    hash?.release();
    reservation.release();
  }
}

/** The output types of a hash aggregation, for planners laying out channels. */
export function hashAggregationOutputTypes(spec: HashAggregationSpec): SqlType[] {
  const types = spec.groupChannels.map((c) => spec.inputTypes[c]);
  for (const a of spec.aggregates) {
    if (spec.step === 'partial') types.push(...a.function.intermediateTypes);
    else types.push(a.function.returnType);
  }
  return types;
}
