// A chunk's output when only some scattered rows are wanted (those that passed the pushed-down
// filter, parquet-reader.ts): pages holding none of them are skipped before decompression, pages
// wholly wanted decode straight into the column, and from the others only the wanted rows are taken
// — straight from the dictionary indices or dense values when the page has no NULLs, else through a
// scratch page reused from page to page. Of a page without NULLs whose rows are not all wanted, the
// decoder may decode only the wanted rows (picks: a dictionary page's indices when few are wanted,
// plain ASCII strings always).

import { allocateValues, type Column, type ColumnValues } from '../../../../columnar/page.js';
import type { SqlType } from '../../../../types/types.js';
import { pastDictionary, placeRows, type ChunkOutput, type DecodedPage, type RowPicks } from './column-chunk-decoder.js';
import { ParquetDataError } from './parquet-errors.js';

export class SelectedRowsOutput implements ChunkOutput {
  private readonly values: ColumnValues;
  private nulls: Uint8Array | null = null;
  /** The first wanted row not yet placed (an index into `rows`). */
  private next = 0;
  private scratch: { values: ColumnValues; nulls: Uint8Array } | undefined;

  /** `rows`: the wanted rows of the row group, ascending. */
  constructor(
    private readonly type: SqlType,
    private readonly rows: Int32Array,
  ) {
    this.values = allocateValues(type, rows.length);
  }

  done(): boolean {
    return this.next === this.rows.length;
  }

  placed(): number {
    return this.next;
  }

  wants(_start: number, end: number): boolean {
    return this.next < this.rows.length && this.rows[this.next] < end;
  }

  picks(first: number, rowCount: number): RowPicks | undefined {
    const { rows } = this;
    const from = this.next;
    if (from >= rows.length || rows[from] < first) return undefined;
    const to = firstAtOrAfter(rows, from, first + rowCount);
    return to > from && to - from < rowCount ? { rows, from, to, first } : undefined;
  }

  append(first: number, page: DecodedPage): void {
    const { rows } = this;
    const from = this.next;
    if (from < rows.length && rows[from] < first) throw new ParquetDataError(`the chunk's pages leave out row ${rows[from]}`);
    const to = firstAtOrAfter(rows, from, first + page.rowCount);
    if (to === from) return;
    this.next = to;
    if (to - from === page.rowCount) {
      placeRows(page, this.values, () => this.nullMask(), from);
      return;
    }
    // A picked page (not wanted whole, no NULLs) holds the indices or strings of these rows: taken here.
    if (page.defined === null) {
      if (page.indices !== undefined) takeRows(page.dictionary!, page.indices, rows, from, to, first, this.values);
      else takeRows(page.dense!, null, rows, from, to, first, this.values);
      return;
    }
    const scratch = this.scratchFor(page.rowCount);
    placeRows(page, scratch.values, () => scratch.nulls, 0);
    takeRows(scratch.values, null, rows, from, to, first, this.values);
    const nulls = this.nullMask();
    for (let j = from; j < to; j++) nulls[j] = scratch.nulls[rows[j] - first];
  }

  build(): Column {
    if (!this.done()) throw new ParquetDataError(`the chunk's pages leave out row ${this.rows[this.next]}`);
    return { type: this.type, length: this.rows.length, values: this.values, nulls: this.nulls };
  }

  private nullMask(): Uint8Array {
    return (this.nulls ??= new Uint8Array(this.rows.length));
  }

  private scratchFor(rowCount: number): { values: ColumnValues; nulls: Uint8Array } {
    if (this.scratch === undefined || this.scratch.nulls.length < rowCount)
      this.scratch = { values: allocateValues(this.type, rowCount), nulls: new Uint8Array(rowCount) };
    return this.scratch;
  }
}

/** The first index in [from, rows.length) whose row is at or after `row` (rows ascending): a binary search, pages hold many wanted rows. */
function firstAtOrAfter(rows: Int32Array, from: number, row: number): number {
  let lo = from;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid] < row) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * out[j] = source[map[rows[j] - first]] (or source[rows[j] - first] without a map) for j in
 * [from, to); one loop per storage kind keeps each monomorphic. A map (dictionary indices) is
 * checked only where rows take it: a page's other indices are never read.
 */
function takeRows(
  source: ColumnValues,
  map: Int32Array | null,
  rows: Int32Array,
  from: number,
  to: number,
  first: number,
  out: ColumnValues,
): void {
  if (source instanceof BigInt64Array) takeBigInt64(source, map, rows, from, to, first, out as BigInt64Array);
  else if (source instanceof Float64Array) takeFloat64(source, map, rows, from, to, first, out as Float64Array);
  else if (source instanceof Int32Array) takeInt32(source, map, rows, from, to, first, out as Int32Array);
  else if (Array.isArray(source)) takeArray(source as unknown[], map, rows, from, to, first, out as unknown[]);
  else takeOther(source as Uint8Array, map, rows, from, to, first, out as Uint8Array);
}

/** map[position], a dictionary index checked against the dictionary's `size` (a corrupt page fails). */
function entryOf(map: Int32Array, position: number, size: number): number {
  const index = map[position];
  if (index >>> 0 >= size) throw pastDictionary(index, size);
  return index;
}

/** Element copies between BigInt64Arrays move 64-bit words without making bigints (see the decoder's gatherBigInt64). */
function takeBigInt64(
  source: BigInt64Array,
  map: Int32Array | null,
  rows: Int32Array,
  from: number,
  to: number,
  first: number,
  out: BigInt64Array,
): void {
  if (map === null) for (let j = from; j < to; j++) out[j] = source[rows[j] - first];
  else for (let j = from; j < to; j++) out[j] = source[entryOf(map, rows[j] - first, source.length)];
}
function takeFloat64(
  source: Float64Array,
  map: Int32Array | null,
  rows: Int32Array,
  from: number,
  to: number,
  first: number,
  out: Float64Array,
): void {
  if (map === null) for (let j = from; j < to; j++) out[j] = source[rows[j] - first];
  else for (let j = from; j < to; j++) out[j] = source[entryOf(map, rows[j] - first, source.length)];
}
function takeInt32(
  source: Int32Array,
  map: Int32Array | null,
  rows: Int32Array,
  from: number,
  to: number,
  first: number,
  out: Int32Array,
): void {
  if (map === null) for (let j = from; j < to; j++) out[j] = source[rows[j] - first];
  else for (let j = from; j < to; j++) out[j] = source[entryOf(map, rows[j] - first, source.length)];
}
function takeArray(
  source: unknown[],
  map: Int32Array | null,
  rows: Int32Array,
  from: number,
  to: number,
  first: number,
  out: unknown[],
): void {
  if (map === null) for (let j = from; j < to; j++) out[j] = source[rows[j] - first];
  else for (let j = from; j < to; j++) out[j] = source[entryOf(map, rows[j] - first, source.length)];
}
function takeOther(
  source: Uint8Array,
  map: Int32Array | null,
  rows: Int32Array,
  from: number,
  to: number,
  first: number,
  out: Uint8Array,
): void {
  if (map === null) for (let j = from; j < to; j++) out[j] = source[rows[j] - first];
  else for (let j = from; j < to; j++) out[j] = source[entryOf(map, rows[j] - first, source.length)];
}
