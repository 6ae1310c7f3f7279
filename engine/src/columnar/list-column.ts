// Array columns (Arrow's List layout): `values` holds length + 1 Int32 offsets and `children[0]` the
// elements of every row end to end. Slicing, gathering and concatenating work on the offsets and
// the child column (recursively for nested arrays); a row becomes a JS array (the Scalar of an
// array value) only when an expression needs that row's value.
//
// map(K, V) shares this layout with two children (keys, values) under the same offsets, as Arrow's
// Map does (map-column.ts), so slicing, gathering, concatenating and sizing here serve both;
// row(...) will have one child per field and no offsets (Arrow's Struct).

import type { SqlType } from '../types/types.js';
import {
  type Column,
  columnFromScalars,
  columnSizeInBytes,
  concatColumns,
  emptyColumn,
  getScalar,
  sliceColumn,
  takeColumn,
} from './page.js';
import type { Scalar } from '../types/scalar.js';

function elementTypeOf(type: SqlType): SqlType {
  if (type.kind !== 'array') throw new Error(`not an array type: ${type.kind}`);
  return type.element;
}

/** The child column types of a column stored as offsets + children: an array's elements, a map's keys and values. */
function childTypesOf(type: SqlType): SqlType[] {
  if (type.kind === 'map') return [type.key, type.value];
  return [elementTypeOf(type)];
}

/** Whether a type is stored as offsets over child columns (Arrow's List and Map): array(T), map(K, V). */
export function hasOffsetsLayout(type: SqlType): boolean {
  return type.kind === 'array' || type.kind === 'map';
}

/** The offsets of an array column. */
export function listOffsets(column: Column): Int32Array {
  return column.values as Int32Array;
}

function childrenOf(column: Column): readonly Column[] {
  return column.children as readonly Column[];
}

/** The element column of an array column. */
export function listElements(column: Column): Column {
  return (column.children as readonly Column[])[0];
}

/** `length` empty arrays or maps (the storage of NULL rows). */
export function emptyListColumn(type: SqlType, length: number, nulls: Uint8Array | null): Column {
  return { type, length, values: new Int32Array(length + 1), nulls, children: childTypesOf(type).map((t) => emptyColumn(t)) };
}

/** The elements of row `row` as a JS array. */
export function readListRow(offsets: Int32Array, elements: Column, row: number): Scalar[] {
  const start = offsets[row];
  const end = offsets[row + 1];
  const out = new Array<Scalar>(end - start);
  for (let i = start; i < end; i++) out[i - start] = getScalar(elements, i);
  return out;
}

/**
 * The offsets of rows of an offsets layout (arrays, maps) from each row's entry count, the NULL mask
 * (NULL or undefined rows, and those `nullMask` flags) and the entries in all.
 */
export function offsetsOfRows(
  rows: readonly (Scalar | undefined)[],
  length: number,
  nullMask: Uint8Array | null,
  entriesOf: (row: Scalar) => number,
): { offsets: Int32Array; nulls: Uint8Array | null; total: number } {
  const offsets = new Int32Array(length + 1);
  let nulls: Uint8Array | null = null;
  let total = 0;
  for (let i = 0; i < length; i++) {
    const row = rows[i];
    if (row === null || row === undefined || (nullMask !== null && nullMask[i] === 1)) (nulls ??= new Uint8Array(length))[i] = 1;
    else total += entriesOf(row);
    offsets[i + 1] = total;
  }
  return { offsets, nulls, total };
}

/** An array column from one JS array (or null) per row; rows flagged in `nullMask` are NULL. */
export function listColumnFromRows(
  type: SqlType,
  rows: readonly (Scalar | undefined)[],
  length = rows.length,
  nullMask: Uint8Array | null = null,
): Column {
  const { offsets, nulls, total } = offsetsOfRows(rows, length, nullMask, (row) => (row as readonly Scalar[]).length);
  const flat = new Array<Scalar>(total);
  let k = 0;
  for (let i = 0; i < length; i++) {
    if (nulls !== null && nulls[i] === 1) continue;
    for (const element of rows[i] as readonly Scalar[]) flat[k++] = element;
  }
  return { type, length, values: offsets, nulls, children: [columnFromScalars(elementTypeOf(type), flat)] };
}

/** Rows [start, end) of an array (or map) column: offsets rebased to 0, the elements they cover. */
export function sliceListColumn(column: Column, start: number, end: number): Column {
  const source = listOffsets(column);
  const base = source[start];
  const offsets = new Int32Array(end - start + 1);
  for (let i = start; i <= end; i++) offsets[i - start] = source[i] - base;
  const nulls = column.nulls === null ? null : column.nulls.slice(start, end);
  return {
    type: column.type,
    length: end - start,
    values: offsets,
    nulls,
    children: childrenOf(column).map((c) => sliceColumn(c, base, source[end])),
  };
}

/** The rows at `positions` of an array (or map) column: a gather of the offsets, then of the elements. */
export function takeListColumn(column: Column, positions: Int32Array | Uint32Array, count: number, nulls: Uint8Array | null): Column {
  const source = listOffsets(column);
  const offsets = new Int32Array(count + 1);
  for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i] + source[positions[i] + 1] - source[positions[i]];
  const elementPositions = new Int32Array(offsets[count]);
  let k = 0;
  for (let i = 0; i < count; i++) {
    for (let e = source[positions[i]]; e < source[positions[i] + 1]; e++) elementPositions[k++] = e;
  }
  return {
    type: column.type,
    length: count,
    values: offsets,
    nulls,
    children: childrenOf(column).map((c) => takeColumn(c, elementPositions, k)),
  };
}

/** Array (or map) columns of one type end to end. */
export function concatListColumns(type: SqlType, columns: readonly Column[], nulls: Uint8Array | null): Column {
  let length = 0;
  for (const c of columns) length += c.length;
  const offsets = new Int32Array(length + 1);
  let row = 0;
  for (const c of columns) {
    const source = listOffsets(c);
    const base = offsets[row] - source[0];
    for (let i = 1; i <= c.length; i++) offsets[row + i] = base + source[i];
    row += c.length;
  }
  const children = childTypesOf(type).map((childType, k) =>
    concatColumns(
      childType,
      columns.map((c) => sliceColumn(childrenOf(c)[k], listOffsets(c)[0], listOffsets(c)[c.length])),
    ),
  );
  return { type, length, values: offsets, nulls, children };
}

/** Heap bytes of an array (or map) column beyond its null mask: offsets and elements (keys and values). */
export function listColumnBytes(column: Column, stringsBytes: (values: readonly string[]) => number): number {
  let bytes = listOffsets(column).byteLength;
  for (const child of childrenOf(column)) bytes += columnSizeInBytes(child, stringsBytes);
  return bytes;
}

/** `length` rows all holding the array `value`. */
export function constantListColumn(type: SqlType, value: readonly Scalar[], length: number): Column {
  return takeListColumn(listColumnFromRows(type, [value]), new Int32Array(length), length, null);
}
