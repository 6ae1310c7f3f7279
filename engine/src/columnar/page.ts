// Pages and columns: the unit of data that flows between operators.
//
// A column holds one typed buffer and an optional null mask. Numeric and temporal columns hold the
// same typed arrays an Arrow vector holds (zero-copy both ways, see arrow.ts); strings are decoded
// once into JS strings because V8 compares and hashes its own strings far faster than UTF-8 bytes,
// but a column that crossed from another thread keeps its UTF-8 bytes too and decodes them only when
// something reads its values (utf8-strings.ts).
//
// Storage per SQL type (the scalar JS value of one row is given after the arrow):
//   boolean                Uint8Array (0/1)              -> boolean
//   tinyint/smallint/int   Int8Array/Int16Array/Int32Array -> number
//   bigint                 BigInt64Array                 -> bigint
//   real / double          Float32Array / Float64Array   -> number
//   decimal(p<=18, s)      BigInt64Array (unscaled)      -> bigint (unscaled)
//   decimal(p>18, s)       bigint[] (unscaled)           -> bigint (unscaled)
//   varchar / char         string[]                      -> string
//   varbinary              Uint8Array[]                  -> Uint8Array
//   date                   Int32Array (days since 1970-01-01) -> number
//   time(p<=6)             Float64Array (microseconds of the day) -> number
//   timestamp(p<=6)        Float64Array (microseconds since the epoch, UTC wall time) -> number
//   time(p>6), timestamp(p>6)  bigint[] (picoseconds of the day / since the epoch, long-plain-temporal.ts) -> bigint
//   timestamp(p<=3) with time zone  BigInt64Array (epoch millis << 12 | zone key, zoned-timestamp.ts) -> bigint
//   timestamp(p>3) with time zone   bigint[] (millis, picos of the milli and zone key, long-zoned-timestamp.ts) -> bigint
//   time(p) with time zone  bigint[] (normalized picos of the day and offset, zoned-time.ts) -> bigint
//   interval year to month Int32Array (months)           -> number
//   interval day to second Float64Array (milliseconds)   -> number
//   unknown                Uint8Array (every row null)   -> null
//   array(T)               Int32Array of length + 1 offsets, children[0] the elements (Arrow's
//                          List, list-column.ts) -> Scalar[] (a JS array, made only where one
//                          row's value is needed)
//   map(K, V)              the same offsets, children[0] the keys and children[1] the values
//                          (Arrow's Map, map-column.ts) -> MapValue (map-value.ts)
//   row(...)               an empty values array, children one column per field (Arrow's Struct,
//                          row-column.ts) -> Scalar[] of the field values (made where needed)
// Container types nest through `children`: array(array(T)) is a list of lists, map(K, row(...)) a
// map whose values column is a row column.

import { SHORT_DECIMAL_PRECISION, holdsBytes, holdsStrings, unsupportedTypeError, type SqlType } from '../types/types.js';
import { isLongZoned } from '../types/long-zoned-timestamp.js';
import { isLongPlain } from '../types/long-plain-temporal.js';
import { binaryArrayBytes, boxedArrayBytes, sampledStringArrayBytes, stringArrayBytes } from './memory-estimate.js';
import {
  concatListColumns,
  constantListColumn,
  emptyListColumn,
  hasOffsetsLayout,
  listColumnBytes,
  listColumnFromRows,
  listElements,
  readListRow,
  sliceListColumn,
  takeListColumn,
} from './list-column.js';
import { mapColumnFromRows, mapKeys, mapValues, readMapRow } from './map-column.js';
import type { Scalar } from '../types/scalar.js';
import { exactDecimalColumn, exactValuesMaterialized } from './exact-decimals.js';
import { utf8ColumnBytes, type Utf8Column, type Utf8Strings } from './utf8-strings.js';
import {
  concatRowColumns,
  constantRowColumn,
  emptyRowColumn,
  readRowValue,
  rowColumnBytes,
  rowColumnFromRows,
  sliceRowColumn,
  takeRowColumn,
} from './row-column.js';

/** Rows per output page operators (and readers) aim for. */
export const TARGET_PAGE_ROWS = 8192;

export type ColumnValues =
  | Uint8Array
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Float32Array
  | Float64Array
  | bigint[]
  | string[]
  | Uint8Array[];

export interface Column {
  readonly type: SqlType;
  readonly length: number;
  readonly values: ColumnValues;
  /** nulls[i] === 1 when row i is NULL; null when the column has no NULLs. */
  readonly nulls: Uint8Array | null;
  /** The child columns of a container type (an array's elements); absent for every other type. */
  readonly children?: readonly Column[];
  /**
   * A string column's rows as UTF-8, when it came from another thread that way (utf8-strings.ts):
   * `values` holds the same rows, decoded from these bytes when first read.
   */
  readonly utf8?: Utf8Strings;
  /**
   * A decimal column's unscaled values as exact doubles (exact-decimals.ts): `values` holds the same
   * rows, made from these when first read.
   */
  readonly exact?: Float64Array;
}

export interface Page {
  readonly rowCount: number;
  readonly columns: Column[];
}

/** Allocates the storage a column of `type` with `length` rows uses (an array's offsets: length + 1). */
export function allocateValues(type: SqlType, length: number): ColumnValues {
  switch (type.kind) {
    case 'boolean':
    case 'unknown':
      return new Uint8Array(length);
    case 'tinyint':
      return new Int8Array(length);
    case 'smallint':
      return new Int16Array(length);
    case 'integer':
    case 'date':
    case 'interval year to month':
      return new Int32Array(length);
    case 'bigint':
      return new BigInt64Array(length);
    case 'timestamp with time zone':
      return isLongZoned(type.precision) ? new Array<bigint>(length).fill(0n) : new BigInt64Array(length);
    case 'time with time zone':
      return new Array<bigint>(length).fill(0n);
    case 'decimal':
      return type.precision <= SHORT_DECIMAL_PRECISION ? new BigInt64Array(length) : new Array<bigint>(length).fill(0n);
    case 'real':
      return new Float32Array(length);
    case 'time':
    case 'timestamp':
      return isLongPlain(type) ? new Array<bigint>(length).fill(0n) : new Float64Array(length);
    case 'double':
    case 'interval day to second':
      return new Float64Array(length);
    case 'varchar':
    case 'char':
    case 'json':
    case 'uuid':
    case 'ipaddress':
    case 'color':
    case 'number':
      return new Array<string>(length).fill('');
    case 'varbinary':
    case 'sketch':
    case 'variant':
      return new Array<Uint8Array>(length).fill(EMPTY_BYTES);
    case 'array':
    case 'map':
      return new Int32Array(length + 1);
    case 'row':
      return new Uint8Array(0);
    case 'function':
    case 'unsupported':
      throw unsupportedTypeError(type);
  }
}

/**
 * One JS slot per row, for code that writes rows one at a time (builders, compiled expressions,
 * hash tables): the column storage itself, except for container types, whose rows are held as JS
 * values until columnFromSlots lays them out.
 */
export type SlotValues = ColumnValues | Scalar[];

/** Whether a type's rows live in child columns (array, map, row) rather than in `values` alone. */
export function hasChildColumns(type: SqlType): boolean {
  return hasOffsetsLayout(type) || type.kind === 'row';
}

export function allocateSlots(type: SqlType, length: number): SlotValues {
  return hasChildColumns(type) ? new Array<Scalar>(length).fill(null) : allocateValues(type, length);
}

/** Slots [0, length) (allocateSlots) as a column. */
export function columnFromSlots(type: SqlType, slots: SlotValues, length: number, nulls: Uint8Array | null): Column {
  if (type.kind === 'array') return listColumnFromRows(type, slots as Scalar[], length, nulls);
  if (type.kind === 'map') return mapColumnFromRows(type, slots as Scalar[], length, nulls);
  if (type.kind === 'row') return rowColumnFromRows(type, slots as Scalar[], length, nulls);
  const values = slots.length === length ? (slots as ColumnValues) : sliceValues(slots as ColumnValues, 0, length);
  return { type, length, values, nulls };
}

/** A column of no rows. */
export function emptyColumn(type: SqlType): Column {
  if (hasOffsetsLayout(type)) return emptyListColumn(type, 0, null);
  if (type.kind === 'row') return emptyRowColumn(type);
  return { type, length: 0, values: allocateValues(type, 0), nulls: null };
}

const EMPTY_BYTES = new Uint8Array(0);

export function isNull(column: Column, row: number): boolean {
  return column.nulls !== null && column.nulls[row] === 1;
}

/** The scalar value of one row. For generic (slow) paths; inner loops read `values` directly. */
export function getScalar(column: Column, row: number): Scalar {
  if (column.type.kind === 'unknown' || (column.nulls !== null && column.nulls[row] === 1)) return null;
  if (column.type.kind === 'array') return readListRow(column.values as Int32Array, listElements(column), row);
  if (column.type.kind === 'map') return readMapRow(column.values as Int32Array, mapKeys(column), mapValues(column), row);
  if (column.type.kind === 'row') return readRowValue(column, row);
  const v = column.values[row];
  if (column.type.kind === 'boolean') return v === 1;
  return v as Scalar;
}

/** Builds a column from scalar values (NULL as null). */
export function columnFromScalars(type: SqlType, scalars: readonly Scalar[]): Column {
  const builder = new ColumnBuilder(type, scalars.length);
  for (const s of scalars) builder.append(s);
  return builder.build();
}

/** Appends scalars one by one; grows as needed. */
export class ColumnBuilder {
  private values: SlotValues;
  private nulls: Uint8Array | null = null;
  private size = 0;

  constructor(
    readonly type: SqlType,
    initialCapacity = 1024,
  ) {
    this.values = allocateSlots(type, Math.max(initialCapacity, 16));
  }

  get length(): number {
    return this.size;
  }

  append(value: Scalar): void {
    if (this.size === this.values.length) this.grow();
    if (value === null || this.type.kind === 'unknown') {
      if (this.nulls === null) this.nulls = new Uint8Array(this.values.length);
      this.nulls[this.size++] = 1;
      return;
    }
    const v = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    (this.values as unknown as Scalar[])[this.size++] = v;
  }

  /** Appends row `row` of `column`, which must be of the same type. */
  appendFrom(column: Column, row: number): void {
    this.append(getScalar(column, row));
  }

  build(): Column {
    const nulls = this.nulls === null ? null : this.nulls.slice(0, this.size);
    if (hasChildColumns(this.type)) return columnFromSlots(this.type, this.values, this.size, nulls);
    return { type: this.type, length: this.size, values: sliceValues(this.values as ColumnValues, 0, this.size), nulls };
  }

  private grow(): void {
    const capacity = this.values.length * 2;
    const next = allocateSlots(this.type, capacity);
    copyValues(this.values, next, 0);
    this.values = next;
    if (this.nulls !== null) {
      const n = new Uint8Array(capacity);
      n.set(this.nulls);
      this.nulls = n;
    }
  }
}

/** Copies slots into slots (an array column's offsets need concatColumns). */
export function copyValues(from: SlotValues, to: SlotValues, offset: number): void {
  if (Array.isArray(from)) {
    const target = to as unknown[];
    for (let i = 0; i < from.length; i++) target[offset + i] = from[i];
  } else {
    (to as Uint8Array).set(from as Uint8Array, offset);
  }
}

export function sliceValues(values: ColumnValues, start: number, end: number): ColumnValues {
  return values.slice(start, end) as ColumnValues;
}

/** Rows [start, end) of a column. */
export function sliceColumn(column: Column, start: number, end: number): Column {
  if (hasOffsetsLayout(column.type)) return sliceListColumn(column, start, end);
  if (column.type.kind === 'row') return sliceRowColumn(column, start, end);
  const nulls = column.nulls === null ? null : column.nulls.slice(start, end);
  if (column.exact !== undefined && !exactValuesMaterialized(column))
    return exactDecimalColumn(column.type, end - start, nulls, column.exact.slice(start, end));
  return {
    type: column.type,
    length: end - start,
    values: sliceValues(column.values, start, end),
    nulls,
  };
}

export function slicePage(page: Page, start: number, end: number): Page {
  return { rowCount: end - start, columns: page.columns.map((c) => sliceColumn(c, start, end)) };
}

/** The rows at `positions` of a column, in that order (a gather). */
export function takeColumn(column: Column, positions: Int32Array | Uint32Array, count = positions.length): Column {
  const nulls = takeNulls(column.nulls, positions, count);
  if (hasOffsetsLayout(column.type)) return takeListColumn(column, positions, count, nulls);
  if (column.type.kind === 'row') return takeRowColumn(column, positions, count, nulls);
  if (column.exact !== undefined && !exactValuesMaterialized(column)) {
    const exact = new Float64Array(count);
    gatherFloat64(column.exact, exact, positions, count);
    return exactDecimalColumn(column.type, count, nulls, exact);
  }
  const values = allocateValues(column.type, count);
  gatherValues(column.values, values, positions, count);
  return { type: column.type, length: count, values, nulls };
}

function takeNulls(srcNulls: Uint8Array | null, positions: Int32Array | Uint32Array, count: number): Uint8Array | null {
  if (srcNulls === null) return null;
  const nulls = new Uint8Array(count);
  let any = false;
  for (let i = 0; i < count; i++) {
    const n = srcNulls[positions[i]];
    nulls[i] = n;
    if (n === 1) any = true;
  }
  return any ? nulls : null;
}

/**
 * dst[i] = src[positions[i]]. One loop per storage kind keeps each loop monomorphic: a single
 * loop over every typed-array kind runs several times slower once V8 has seen them all.
 */
function gatherValues(src: ColumnValues, dst: ColumnValues, positions: Int32Array | Uint32Array, count: number): void {
  if (src instanceof Float64Array) gatherFloat64(src, dst as Float64Array, positions, count);
  else if (src instanceof Int32Array) gatherInt32(src, dst as Int32Array, positions, count);
  else if (src instanceof BigInt64Array) gatherBigInt64(src, dst as BigInt64Array, positions, count);
  else if (Array.isArray(src)) gatherArray(src as unknown[], dst as unknown[], positions, count);
  else gatherOther(src as Uint8Array, dst as Uint8Array, positions, count);
}

function gatherFloat64(src: Float64Array, dst: Float64Array, positions: Int32Array | Uint32Array, count: number): void {
  for (let i = 0; i < count; i++) dst[i] = src[positions[i]];
}
function gatherInt32(src: Int32Array, dst: Int32Array, positions: Int32Array | Uint32Array, count: number): void {
  for (let i = 0; i < count; i++) dst[i] = src[positions[i]];
}
/** Copies 64-bit values as pairs of 32-bit words: reading a BigInt64Array allocates a BigInt per value. */
function gatherBigInt64(src: BigInt64Array, dst: BigInt64Array, positions: Int32Array | Uint32Array, count: number): void {
  const from = new Int32Array(src.buffer, src.byteOffset, src.length * 2);
  const to = new Int32Array(dst.buffer, dst.byteOffset, dst.length * 2);
  for (let i = 0; i < count; i++) {
    const p = positions[i] * 2;
    to[2 * i] = from[p];
    to[2 * i + 1] = from[p + 1];
  }
}
function gatherArray(src: unknown[], dst: unknown[], positions: Int32Array | Uint32Array, count: number): void {
  for (let i = 0; i < count; i++) dst[i] = src[positions[i]];
}
function gatherOther(src: Uint8Array, dst: Uint8Array, positions: Int32Array | Uint32Array, count: number): void {
  for (let i = 0; i < count; i++) dst[i] = src[positions[i]];
}

export function takePage(page: Page, positions: Int32Array | Uint32Array, count = positions.length): Page {
  return { rowCount: count, columns: page.columns.map((c) => takeColumn(c, positions, count)) };
}

/** Concatenates columns of the same type. */
export function concatColumns(type: SqlType, columns: readonly Column[]): Column {
  let length = 0;
  let anyNulls = false;
  for (const c of columns) {
    length += c.length;
    if (c.nulls !== null) anyNulls = true;
  }
  const nulls = anyNulls ? new Uint8Array(length) : null;
  if (columns.length > 0 && columns.every((c) => c.exact !== undefined && !exactValuesMaterialized(c)))
    return concatExactColumns(type, columns, length, nulls);
  const values = allocateValues(type, length);
  let offset = 0;
  for (const c of columns) {
    if (!hasChildColumns(type)) copyValues(c.values, values, offset);
    if (nulls !== null && c.nulls !== null) nulls.set(c.nulls, offset);
    offset += c.length;
  }
  if (hasOffsetsLayout(type)) return concatListColumns(type, columns, nulls);
  if (type.kind === 'row') return concatRowColumns(type, columns, nulls);
  return { type, length, values, nulls };
}

/** Exact-decimal columns (exact-decimals.ts) joined as one, still as doubles (a filter's small pages compacted, say). */
function concatExactColumns(type: SqlType, columns: readonly Column[], length: number, nulls: Uint8Array | null): Column {
  const exact = new Float64Array(length);
  let offset = 0;
  for (const c of columns) {
    exact.set((c.exact as Float64Array).subarray(0, c.length), offset);
    if (nulls !== null && c.nulls !== null) nulls.set(c.nulls.subarray(0, c.length), offset);
    offset += c.length;
  }
  return exactDecimalColumn(type, length, nulls, exact);
}

export function concatPages(types: readonly SqlType[], pages: readonly Page[]): Page {
  let rowCount = 0;
  for (const p of pages) rowCount += p.rowCount;
  return {
    rowCount,
    columns: types.map((t, i) =>
      concatColumns(
        t,
        pages.map((p) => p.columns[i]),
      ),
    ),
  };
}

/** A column of `length` rows all holding `value`. */
export function constantColumn(type: SqlType, value: Scalar, length: number): Column {
  if (type.kind === 'row') return constantRowColumn(type, value as readonly Scalar[] | null, length);
  if (value === null || type.kind === 'unknown') {
    const nulls = new Uint8Array(length).fill(1);
    return hasOffsetsLayout(type) ? emptyListColumn(type, length, nulls) : { type, length, values: allocateValues(type, length), nulls };
  }
  if (type.kind === 'array') return constantListColumn(type, value as readonly Scalar[], length);
  if (type.kind === 'map') return takeColumn(mapColumnFromRows(type, [value]), new Int32Array(length), length);
  const values = allocateValues(type, length);
  const v = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  (values as unknown as { fill(v: unknown): void }).fill(v);
  return { type, length, values, nulls: null };
}

export function emptyPage(types: readonly SqlType[]): Page {
  return { rowCount: 0, columns: types.map((t) => emptyColumn(t)) };
}

/** Approximate retained size in bytes, for memory accounting. */
export function pageSizeInBytes(page: Page): number {
  let bytes = 0;
  for (const c of page.columns) bytes += columnSizeInBytes(c);
  return bytes;
}

/**
 * pageSizeInBytes with the strings of long columns measured on a sample: an estimate, for bounds, a
 * join's build side and scan statistics (exact sizes of every string cost a join-heavy query 5% of
 * its main thread).
 */
export function estimatedPageBytes(page: Page): number {
  let bytes = 0;
  for (const c of page.columns) bytes += columnSizeInBytes(c, sampledStringArrayBytes);
  return bytes;
}

/** The heap bytes a column holds (see memory-estimate). */
export function columnSizeInBytes(column: Column, stringsBytes: (values: readonly string[]) => number = stringArrayBytes): number {
  const bytes = column.nulls === null ? 0 : column.nulls.byteLength;
  if (column.utf8 !== undefined) return bytes + utf8ColumnBytes(column as Utf8Column, stringsBytes);
  if (column.exact !== undefined && !exactValuesMaterialized(column)) return bytes + column.exact.byteLength;
  const v = column.values;
  if (hasOffsetsLayout(column.type)) return bytes + listColumnBytes(column, stringsBytes);
  if (column.type.kind === 'row') return bytes + rowColumnBytes(column, stringsBytes);
  if (!Array.isArray(v)) return bytes + (v as Uint8Array).byteLength;
  if (holdsStrings(column.type)) return bytes + stringsBytes(v as string[]);
  if (holdsBytes(column.type)) return bytes + binaryArrayBytes(v as Uint8Array[]);
  return bytes + boxedArrayBytes(v.length);
}
