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
 * units by default; fewer when a key predicate limits the scan).
 */
export function splitRanges(table: TpchTable, scale: Scale, targetRows = SPLIT_TARGET_ROWS, within?: [number, number][]): TpchSplitInfo[] {
  const units = table.unitCount(scale);
  const unitsPerSplit = Math.max(1, Math.floor(targetRows / table.averageRowsPerUnit), Math.ceil(units / MAX_SPLITS));
  const ranges: TpchSplitInfo[] = [];
  for (const [from, to] of within ?? [[0, units]]) {
    for (let start = from; start < to; start += unitsPerSplit) ranges.push({ start, end: Math.min(to, start + unitsPerSplit) });
  }
  return ranges.length === 0 ? [{ start: 0, end: 0 }] : ranges;
}

/** Consecutive unit ranges covering [start, end), each of at most MAX_PAGE_ROWS rows. */
export function pageRanges(table: TpchTable, scale: Scale, start: number, end: number): [number, number][] {
  const ranges: [number, number][] = [];
  if (table.unitRowCounts === undefined) {
    const unitsPerPage = Math.max(1, Math.floor(MAX_PAGE_ROWS / table.maxRowsPerUnit));
    for (let from = start; from < end; from += unitsPerPage) ranges.push([from, Math.min(end, from + unitsPerPage)]);
    return ranges;
  }
  const rows = table.unitRowCounts(scale, start, end);
  let from = start;
  let pageRows = 0;
  for (let unit = start; unit < end; unit++) {
    const unitRows = rows[unit - start];
    if (pageRows + unitRows > MAX_PAGE_ROWS) {
      ranges.push([from, unit]);
      from = unit;
      pageRows = 0;
    }
    pageRows += unitRows;
  }
  if (from < end) ranges.push([from, end]);
  return ranges;
}
