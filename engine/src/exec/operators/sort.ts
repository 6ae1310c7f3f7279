// ORDER BY: buffers the whole input (reserved in the memory context), sorts row references stably
// with a comparator specialised per key type (NULL placement per key, NaN largest, strings by code
// point), then gathers the rows in pages of TARGET_PAGE_ROWS.

import { pageSizeInBytes, type Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { gatherRows } from './gather-rows.js';
import type { OperatorContext, PageStream } from './operator.js';
import type { SortKey } from '../../functions/scalar/value-ordering.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';
import { MemoryReservation, throwIfCanceled } from './operator-support.js';
import { sortCooperatively, type Turns } from './sort-cooperatively.js';
import { makePreparedRowCompare, prepareKeys } from '../../functions/scalar/value-ordering.js';

/** Every row of the buffered pages as (page, row) references. */
export interface BufferedRows {
  pages: Page[];
  pageIds: Int32Array;
  rowIds: Int32Array;
  count: number;
}

/** Reads the whole input into memory (reserved through `reservation`). */
export async function bufferInput(ctx: OperatorContext, input: PageStream, reservation: MemoryReservation): Promise<BufferedRows> {
  const pages: Page[] = [];
  let count = 0;
  for await (const page of input) {
    throwIfCanceled(ctx);
    if (page.rowCount === 0) continue;
    reservation.add(pageSizeInBytes(page));
    pages.push(page);
    count += page.rowCount;
  }
  reservation.add(count * 8);
  const pageIds = new Int32Array(count);
  const rowIds = new Int32Array(count);
  let i = 0;
  for (let p = 0; p < pages.length; p++) {
    for (let r = 0; r < pages[p].rowCount; r++, i++) {
      pageIds[i] = p;
      rowIds[i] = r;
    }
  }
  return { pages, pageIds, rowIds, count };
}

/** The order of the buffered rows under `keys` (stable: ties keep input order), sorted with the event loop's turns. */
export async function sortOrder(rows: BufferedRows, types: readonly SqlType[], keys: readonly SortKey[], ctx: Turns): Promise<Int32Array> {
  const order = new Int32Array(rows.count);
  for (let i = 0; i < rows.count; i++) order[i] = i;
  if (keys.length === 0) return order;
  const prepared = rows.pages.map((p) => prepareKeys(keys, p.columns));
  const compare = makePreparedRowCompare(keys, types);
  const { pageIds, rowIds } = rows;
  return sortCooperatively(order, (a, b) => compare(prepared[pageIds[a]], rowIds[a], prepared[pageIds[b]], rowIds[b]) || a - b, ctx);
}

export async function* sort(ctx: OperatorContext, input: PageStream, types: readonly SqlType[], keys: readonly SortKey[]): PageStream {
  const reservation = new MemoryReservation(ctx.memory);
  try {
    const rows = await bufferInput(ctx, input, reservation);
    reservation.add(rows.count * 4);
    const order = await sortOrder(rows, types, keys, ctx);
    throwIfCanceled(ctx);
    const pageIds = new Int32Array(Math.min(TARGET_PAGE_ROWS, rows.count));
    const rowIds = new Int32Array(pageIds.length);
    for (let start = 0; start < rows.count; start += TARGET_PAGE_ROWS) {
      throwIfCanceled(ctx);
      const end = Math.min(rows.count, start + TARGET_PAGE_ROWS);
      for (let i = start; i < end; i++) {
        pageIds[i - start] = rows.pageIds[order[i]];
        rowIds[i - start] = rows.rowIds[order[i]];
      }
      yield gatherRows(types, rows.pages, pageIds, rowIds, end - start);
    }
  } finally {
    reservation.release();
  }
}
