// Row columns (Arrow's Struct layout): one child column per field, each as long as the row column
// and with its own null mask, beside the row column's own null mask. `values` is empty. A NULL row
// holds NULL in every field. Slicing, gathering and concatenating apply to every child; a row
// becomes a JS array of its field values (the Scalar of a row value) only where an expression
// needs one row's value.

import type { RowType } from '../types/row-type.js';
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

const NO_VALUES = new Uint8Array(0);

function fieldTypesOf(type: SqlType): readonly SqlType[] {
  if (type.kind !== 'row') throw new Error(`not a row type: ${type.kind}`);
  return (type as RowType).fields.map((f) => f.type);
}

/** The field columns of a row column. */
export function rowFieldColumns(column: Column): readonly Column[] {
  return column.children as readonly Column[];
}

function rowColumn(type: SqlType, length: number, nulls: Uint8Array | null, children: readonly Column[]): Column {
  return { type, length, values: NO_VALUES, nulls, children };
}

/** A row column of no rows. */
export function emptyRowColumn(type: SqlType): Column {
  return rowColumn(
    type,
    0,
    null,
    fieldTypesOf(type).map((t) => emptyColumn(t)),
  );
}

/** The field values of row `row` as a JS array. */
export function readRowValue(column: Column, row: number): Scalar[] {
  return rowFieldColumns(column).map((field) => getScalar(field, row));
}

/** A row column from one JS array of field values (or null) per row; rows flagged in `nullMask` are NULL. */
export function rowColumnFromRows(
  type: SqlType,
  rows: readonly (Scalar | undefined)[],
  length = rows.length,
  nullMask: Uint8Array | null = null,
): Column {
  const types = fieldTypesOf(type);
  let nulls: Uint8Array | null = null;
  const fields = types.map(() => new Array<Scalar>(length));
  for (let i = 0; i < length; i++) {
    const row = rows[i];
    const isNullRow = row === null || row === undefined || (nullMask !== null && nullMask[i] === 1);
    if (isNullRow) (nulls ??= new Uint8Array(length))[i] = 1;
    for (let f = 0; f < types.length; f++) fields[f][i] = isNullRow ? null : (row as readonly Scalar[])[f];
  }
  return rowColumn(
    type,
    length,
    nulls,
    types.map((t, f) => columnFromScalars(t, fields[f])),
  );
}

export function sliceRowColumn(column: Column, start: number, end: number): Column {
  const nulls = column.nulls === null ? null : column.nulls.slice(start, end);
  return rowColumn(
    column.type,
    end - start,
    nulls,
    rowFieldColumns(column).map((c) => sliceColumn(c, start, end)),
  );
}

export function takeRowColumn(column: Column, positions: Int32Array | Uint32Array, count: number, nulls: Uint8Array | null): Column {
  return rowColumn(
    column.type,
    count,
    nulls,
    rowFieldColumns(column).map((c) => takeColumn(c, positions, count)),
  );
}

export function concatRowColumns(type: SqlType, columns: readonly Column[], nulls: Uint8Array | null): Column {
  let length = 0;
  for (const c of columns) length += c.length;
  const children = fieldTypesOf(type).map((t, f) =>
    concatColumns(
      t,
      columns.map((c) => rowFieldColumns(c)[f]),
    ),
  );
  return rowColumn(type, length, nulls, children);
}

/** Heap bytes of a row column beyond its null mask: its fields. */
export function rowColumnBytes(column: Column, stringsBytes: (values: readonly string[]) => number): number {
  let bytes = 0;
  for (const field of rowFieldColumns(column)) bytes += columnSizeInBytes(field, stringsBytes);
  return bytes;
}

/** `length` rows all holding `value` (null: all NULL). */
export function constantRowColumn(type: SqlType, value: readonly Scalar[] | null, length: number): Column {
  return takeRowColumn(
    rowColumnFromRows(type, [value]),
    new Int32Array(length),
    length,
    value === null ? new Uint8Array(length).fill(1) : null,
  );
}
