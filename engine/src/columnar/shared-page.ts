// A page whose typed arrays live in shared memory, so that worker threads read them without a copy
// (page-transfer passes shared views as they are). Arrays of strings, long decimals and binaries
// cannot be shared: they stay as they are, and each thread gets its own copy.

import { estimatedPageBytes, type Column, type ColumnValues, type Page } from './page.js';

type TypedArray = Exclude<ColumnValues, unknown[]>;

/** The same rows with every typed array copied into shared memory (those already there kept). */
export function sharePage(page: Page): Page {
  return { rowCount: page.rowCount, columns: page.columns.map(shareColumn) };
}

function shareColumn(column: Column): Column {
  const values = Array.isArray(column.values) ? column.values : shareArray(column.values as TypedArray);
  const nulls = column.nulls === null ? null : shareArray(column.nulls);
  const shared = { type: column.type, length: column.length, values, nulls };
  return column.children === undefined ? shared : { ...shared, children: column.children.map(shareColumn) };
}

function shareArray<T extends TypedArray>(array: T): T {
  if (array.buffer instanceof SharedArrayBuffer) return array;
  const Constructor = array.constructor as new (buffer: SharedArrayBuffer) => T;
  const copy = new Constructor(new SharedArrayBuffer(array.byteLength));
  (copy as unknown as { set(source: T): void }).set(array);
  return copy;
}

/** What a thread's own copy of a shared page holds: its columns with arrays that are not shared. */
export function unsharedBytes(page: Page): number {
  return estimatedPageBytes({ rowCount: page.rowCount, columns: page.columns.filter(holdsUnshared) });
}

function holdsUnshared(column: Column): boolean {
  return column.utf8 !== undefined || Array.isArray(column.values) || (column.children ?? []).some(holdsUnshared);
}
