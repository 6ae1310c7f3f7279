// Gathers rows scattered over several pages (sort runs, top-N heaps, window partitions) into one
// page, copying typed values directly (int64 through its words: no BigInt per row).

import { allocateValues, concatColumns, constantColumn, hasChildColumns, takeColumn, type Column, type Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { int64Words } from '../../columnar/hash-functions.js';

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

function gatherColumn(
  type: SqlType,
  pages: readonly Page[],
  channel: number,
  pageIds: Int32Array,
  rowIds: Int32Array,
  count: number,
): Column {
  if (hasChildColumns(type)) return gatherListColumn(type, pages, channel, pageIds, rowIds, count);
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

/** Array, map and row columns move as offsets and elements: the pages' columns end to end, then one gather. */
function gatherListColumn(
  type: SqlType,
  pages: readonly Page[],
  channel: number,
  pageIds: Int32Array,
  rowIds: Int32Array,
  count: number,
): Column {
  const starts = new Int32Array(pages.length);
  const present: Column[] = [];
  let total = 0;
  pages.forEach((p, i) => {
    starts[i] = total;
    if (p === undefined) return;
    present.push(p.columns[channel]);
    total += p.rowCount;
  });
  const positions = new Int32Array(count);
  for (let i = 0; i < count; i++) positions[i] = starts[pageIds[i]] + rowIds[i];
  return takeColumn(concatColumns(type, present), positions, count);
}

/** Rows at `positions` of a column, where position -1 gives NULL (the missing side of outer joins). */
export function takeColumnOrNull(column: Column, positions: Int32Array, count: number): Column {
  // Without a -1 this is a plain gather, whose loops are specialised per storage kind.
  if (!hasNegative(positions, count)) return takeColumn(column, positions, count);
  if (hasChildColumns(column.type)) return takeListColumnOrNull(column, positions, count);
  const values = allocateValues(column.type, count);
  let nulls: Uint8Array | null = null;
  const srcNulls = column.type.kind === 'unknown' ? null : column.nulls;
  if (values instanceof BigInt64Array) {
    const dst = int64Words(values);
    const src = int64Words(column.values as BigInt64Array);
    for (let i = 0; i < count; i++) {
      const p = positions[i];
      if (p < 0) continue;
      dst[2 * i] = src[2 * p];
      dst[2 * i + 1] = src[2 * p + 1];
    }
  } else {
    const dst = values as unknown as unknown[];
    const src = column.values as ArrayLike<unknown>;
    for (let i = 0; i < count; i++) {
      const p = positions[i];
      if (p >= 0) dst[i] = src[p];
    }
  }
  for (let i = 0; i < count; i++) {
    const p = positions[i];
    if (p < 0 || column.type.kind === 'unknown' || (srcNulls !== null && srcNulls[p] === 1)) {
      if (nulls === null) nulls = new Uint8Array(count);
      nulls[i] = 1;
    }
  }
  return { type: column.type, length: count, values, nulls };
}

function takeListColumnOrNull(column: Column, positions: Int32Array, count: number): Column {
  const source = column.length === 0 ? constantColumn(column.type, null, 1) : column;
  const safe = new Int32Array(count);
  let nulls: Uint8Array | null = null;
  for (let i = 0; i < count; i++) {
    const p = positions[i];
    safe[i] = p < 0 ? 0 : p;
    if (p < 0 || (source.nulls !== null && source.nulls[p] === 1)) (nulls ??= new Uint8Array(count))[i] = 1;
  }
  const taken = takeColumn(source, safe, count);
  return { ...taken, nulls };
}

function hasNegative(positions: Int32Array, count: number): boolean {
  for (let i = 0; i < count; i++) if (positions[i] < 0) return true;
  return false;
}
