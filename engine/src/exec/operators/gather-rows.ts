// Gathers rows scattered over several pages (sort runs, top-N heaps, window partitions) into one
// page, copying typed values directly (int64 through its words: no BigInt per row).

import { allocateValues, type Column, type Page } from '../page.js';
import type { SqlType } from '../../types/types.js';
import { int64Words } from '../hash/hash-functions.js';

/** Row i of the result is row rowIds[i] of pages[pageIds[i]]. */
export function gatherRows(
  types: readonly SqlType[],
  pages: readonly Page[],
  pageIds: Int32Array,
  rowIds: Int32Array,
  count: number,
): Page {
  return { rowCount: count, columns: types.map((t, c) => gatherColumn(t, pages, c, pageIds, rowIds, count)) };
}

function gatherColumn(type: SqlType, pages: readonly Page[], channel: number, pageIds: Int32Array, rowIds: Int32Array, count: number): Column {
  const values = allocateValues(type, count);
  const sources = pages.map((p) => (p === undefined ? null : p.columns[channel]));
  if (values instanceof BigInt64Array) {
    const dst = int64Words(values);
    const src = sources.map((c) => (c === null ? null : int64Words(c.values as BigInt64Array)));
    for (let i = 0; i < count; i++) {
      const words = src[pageIds[i]] as Int32Array;
      const r = rowIds[i];
      dst[2 * i] = words[2 * r];
      dst[2 * i + 1] = words[2 * r + 1];
    }
  } else {
    const dst = values as unknown as unknown[];
    const src = sources.map((c) => (c === null ? null : (c.values as ArrayLike<unknown>)));
    for (let i = 0; i < count; i++) dst[i] = (src[pageIds[i]] as ArrayLike<unknown>)[rowIds[i]];
  }
  let nulls: Uint8Array | null = null;
  if (type.kind === 'unknown') nulls = new Uint8Array(count).fill(1);
  else if (sources.some((c) => c !== null && c.nulls !== null)) {
    nulls = new Uint8Array(count);
    let any = false;
    for (let i = 0; i < count; i++) {
      const source = sources[pageIds[i]] as Column;
      if (source.nulls !== null && source.nulls[rowIds[i]] === 1) {
        nulls[i] = 1;
        any = true;
      }
    }
    if (!any) nulls = null;
  }
  return { type, length: count, values, nulls };
}
