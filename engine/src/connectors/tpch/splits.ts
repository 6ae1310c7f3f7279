// Splits and pages of a generated table. A split is a range of units (rows; parts for partsupp;
// orders for lineitem) that generates on its own; its pages are consecutive unit ranges of at most
// MAX_PAGE_ROWS rows.

import { MAX_PAGE_ROWS } from '../column-selection.js';
import type { Scale } from './scale.js';
import type { TpchTable } from './table.js';

/** Rows a split aims at. */
export const SPLIT_TARGET_ROWS = 65536;
/** Splits of a table at most (huge scale factors get bigger splits rather than millions of them). */
const MAX_SPLITS = 100_000;

/** What a tpch split carries: units [start, end) of its table. */
export interface TpchSplitInfo {
  start: number;
  end: number;
}

/**
 * The unit ranges of the table's splits (at least one, possibly empty), covering `within` (all
 * units by default; fewer when a key predicate limits the scan), made as they are asked for: a
 * scheduler takes a batch at a time, and the table's 100,000 splits are never listed at once.
 */
export function* splitRanges(
  table: TpchTable,
  scale: Scale,
  targetRows = SPLIT_TARGET_ROWS,
  within?: [number, number][],
): Generator<TpchSplitInfo> {
  const units = table.unitCount(scale);
  const unitsPerSplit = Math.max(1, Math.floor(targetRows / table.averageRowsPerUnit), Math.ceil(units / MAX_SPLITS));
  let any = false;
  for (const [from, to] of within ?? [[0, units]]) {
    for (let start = from; start < to; start += unitsPerSplit) {
      any = true;
      yield { start, end: Math.min(to, start + unitsPerSplit) };
    }
  }
  if (!any) yield { start: 0, end: 0 };
}

/** Units whose row counts are drawn at once while cutting pages: bounds that work and its memory, whatever the split's size. */
const ROW_COUNT_CHUNK_UNITS = 65536;

/**
 * Consecutive unit ranges covering [start, end), each of at most MAX_PAGE_ROWS rows, cut as they
 * are asked for: a split of any size costs the memory and time of one page at a time.
 */
export function* pageRanges(table: TpchTable, scale: Scale, start: number, end: number): Generator<[number, number]> {
  const unitRowCounts = table.unitRowCounts;
  if (unitRowCounts === undefined) {
    const unitsPerPage = Math.max(1, Math.floor(MAX_PAGE_ROWS / table.maxRowsPerUnit));
    for (let from = start; from < end; from += unitsPerPage) yield [from, Math.min(end, from + unitsPerPage)];
    return;
  }
  let from = start;
  let pageRows = 0;
  for (let chunkStart = start; chunkStart < end; chunkStart += ROW_COUNT_CHUNK_UNITS) {
    const chunkEnd = Math.min(end, chunkStart + ROW_COUNT_CHUNK_UNITS);
    const rows = unitRowCounts(scale, chunkStart, chunkEnd);
    for (let unit = chunkStart; unit < chunkEnd; unit++) {
      const unitRows = rows[unit - chunkStart];
      if (pageRows + unitRows > MAX_PAGE_ROWS) {
        yield [from, unit];
        from = unit;
        pageRows = 0;
      }
      pageRows += unitRows;
    }
  }
  if (from < end) yield [from, end];
}
