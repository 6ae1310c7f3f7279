// The window operator: buffers its input (reserved in the memory context), sorts it by partition
// keys then ORDER BY keys, finds partitions and peer groups, and lets each window function fill its
// column one partition at a time over per-row frames. Output: every input column, then one column
// per function, in partition / ORDER BY order.

import { allocateOutput, outputToColumn } from '../../functions/aggregate/accumulator-support.js';
import { POINTER_BYTES } from '../../columnar/memory-estimate.js';
import type { WindowFunction } from '../../functions/window/window-function.js';
import type { SqlType } from '../../types/types.js';
import { makeKeyEquals } from '../hash/row-equality.js';
import { hasChildColumns, pageSizeInBytes, sliceColumn, type Column, type Page } from '../../columnar/page.js';
import { gatherRows } from './gather-rows.js';
import { compileExpression } from '../expression/compiler.js';
import type { OperatorContext, PageStream } from './operator.js';
import type { SortKey } from '../../functions/scalar/value-ordering.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';
import { MemoryReservation, throwIfCanceled } from './operator-support.js';
import { bufferInput, sortOrder } from './sort.js';
import type { FrameSpec } from '../../sql/planner/window-frame.js';
import { computeFrames, prepareFrame } from './window-frames.js';

export interface WindowFunctionSpec {
  function: WindowFunction;
  argumentChannels: number[];
  /** Offsets and RANGE bound values are channels of the input. */
  frame: FrameSpec<number>;
  ignoreNulls: boolean;
}

export interface WindowSpec {
  partitionChannels: number[];
  orderKeys: SortKey[];
  functions: WindowFunctionSpec[];
}

export async function* window(ctx: OperatorContext, input: PageStream, types: readonly SqlType[], spec: WindowSpec): PageStream {
  const reservation = new MemoryReservation(ctx.memory);
  try {
    const rows = await bufferInput(ctx, input, reservation);
    const n = rows.count;
    if (n === 0) return;
    const keys: SortKey[] = [
      ...spec.partitionChannels.map((channel) => ({ channel, ascending: true, nullsFirst: false })),
      ...spec.orderKeys,
    ];
    const order = await sortOrder(rows, types, keys, ctx);
    throwIfCanceled(ctx);
    const sorted = gatherRows(
      types,
      rows.pages,
      Int32Array.from(order, (o) => rows.pageIds[o]),
      Int32Array.from(order, (o) => rows.rowIds[o]),
      n,
    );
    rows.pages.length = 0;
    reservation.set(pageSizeInBytes(sorted) + n * 16);
    const partitionStarts = boundaries(sorted, types, spec.partitionChannels);
    const { peerStart, peerEnd } = peers(
      sorted,
      types,
      spec.orderKeys.map((k) => k.channel),
      partitionStarts,
    );
    const outputs = spec.functions.map((f) => ({ type: f.function.returnType, out: allocateOutput(f.function.returnType, n) }));
    // Array, map and row outputs are JS values per row until laid out: a slot each, their elements shared with the input.
    for (const o of outputs)
      reservation.add(
        hasChildColumns(o.type) ? n * POINTER_BYTES : pageSizeInBytes({ rowCount: n, columns: [outputToColumn(o.type, o.out, n)] }),
      );
    const frameStart = new Int32Array(n);
    const frameEnd = new Int32Array(n);
    reservation.add(n * 8);
    spec.functions.forEach((f, index) => {
      const evaluator = f.function.createEvaluator(compileExpression);
      const frame = prepareFrame(f.frame, sorted, spec.orderKeys);
      const args = f.argumentChannels.map((c) => sorted.columns[c]);
      for (let p = 0; p < partitionStarts.length; p++) {
        if ((p & 255) === 0) throwIfCanceled(ctx);
        const start = partitionStarts[p];
        const end = p + 1 < partitionStarts.length ? partitionStarts[p + 1] : n;
        computeFrames(frame, start, end, peerStart, peerEnd, frameStart, frameEnd);
        evaluator.evaluate({ start, end, args, peerStart, peerEnd, frameStart, frameEnd, ignoreNulls: f.ignoreNulls }, outputs[index].out);
      }
    });
    const all = [
      ...sorted.columns,
      ...outputs.map((o) => withoutEmptyNulls(outputToColumn(o.type, { values: o.out.values, nulls: o.out.nulls.slice() }, n))),
    ];
    for (let start = 0; start < n; start += TARGET_PAGE_ROWS) {
      throwIfCanceled(ctx);
      const end = Math.min(n, start + TARGET_PAGE_ROWS);
      yield { rowCount: end - start, columns: all.map((c) => sliceColumn(c, start, end)) };
    }
  } finally {
    reservation.release();
  }
}

/** The first row of each run of rows equal (IS NOT DISTINCT) on `channels`. */
function boundaries(page: Page, types: readonly SqlType[], channels: readonly number[]): number[] {
  const starts = [0];
  if (channels.length === 0) return starts;
  const columns = channels.map((c) => page.columns[c]);
  const equals = makeKeyEquals(
    channels.map((c) => types[c]),
    columns,
    columns,
    true,
  );
  for (let i = 1; i < page.rowCount; i++) if (!equals(i, i - 1)) starts.push(i);
  return starts;
}

/** Peer groups: runs of rows of one partition with equal ORDER BY values. */
function peers(page: Page, types: readonly SqlType[], orderChannels: readonly number[], partitionStarts: readonly number[]) {
  const n = page.rowCount;
  const peerStart = new Int32Array(n);
  const peerEnd = new Int32Array(n);
  const columns = orderChannels.map((c) => page.columns[c]);
  const equals = makeKeyEquals(
    orderChannels.map((c) => types[c]),
    columns,
    columns,
    true,
  );
  let partition = 1;
  let groupStart = 0;
  for (let i = 1; i <= n; i++) {
    const newPartition = partition < partitionStarts.length && partitionStarts[partition] === i;
    if (newPartition) partition++;
    if (i === n || newPartition || !equals(i, i - 1)) {
      for (let r = groupStart; r < i; r++) {
        peerStart[r] = groupStart;
        peerEnd[r] = i;
      }
      groupStart = i;
    }
  }
  return { peerStart, peerEnd };
}

function withoutEmptyNulls(column: Column): Column {
  return column.nulls !== null && column.nulls.indexOf(1) < 0 ? { ...column, nulls: null } : column;
}
