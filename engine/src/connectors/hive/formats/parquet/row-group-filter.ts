// Which rows of a row group a query's constraint can need, decided from what the file says about
// them, cheapest first: the row group's statistics (min/max, null count: no I/O), the dictionaries
// of fully dictionary-encoded chunks (for IN and =: one small read), then the page index (column
// index min/max per page, offset index rows: one read) narrowing the row group to row ranges.

import type { ColumnDomain, TableConstraint } from '../../../../spi/connector.js';
import { typesEqual, type SqlType } from '../../../../types/types.js';
import type { FileSystem } from '../../file-system/file-system.js';
import { plainTimestamps, type BoundColumn } from './column-binding.js';
import { ColumnChunkDecoder, chunkStart } from './column-chunk-decoder.js';
import { compareBounds, prepareDomain, rangeCanMatch, valueMatches, type PreparedDomain } from '../../../../spi/domain/prepared-domain.js';
import { BoundDecoder, dictionaryBounds } from './domain-pruning.js';
import { fetchRanges, type ByteRange } from './fetched-bytes.js';
import { decodeColumnIndex, decodeOffsetIndex, type ColumnChunk, type PageLocation, type RowGroup } from './file-metadata.js';
import { Encoding, PageType, PhysicalType } from './parquet-constants.js';
import type { FileColumn, FlatColumn } from './parquet-schema.js';
import { effectiveLogicalType } from './type-mapping.js';
import { allRows, appendRange, intersectRanges, type RowRanges } from './row-ranges.js';

/** A domain on a flat column of the file, ready to compare with its statistics. */
export interface ColumnFilter {
  column: FlatColumn;
  domain: PreparedDomain;
  bounds: BoundDecoder;
}

/**
 * Filters for the constraint's domains on file columns whose values the domain judges alike read as
 * the file's type or as the table's (else values could differ after coercion).
 */
export function columnFilters(
  constraint: TableConstraint | undefined,
  byName: Map<string, FileColumn>,
  bound: readonly BoundColumn[],
): ColumnFilter[] {
  const filters: ColumnFilter[] = [];
  for (const domain of constraint ?? []) {
    const file = byName.get(domain.column.toLowerCase());
    if (file === undefined || file.kind !== 'flat' || !('kind' in file.type)) continue;
    const declared = bound.find((b) => b.name.toLowerCase() === domain.column.toLowerCase())?.declared;
    const readType = declared !== undefined && plainTimestamps(file.type, declared) ? declared : file.type;
    if (declared !== undefined && !judgedAlike(readType, declared, domain)) continue;
    const filter = columnFilter(file, readType, domain);
    if (filter !== undefined) filters.push(filter);
  }
  return filters;
}

/**
 * Whether the domain holds for a file value exactly when it holds for the value read as `declared`.
 * A string longer than a bounded varchar is cut to its length; a string sharing its first n units
 * with a longer one compares the same with every constant shorter than n units (their comparison
 * is decided within the constant's length plus one), so the domain judges cut and uncut values
 * alike when all its constants are shorter than the bound (TPC-H's tables declare varchar(25) over
 * files holding plain strings).
 */
function judgedAlike(readType: SqlType, declared: SqlType, domain: ColumnDomain): boolean {
  if (typesEqual(declared, readType)) return true;
  if (readType.kind !== 'varchar' || declared.kind !== 'varchar') return false;
  const length = declared.length;
  if (length === undefined) return true;
  const shorter = (v: unknown) => typeof v === 'string' && v.length < length;
  return (
    (domain.low === undefined || shorter(domain.low.value)) &&
    (domain.high === undefined || shorter(domain.high.value)) &&
    (domain.values ?? []).every(shorter)
  );
}

function columnFilter(column: FlatColumn, type: SqlType, domain: ColumnDomain): ColumnFilter | undefined {
  if (type.kind === 'char') return undefined;
  const bounds = new BoundDecoder(column, type);
  const prepared = prepareDomain(domain, bounds.bytewise);
  return prepared === undefined ? undefined : { column, domain: prepared, bounds };
}

/** Whether the row group's statistics leave rows that can match every filter. */
export function statisticsCanMatch(group: RowGroup, filters: readonly ColumnFilter[]): boolean {
  for (const f of filters) {
    const meta = group.columns[f.column.chunkIndex]?.meta;
    const stats = meta?.statistics;
    if (stats === undefined) continue;
    if (stats.nullCount !== undefined && stats.nullCount >= group.numRows && group.numRows > 0) return false;
    const legacyOk = legacyStatisticsOrdered(f.column);
    const min = f.bounds.decode(stats.minValue ?? (legacyOk ? stats.legacyMin : undefined));
    const max = f.bounds.decode(stats.maxValue ?? (legacyOk ? stats.legacyMax : undefined));
    if (!rangeCanMatch(f.domain, min, max)) return false;
  }
  return true;
}

/**
 * Whether the row group's statistics prove that every row satisfies the filter (no NULLs, min and
 * max inside its range, no value list): then its rows need no testing one by one.
 */
export function statisticsCoverGroup(group: RowGroup, f: ColumnFilter): boolean {
  const stats = group.columns[f.column.chunkIndex]?.meta?.statistics;
  if (stats === undefined || stats.nullCount !== 0 || f.domain.values !== undefined) return false;
  const legacyOk = legacyStatisticsOrdered(f.column);
  const min = f.bounds.decode(stats.minValue ?? (legacyOk ? stats.legacyMin : undefined));
  const max = f.bounds.decode(stats.maxValue ?? (legacyOk ? stats.legacyMax : undefined));
  if (min === undefined || max === undefined) return false;
  const { low, high } = f.domain;
  if (low !== undefined) {
    const c = compareBounds(min, low.value);
    if (c === undefined || c < 0 || (c === 0 && !low.inclusive)) return false;
  }
  if (high !== undefined) {
    const c = compareBounds(max, high.value);
    if (c === undefined || c > 0 || (c === 0 && !high.inclusive)) return false;
  }
  return true;
}

/** The deprecated min/max used signed order: right for signed numbers, wrong for strings and unsigned integers. */
function legacyStatisticsOrdered(column: FlatColumn): boolean {
  const t = column.element.type;
  const logical = effectiveLogicalType(column.element);
  if (logical?.kind === 'INTEGER' && !logical.isSigned) return false;
  return (
    t === PhysicalType.Int32 ||
    t === PhysicalType.Int64 ||
    t === PhysicalType.Float ||
    t === PhysicalType.Double ||
    t === PhysicalType.Boolean
  );
}

function dictionaryOnly(chunk: ColumnChunk): boolean {
  const meta = chunk.meta;
  if (chunkStart(meta) >= meta.dataPageOffset) return false;
  const dictionary = (e: number) => e === Encoding.PlainDictionary || e === Encoding.RleDictionary;
  if (meta.encodingStats !== undefined) {
    return meta.encodingStats.every(
      (s) => (s.pageType !== PageType.DataPage && s.pageType !== PageType.DataPageV2) || s.count === 0 || dictionary(s.encoding),
    );
  }
  return meta.encodings.some(dictionary) && meta.encodings.every((e) => dictionary(e) || e === Encoding.Rle || e === Encoding.BitPacked);
}

export interface FilterContext {
  fs: FileSystem;
  location: string;
  signal?: AbortSignal;
  /** Counts bytes read for pruning (dictionaries, page indexes). */
  countRead(bytes: number): void;
}

/** Whether some dictionary-only chunk under an IN / = filter holds none of the values (then no row matches). */
export async function dictionariesExclude(group: RowGroup, filters: readonly ColumnFilter[], ctx: FilterContext): Promise<boolean> {
  const candidates = filters.filter((f) => f.domain.values !== undefined && dictionaryOnly(group.columns[f.column.chunkIndex]));
  if (candidates.length === 0) return false;
  const ranges = candidates.map((f): ByteRange => {
    const meta = group.columns[f.column.chunkIndex].meta;
    const start = chunkStart(meta);
    return { offset: start, length: meta.dataPageOffset - start };
  });
  const { bytes, total } = await fetchRanges(ctx.fs, ctx.location, ranges, ctx.signal);
  ctx.countRead(total);
  for (const f of candidates) {
    const decoder = new ColumnChunkDecoder(f.column, group.columns[f.column.chunkIndex].meta, f.bounds.type);
    const dictionary = decoder.readDictionary(bytes);
    if (dictionary === undefined) continue;
    if (!dictionaryBounds(dictionary, f.bounds.bytewise).some((v) => valueMatches(f.domain, v))) return true;
  }
  return false;
}

/** The page index of some chunks: page locations by chunk index. */
export type OffsetIndexes = Map<number, PageLocation[]>;

/**
 * The row ranges the filters' column indexes leave (all rows when no filtered column has one), and
 * the offset indexes read on the way.
 */
export async function pageIndexRanges(
  group: RowGroup,
  filters: readonly ColumnFilter[],
  ctx: FilterContext,
): Promise<{ ranges: RowRanges; offsetIndexes: OffsetIndexes }> {
  const offsetIndexes: OffsetIndexes = new Map();
  // A filter every row of the group passes keeps every page: its index is not worth reading (a
  // dynamic filter's range over a join's whole key range, say).
  const indexed = filters.filter((f) => {
    const c = group.columns[f.column.chunkIndex];
    const hasIndex =
      c.columnIndexOffset !== undefined &&
      c.columnIndexLength !== undefined &&
      c.offsetIndexOffset !== undefined &&
      c.offsetIndexLength !== undefined;
    return hasIndex && !statisticsCoverGroup(group, f);
  });
  let ranges = allRows(group.numRows);
  if (indexed.length === 0) return { ranges, offsetIndexes };
  const requests: ByteRange[] = [];
  for (const f of indexed) {
    const c = group.columns[f.column.chunkIndex];
    requests.push(
      { offset: c.columnIndexOffset!, length: c.columnIndexLength! },
      { offset: c.offsetIndexOffset!, length: c.offsetIndexLength! },
    );
  }
  const { bytes, total } = await fetchRanges(ctx.fs, ctx.location, requests, ctx.signal);
  ctx.countRead(total);
  for (const f of indexed) {
    const c = group.columns[f.column.chunkIndex];
    const columnIndex = decodeColumnIndex(bytes.slice(c.columnIndexOffset!, c.columnIndexLength!));
    const pages = decodeOffsetIndex(bytes.slice(c.offsetIndexOffset!, c.offsetIndexLength!));
    offsetIndexes.set(f.column.chunkIndex, pages);
    const kept: [number, number][] = [];
    for (let p = 0; p < pages.length; p++) {
      const start = pages[p].firstRowIndex;
      const end = p + 1 < pages.length ? pages[p + 1].firstRowIndex : group.numRows;
      if (columnIndex.nullPages[p]) continue;
      const min = f.bounds.decode(columnIndex.minValues[p]);
      const max = f.bounds.decode(columnIndex.maxValues[p]);
      if (rangeCanMatch(f.domain, min, max)) appendRange(kept, start, end);
    }
    ranges = intersectRanges(ranges, kept);
  }
  return { ranges, offsetIndexes };
}

/** Reads the offset indexes of `chunks` not yet in `known`; chunks without one are left out. */
export async function readOffsetIndexes(
  group: RowGroup,
  chunks: readonly number[],
  known: OffsetIndexes,
  ctx: FilterContext,
): Promise<void> {
  const wanted = chunks.filter(
    (i) => !known.has(i) && group.columns[i].offsetIndexOffset !== undefined && group.columns[i].offsetIndexLength !== undefined,
  );
  if (wanted.length === 0) return;
  const requests = wanted.map((i) => ({ offset: group.columns[i].offsetIndexOffset!, length: group.columns[i].offsetIndexLength! }));
  const { bytes, total } = await fetchRanges(ctx.fs, ctx.location, requests, ctx.signal);
  ctx.countRead(total);
  for (const i of wanted)
    known.set(i, decodeOffsetIndex(bytes.slice(group.columns[i].offsetIndexOffset!, group.columns[i].offsetIndexLength!)));
}
