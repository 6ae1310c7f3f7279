// UNION / INTERSECT / EXCEPT, with or without DISTINCT. UNION ALL concatenates; UNION DISTINCT
// streams each row the first time its value is seen (IS NOT DISTINCT semantics); INTERSECT and
// EXCEPT hash the first input's rows, count how often each appears in every input, and emit each
// distinct row as often as the multiset semantics give (once for DISTINCT).

import { takePage } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { newKeyGroupTable } from '../hash/key-group-table.js';
import type { OperatorContext, PageStream } from './operator.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';
import { MemoryReservation, PageCompactor, throwIfCanceled } from './operator-support.js';

export type SetOperationKind = 'union' | 'intersect' | 'except';

export async function* setOperation(
  ctx: OperatorContext,
  inputs: readonly PageStream[],
  types: readonly SqlType[],
  kind: SetOperationKind,
  distinct: boolean,
): PageStream {
  if (kind === 'union' && !distinct) {
    for (const input of inputs) {
      for await (const page of input) {
        throwIfCanceled(ctx);
        if (page.rowCount > 0) yield page;
      }
    }
    return;
  }
  const reservation = new MemoryReservation(ctx.memory);
  try {
    if (kind === 'union') yield* unionDistinct(ctx, inputs, types, reservation);
    else yield* intersectOrExcept(ctx, inputs, types, kind, distinct, reservation);
  } finally {
    reservation.release();
  }
}

async function* unionDistinct(
  ctx: OperatorContext,
  inputs: readonly PageStream[],
  types: readonly SqlType[],
  reservation: MemoryReservation,
): PageStream {
  const hash = newKeyGroupTable(types);
  const compactor = new PageCompactor(types);
  let ids = new Int32Array(0);
  for (const input of inputs) {
    for await (const page of input) {
      throwIfCanceled(ctx);
      const n = page.rowCount;
      if (n === 0) continue;
      if (ids.length < n) ids = new Int32Array(n);
      let next = hash.groupCount;
      hash.putRows(page.columns, n, ids);
      reservation.set(hash.sizeInBytes());
      const fresh = new Int32Array(n);
      let count = 0;
      for (let i = 0; i < n; i++) if (ids[i] === next) (fresh[count++] = i), next++;
      if (count === 0) continue;
      for (const out of compactor.add(count === n ? page : takePage(page, fresh, count))) yield out;
    }
  }
  yield* compactor.finish();
}

async function* intersectOrExcept(
  ctx: OperatorContext,
  inputs: readonly PageStream[],
  types: readonly SqlType[],
  kind: 'intersect' | 'except',
  distinct: boolean,
  reservation: MemoryReservation,
): PageStream {
  const hash = newKeyGroupTable(types);
  // counts[input][group]: how often the group's row appears in that input.
  const counts: Float64Array[] = inputs.map(() => new Float64Array(16));
  let ids = new Int32Array(0);
  for (let input = 0; input < inputs.length; input++) {
    for await (const page of inputs[input]) {
      throwIfCanceled(ctx);
      const n = page.rowCount;
      if (n === 0) continue;
      if (ids.length < n) ids = new Int32Array(n);
      // Only rows of the first input can be in the result: the others are looked up, not added.
      if (input === 0) hash.putRows(page.columns, n, ids);
      else hash.getRows(page.columns, n, ids);
      for (let c = 0; c < counts.length; c++) {
        if (counts[c].length < hash.groupCount) {
          const grown = new Float64Array(Math.max(hash.groupCount, counts[c].length * 2));
          grown.set(counts[c]);
          counts[c] = grown;
        }
      }
      const mine = counts[input];
      for (let i = 0; i < n; i++) if (ids[i] >= 0) mine[ids[i]]++;
      reservation.set(hash.sizeInBytes() + counts.length * counts[0].byteLength);
    }
  }
  const groups = hash.groupCount;
  const keys = { rowCount: groups, columns: hash.keyColumns(0, groups) };
  let positions = new Int32Array(TARGET_PAGE_ROWS);
  let count = 0;
  for (let g = 0; g < groups; g++) {
    const times = multiplicity(counts, g, kind, distinct);
    for (let t = 0; t < times; t++) {
      positions[count++] = g;
      if (count === TARGET_PAGE_ROWS) {
        throwIfCanceled(ctx);
        yield takePage(keys, positions, count);
        positions = new Int32Array(TARGET_PAGE_ROWS);
        count = 0;
      }
    }
  }
  if (count > 0) yield takePage(keys, positions, count);
}

/**
 * How often a group's row is in the result: ALL takes the multiset minimum (INTERSECT) or difference
 * (EXCEPT); DISTINCT keeps a row once when it is in every input (INTERSECT) or only in the first.
 */
function multiplicity(counts: readonly Float64Array[], group: number, kind: 'intersect' | 'except', distinct: boolean): number {
  let times = distinct ? Math.min(1, counts[0][group]) : counts[0][group];
  for (let c = 1; c < counts.length; c++) {
    const other = distinct ? Math.min(1, counts[c][group]) : counts[c][group];
    times = kind === 'intersect' ? Math.min(times, other) : times - other;
  }
  return Math.max(0, times);
}
