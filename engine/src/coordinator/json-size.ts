// Cheap estimates of how many bytes rows take in a JSON statement response, so responses and the
// result buffer can be bounded in bytes without serialising anything twice.

import type { Column, Page } from '../spi/page.js';
import type { SqlType } from '../types/types.js';
import { MAX_ZONE_NAME_LENGTH } from '../types/time-zones.js';

/** JSON bytes of one value (with its separator) for fixed-width types; undefined for strings and binaries. */
function fixedWidth(type: SqlType): number | undefined {
  switch (type.kind) {
    case 'varchar':
    case 'char':
    case 'json':
    case 'varbinary':
    case 'sketch':
    case 'variant':
    case 'ipaddress': // shown as text of varying length (IPv4 or IPv6)
    case 'number':
    case 'array':
    case 'map':
    case 'row':
      return undefined;
    case 'boolean':
      return 6;
    case 'tinyint':
    case 'smallint':
    case 'integer':
      return 8;
    case 'bigint':
      return 12;
    case 'real':
    case 'double':
      return 18;
    case 'decimal':
      return type.precision + 4;
    case 'date':
      return 13;
    case 'time':
      return 10 + type.precision;
    case 'timestamp':
      return 22 + type.precision;
    case 'time with time zone': // '"HH:MM:SS.fff+HH:MM",'
      return 17 + type.precision;
    case 'timestamp with time zone': // the longest zone name bounds it
      return 23 + type.precision + MAX_ZONE_NAME_LENGTH;
    case 'interval year to month':
    case 'interval day to second':
      return 16;
    case 'unknown':
      return 5;
    case 'uuid':
      return 39;
  }
}

/** A char(n) value goes out padded to n: at least n characters, however short the stored value. */
function minimumLength(type: SqlType): number {
  return type.kind === 'char' ? type.length : 0;
}

function variableWidth(column: Column, row: number, minimum: number): number {
  if (column.nulls !== null && column.nulls[row] === 1) return 5;
  if (column.type.kind === 'array') return arrayWidth(column, row);
  if (column.type.kind === 'map') return mapWidth(column, row);
  if (column.type.kind === 'row') return rowWidth(column, row);
  const value = column.values[row] as string | Uint8Array;
  return typeof value === 'string' ? Math.max(value.length, minimum) + 3 : Math.ceil(value.length / 3) * 4 + 3;
}

/** An array's JSON bytes: brackets plus each element's bytes (measured like a column's values). */
function arrayWidth(column: Column, row: number): number {
  const offsets = column.values as Int32Array;
  return 3 + entriesWidth((column.children as readonly Column[])[0], offsets[row], offsets[row + 1]);
}

/** A map's JSON bytes: braces, each key (written as a string) and value, and their separators. */
function mapWidth(column: Column, row: number): number {
  const offsets = column.values as Int32Array;
  const [keys, values] = column.children as readonly Column[];
  const count = offsets[row + 1] - offsets[row];
  return 3 + 3 * count + entriesWidth(keys, offsets[row], offsets[row + 1]) + entriesWidth(values, offsets[row], offsets[row + 1]);
}

/** JSON bytes of rows [start, end) of a container's child column. */
function entriesWidth(child: Column, start: number, end: number): number {
  const fixed = fixedWidth(child.type);
  if (fixed !== undefined) return fixed * (end - start);
  const minimum = minimumLength(child.type);
  let bytes = 0;
  for (let i = start; i < end; i++) bytes += variableWidth(child, i, minimum);
  return bytes;
}

/** A row's JSON bytes: brackets plus each field's bytes. */
function rowWidth(column: Column, row: number): number {
  let bytes = 3;
  for (const field of column.children as readonly Column[]) bytes += entriesWidth(field, row, row + 1);
  return bytes;
}

/** Measures rows of one page: a fixed part shared by all rows plus the strings and binaries of each row. */
export class RowSizer {
  private readonly fixed: number;
  private readonly variable: Column[];
  private readonly minimums: number[];

  constructor(page: Page) {
    let fixed = 2;
    this.variable = [];
    this.minimums = [];
    for (const column of page.columns) {
      const width = fixedWidth(column.type);
      if (width !== undefined) fixed += width;
      else {
        this.variable.push(column);
        this.minimums.push(minimumLength(column.type));
      }
    }
    this.fixed = fixed;
  }

  row(index: number): number {
    let bytes = this.fixed;
    for (let c = 0; c < this.variable.length; c++) bytes += variableWidth(this.variable[c], index, this.minimums[c]);
    return bytes;
  }

  rows(from: number, to: number): number {
    if (this.variable.length === 0) return this.fixed * (to - from);
    let bytes = 0;
    for (let i = from; i < to; i++) bytes += this.row(i);
    return bytes;
  }
}
