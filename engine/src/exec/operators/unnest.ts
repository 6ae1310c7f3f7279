// UNNEST: each input row repeated once per element of its longest array, the arrays' elements side
// by side (shorter arrays padded with NULLs), and the 1-based ordinality. Columnar throughout: the
// replicated columns are one gather of the input rows, each element column one gather of the array
// column's child (its offsets give the positions), so no row value is ever materialised. Output pages
// hold about PAGE_ROWS rows however long the arrays are.

import type { Column, Page } from '../../columnar/page.js';
import { takeColumn } from '../../columnar/page.js';
import { listElements, listOffsets } from '../../columnar/list-column.js';
import { mapValues } from '../../columnar/map-column.js';
import { BIGINT } from '../../types/types.js';
import { int64Words } from '../../columnar/hash-functions.js';
import { takeColumnOrNull } from './gather-rows.js';
import type { PageStream } from './operator.js';

const PAGE_ROWS = 8192;

export interface UnnestSpec {
  /** Input channels copied to every output row of their input row. */
  readonly replicate: readonly number[];
  /** Input channels of the arrays (and maps) to unnest. */
  readonly arrays: readonly number[];
  /** Per channel of `arrays`: for a map, whether it gives the keys or the values; undefined for an array. */
  readonly entries?: readonly ('key' | 'value' | undefined)[];
  readonly ordinality: boolean;
  /** LEFT JOIN UNNEST: a row whose arrays are all empty or NULL still gives one row (of NULL elements). */
  readonly outer: boolean;
}

/** Elements of row `row` of an array column (0 when NULL). */
function lengthOf(column: Column, row: number): number {
  if (column.nulls !== null && column.nulls[row] === 1) return 0;
  const offsets = listOffsets(column);
  return offsets[row + 1] - offsets[row];
}

export async function* unnest(input: PageStream, spec: UnnestSpec): PageStream {
  for await (const page of input) {
    const arrays = spec.arrays.map((c) => page.columns[c]);
    const counts = new Int32Array(page.rowCount);
    for (let row = 0; row < page.rowCount; row++) {
      let count = 0;
      for (const column of arrays) count = Math.max(count, lengthOf(column, row));
      counts[row] = spec.outer && count === 0 ? 1 : count;
    }
    let start = 0;
    while (start < page.rowCount) {
      let end = start;
      let total = 0;
      while (end < page.rowCount && (total === 0 || total + counts[end] <= PAGE_ROWS)) total += counts[end++];
      if (total > 0) yield unnestRows(page, arrays, counts, start, end, total, spec);
      start = end;
    }
  }
}

function unnestRows(
  page: Page,
  arrays: readonly Column[],
  counts: Int32Array,
  start: number,
  end: number,
  total: number,
  spec: UnnestSpec,
): Page {
  const rows = new Int32Array(total);
  const ordinals = new Int32Array(total);
  let k = 0;
  for (let row = start; row < end; row++) {
    for (let i = 0; i < counts[row]; i++, k++) {
      rows[k] = row;
      ordinals[k] = i;
    }
  }
  const columns: Column[] = spec.replicate.map((c) => takeColumn(page.columns[c], rows, total));
  for (const [a, column] of arrays.entries()) {
    const offsets = listOffsets(column);
    const positions = new Int32Array(total);
    for (let j = 0; j < total; j++) {
      const row = rows[j];
      positions[j] = ordinals[j] < lengthOf(column, row) ? offsets[row] + ordinals[j] : -1;
    }
    const elements = spec.entries?.[a] === 'value' ? mapValues(column) : listElements(column);
    columns.push(takeColumnOrNull(elements, positions, total));
  }
  if (spec.ordinality) columns.push(ordinalityColumn(arrays, rows, ordinals, total));
  return { rowCount: total, columns };
}

/** 1-based positions as bigints; NULL on the row a LEFT JOIN keeps for empty arrays. */
function ordinalityColumn(arrays: readonly Column[], rows: Int32Array, ordinals: Int32Array, total: number): Column {
  const values = new BigInt64Array(total);
  const words = int64Words(values);
  let nulls: Uint8Array | null = null;
  for (let j = 0; j < total; j++) {
    words[2 * j] = ordinals[j] + 1;
    if (ordinals[j] === 0 && arrays.every((column) => lengthOf(column, rows[j]) === 0)) (nulls ??= new Uint8Array(total))[j] = 1;
  }
  return { type: BIGINT, length: total, values, nulls };
}
