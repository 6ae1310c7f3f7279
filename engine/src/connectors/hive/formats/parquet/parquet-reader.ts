// Reading a byte range of a Parquet file into pages. The range's row groups are those whose first
// byte lies in it (Trino's rule: every row group belongs to exactly one range, and planning never
// opens a footer; the ranges of one file version share its decoded footer, footer-cache.ts). For
// each, the constraint prunes (row-group-filter.ts), then only the requested columns' chunks (or,
// after page-index pruning, their selected pages) are fetched — merged, several requests in
// flight — and decoded into typed arrays, the constrained columns first so that the others decode
// only for the rows that can match. The next row group's bytes are fetched while this one decodes.

import { TARGET_PAGE_ROWS } from '../../../../columnar/page.js';
import { constantColumn, hasChildColumns, sliceColumn, takeColumn, type Column, type Page } from '../../../../columnar/page.js';
import type { FileReadRequest } from '../file-format.js';
import { holdsBytes, holdsStrings } from '../../../../types/types.js';
import { bindColumns, columnsByName, type BoundColumn } from './column-binding.js';
import { ColumnChunkDecoder, chunkStart, rangesOutput, type PageRef } from './column-chunk-decoder.js';
import { DomainTestingOutput } from './domain-testing-output.js';
import { ListChunkDecoder } from './list-chunk-decoder.js';
import { SelectedRowsOutput } from './selected-rows-output.js';
import { decodeMapChunks } from './map-chunk-decoder.js';
import { decodeStructColumn } from './struct-chunk-decoder.js';
import { fetchRanges, type ByteRange, type FetchedBytes } from './fetched-bytes.js';
import type { FileMetaData, RowGroup } from './file-metadata.js';
import { cachedFooter } from './footer-cache.js';
import { asFileError } from './parquet-errors.js';
import { SchemaError, fileColumns, type FileColumn, type FlatColumn } from './parquet-schema.js';
import { overlaps, rowCountOf, type RowRanges } from './row-ranges.js';
import {
  columnFilters,
  dictionariesExclude,
  pageIndexRanges,
  readOffsetIndexes,
  statisticsCanMatch,
  statisticsCoverGroup,
  type ColumnFilter,
  type FilterContext,
} from './row-group-filter.js';

/**
 * The share of the rows left that a pushed-down filter may keep for the reader to drop the others
 * at once, before the next filtered column decodes (only for the rows left); past it, the rows it
 * rejects are dropped after the last filter (dropping costs a pass over the columns decoded so far).
 */
const NARROW_EARLY_AT_MOST = 0.5;

/** A row group ready to decode: its selected rows and the bytes of the chunks (or pages) to decode. */
interface FetchedGroup {
  index: number;
  group: RowGroup;
  selection: RowRanges;
  bytes: FetchedBytes;
  pages: Map<number, PageRef[]>;
}

/** The schema's top-level columns; a malformed schema fails naming the file. */
export function schemaColumns(metadata: FileMetaData, location: string): FileColumn[] {
  try {
    return fileColumns(metadata.schema);
  } catch (e) {
    if (e instanceof SchemaError) throw asFileError(new RangeError(e.message), location, 'its schema is malformed');
    throw e;
  }
}

/** Where a row group's data starts (its first chunk's first page). */
export function rowGroupStart(group: RowGroup): number {
  let start = Infinity;
  for (const c of group.columns) start = Math.min(start, chunkStart(c.meta));
  return start;
}

export async function* readParquetRange(request: FileReadRequest): AsyncIterable<Page> {
  const { fs, file, range, stats, signal } = request;
  const location = file.location;
  const { metadata, bytesRead } = await cachedFooter(fs, file, signal);
  stats.bytesRead += bytesRead;
  const byName = columnsByName(schemaColumns(metadata, location), location);
  const bound = bindColumns(request.columns, byName, location);
  const filters = columnFilters(request.constraint, byName, bound);
  const ctx: FilterContext = { fs, location, signal, countRead: (n) => (stats.bytesRead += n) };
  const groups = metadata.rowGroups
    .map((group, index) => ({ group, index }))
    .filter(
      ({ group }) =>
        group.columns.length > 0 &&
        group.numRows > 0 &&
        rowGroupStart(group) >= range.start &&
        rowGroupStart(group) < range.start + range.length,
    );
  for (const { group } of groups) {
    if (group.columns.length !== metadata.rowGroups[0].columns.length)
      throw asFileError(new RangeError('row groups differ in their column count'), location, 'its metadata is inconsistent');
  }
  const prepare = (i: number): Promise<FetchedGroup | undefined> => {
    const p = prepareGroup(groups[i].group, groups[i].index, bound, filters, ctx, request.stats);
    p.catch(() => undefined); // Awaited in turn; this keeps an early stop from leaving it unhandled.
    return p;
  };
  let next = groups.length > 0 ? prepare(0) : undefined;
  for (let i = 0; i < groups.length; i++) {
    const fetched = await next!;
    next = i + 1 < groups.length ? prepare(i + 1) : undefined;
    signal?.throwIfAborted();
    if (fetched === undefined) continue;
    const { columns, rows } = await decodeGroup(fetched, bound, filters, location);
    if (rows > 0) yield* pagesOf(columns, rows);
  }
}

async function prepareGroup(
  group: RowGroup,
  index: number,
  bound: readonly BoundColumn[],
  filters: readonly ColumnFilter[],
  ctx: FilterContext,
  stats: FileReadRequest['stats'],
): Promise<FetchedGroup | undefined> {
  const groupBytes = group.columns.reduce((n, c) => n + c.meta.totalCompressedSize, 0);
  const skip = (): undefined => {
    stats.rowGroupsSkipped++;
    stats.bytesSkipped += groupBytes;
    return undefined;
  };
  try {
    if (!statisticsCanMatch(group, filters)) return skip();
    if (await dictionariesExclude(group, filters, ctx)) return skip();
    const { ranges: selection, offsetIndexes } = await pageIndexRanges(group, filters, ctx);
    if (selection.length === 0) return skip();
    const chunks = [...new Set(bound.flatMap((b) => (b.kind === 'file' ? chunksOf(b.source) : [])))];
    // A list, map or struct column's pages are read whole (its rows are found from its levels; a struct's fields are decoded together).
    const listChunks = new Set(bound.flatMap((b) => (b.kind === 'file' && b.source.kind !== 'flat' ? chunksOf(b.source) : [])));
    const narrowed = rowCountOf(selection) < group.numRows;
    if (narrowed)
      await readOffsetIndexes(
        group,
        chunks.filter((c) => !listChunks.has(c)),
        offsetIndexes,
        ctx,
      );
    const pages = new Map<number, PageRef[]>();
    const requests: ByteRange[] = [];
    for (const chunkIndex of chunks) {
      const meta = group.columns[chunkIndex].meta;
      const start = chunkStart(meta);
      const locations = narrowed && !listChunks.has(chunkIndex) ? offsetIndexes.get(chunkIndex) : undefined;
      if (locations === undefined) {
        requests.push({ offset: start, length: meta.totalCompressedSize });
        continue;
      }
      if (start < meta.dataPageOffset) requests.push({ offset: start, length: meta.dataPageOffset - start });
      const selected: PageRef[] = [];
      locations.forEach((page, p) => {
        const end = p + 1 < locations.length ? locations[p + 1].firstRowIndex : group.numRows;
        if (!overlaps(selection, page.firstRowIndex, end)) return;
        selected.push({ offset: page.offset, firstRow: page.firstRowIndex });
        requests.push({ offset: page.offset, length: page.compressedPageSize });
      });
      pages.set(chunkIndex, selected);
    }
    const { bytes, total } = await fetchRanges(ctx.fs, ctx.location, requests, ctx.signal);
    ctx.countRead(total);
    stats.rowGroupsRead++;
    const planned = requests.reduce((n, r) => n + r.length, 0);
    stats.bytesSkipped += Math.max(0, groupBytes - planned);
    return { index, group, selection, bytes, pages };
  } catch (e) {
    throw asFileError(e, ctx.location, `row group ${index}`);
  }
}

/**
 * Decodes the row group's columns, yielding to the event loop between them (a large group takes a
 * while). Columns under a pushed-down domain come first, each row tested against it as it is placed
 * (domain-testing-output.ts; not where the row group's statistics prove every row passes); the rows
 * that cannot pass are dropped, and the next columns, tested or not, are decoded only for the rows
 * left (q6's shipdate keeps 15% of lineitem: its discount and quantity are then decoded and tested
 * for those rows alone).
 */
async function decodeGroup(
  fetched: FetchedGroup,
  bound: readonly BoundColumn[],
  filters: readonly ColumnFilter[],
  location: string,
): Promise<{ columns: Column[]; rows: number }> {
  let rows = rowCountOf(fetched.selection);
  /** The row group's row numbers of the rows left, when some were dropped. */
  let wanted: Int32Array | undefined;
  const columns: (Column | undefined)[] = bound.map(() => undefined);
  let decoded = 0;
  const pause = async (): Promise<void> => {
    if (decoded++ > 0) await new Promise((resolve) => setImmediate(resolve));
  };
  const rowFilters = testingOrder(
    bound,
    filtersOnColumns(bound, filters).filter(({ filter }) => !rowsPassWhole(fetched.group, filter)),
  );
  let keep = new Uint8Array(rowFilters.length > 0 ? rows : 0).fill(1);
  for (let f = 0; f < rowFilters.length; f++) {
    const { index, filter } = rowFilters[f];
    await pause();
    columns[index] = decodeTestedColumn(fetched, bound[index] as FlatBound, filter, keep, wanted, rows, location);
    const positions = keptPositions(keep);
    const last = f === rowFilters.length - 1;
    if (positions.length === rows || (!last && positions.length > rows * NARROW_EARLY_AT_MOST)) continue;
    wanted = wanted === undefined ? rowNumbers(positions, fetched.selection) : takeInt32(wanted, positions);
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i];
      if (column !== undefined) columns[i] = takeColumn(column, positions);
    }
    rows = positions.length;
    if (rows === 0) return { columns: [], rows };
    keep = new Uint8Array(rows).fill(1);
  }
  // A tested column decoded as the file's type is read as the table's now (a varchar cut to its bound).
  for (const { index } of rowFilters) {
    const coerce = (bound[index] as FlatBound).coerce;
    if (coerce !== undefined) columns[index] = coerce(columns[index]!);
  }
  for (let i = 0; i < columns.length; i++) {
    if (columns[i] !== undefined) continue;
    await pause();
    columns[i] = decodeColumn(fetched, bound[i], wanted, rows, location);
  }
  return { columns: columns as Column[], rows };
}

function takeInt32(values: Int32Array, positions: Int32Array): Int32Array {
  const out = new Int32Array(positions.length);
  for (let k = 0; k < positions.length; k++) out[k] = values[positions[k]];
  return out;
}

type FlatBound = BoundColumn & { kind: 'file'; source: FlatColumn };

/**
 * A flat column's selected rows (or only the rows `wanted`, row numbers of the group, of them),
 * clearing keep[row] for each row that cannot satisfy the filter's domain.
 */
function decodeTestedColumn(
  fetched: FetchedGroup,
  b: FlatBound,
  filter: ColumnFilter,
  keep: Uint8Array,
  wanted: Int32Array | undefined,
  rows: number,
  location: string,
): Column {
  try {
    const decoder = new ColumnChunkDecoder(b.source, fetched.group.columns[b.source.chunkIndex].meta, b.fileType);
    const inner = wanted === undefined ? rangesOutput(b.fileType, rows, fetched.selection) : new SelectedRowsOutput(b.fileType, wanted);
    const out = new DomainTestingOutput(b.fileType, inner, filter.domain, keep, wanted);
    return decoder.decodeInto(fetched.bytes, fetched.pages.get(b.source.chunkIndex), out);
  } catch (e) {
    throw asFileError(e, location, `column '${b.source.name}' of row group ${fetched.index}`);
  }
}

/**
 * Whether every row of the group passes the filter, so its rows need no test: its statistics lie in
 * the filter's range, and it holds no key bitmap. A dynamic filter's bitmap lies within its range but
 * drops the keys between: q10's orders of one quarter span nearly every order key, so their range
 * covers each lineitem group (which statistics alone then read whole) while the bitmap keeps ~4% of its rows.
 */
function rowsPassWhole(group: RowGroup, filter: ColumnFilter): boolean {
  return filter.domain.keys === undefined && statisticsCoverGroup(group, filter);
}

/**
 * The filters on columns decoded into typed arrays first, those on string or binary columns last
 * (each kept in the constraint's order): a string column decoded for a whole row group fills a JS
 * array of its rows (a large object, fresh pages: allocateValues was 14% of q10's samples over
 * DuckDB's files, l_returnflag = 'R' tested on 122,880 rows per group), while after a numeric
 * filter that drops most rows (q10's dynamic filter on l_orderkey keeps ~4%) it decodes only the rows left.
 */
function testingOrder(
  bound: readonly BoundColumn[],
  filters: readonly { index: number; filter: ColumnFilter }[],
): { index: number; filter: ColumnFilter }[] {
  const boxed = ({ index }: { index: number }) => {
    const type = (bound[index] as FlatBound).fileType;
    return holdsStrings(type) || holdsBytes(type);
  };
  return [...filters.filter((f) => !boxed(f)), ...filters.filter(boxed)];
}

/** The filters on flat columns: their domains judge the values decoded as the file's type (row-group-filter.ts). */
function filtersOnColumns(bound: readonly BoundColumn[], filters: readonly ColumnFilter[]): { index: number; filter: ColumnFilter }[] {
  const out: { index: number; filter: ColumnFilter }[] = [];
  for (const filter of filters) {
    const index = bound.findIndex((b) => b.kind === 'file' && b.source.kind === 'flat' && b.source.chunkIndex === filter.column.chunkIndex);
    if (index >= 0) out.push({ index, filter });
  }
  return out;
}

/** The positions i where keep[i] is 1, in one pass without a branch per row. */
function keptPositions(keep: Uint8Array): Int32Array {
  const positions = new Int32Array(keep.length);
  let k = 0;
  for (let i = 0; i < keep.length; i++) {
    positions[k] = i;
    k += keep[i];
  }
  return positions.subarray(0, k);
}

/** The row group's row numbers of positions among the selection's rows (both ascending). */
function rowNumbers(positions: Int32Array, selection: RowRanges): Int32Array {
  // The whole row group selected (no page index pruned it): positions are its row numbers.
  if (selection.length === 1 && selection[0][0] === 0) return positions;
  const out = new Int32Array(positions.length);
  let range = 0;
  let before = 0; // selected rows in the ranges before `range`
  for (let k = 0; k < positions.length; k++) {
    while (positions[k] >= before + selection[range][1] - selection[range][0]) {
      before += selection[range][1] - selection[range][0];
      range++;
    }
    out[k] = selection[range][0] + positions[k] - before;
  }
  return out;
}

/** One bound column of the row group: its selected rows, or only the rows `wanted` (row numbers of the group) of them. */
function decodeColumn(fetched: FetchedGroup, b: BoundColumn, wanted: Int32Array | undefined, rows: number, location: string): Column {
  if (b.kind === 'missing') return constantColumn(b.declared, null, wanted?.length ?? rows);
  try {
    const source = b.source;
    const meta = fetched.group.columns[chunksOf(source)[0]].meta;
    const numRows = fetched.group.numRows;
    let column: Column;
    if (source.kind === 'flat') {
      const decoder = new ColumnChunkDecoder(source, meta, b.fileType);
      const pages = fetched.pages.get(source.chunkIndex);
      column =
        wanted === undefined
          ? decoder.decode(fetched.bytes, pages, fetched.selection, rows)
          : decoder.decodeInto(fetched.bytes, pages, new SelectedRowsOutput(b.fileType, wanted));
    } else {
      const whole =
        source.kind === 'struct'
          ? decodeStructColumn(source, fetched.group.columns, fetched.bytes, numRows)
          : source.kind === 'list'
            ? new ListChunkDecoder(source, meta).decode(fetched.bytes, numRows)
            : decodeMapChunks(source, meta, fetched.group.columns[source.values.chunkIndex].meta, fetched.bytes, numRows);
      column = wanted === undefined ? selectRows(whole, fetched.selection, rows) : takeColumn(whole, wanted);
    }
    return b.coerce === undefined ? column : b.coerce(column);
  } catch (e) {
    throw asFileError(e, location, `column '${b.source.name}' of row group ${fetched.index}`);
  }
}

/** The selected rows of a whole row group's column. */
function selectRows(column: Column, selection: RowRanges, rows: number): Column {
  if (rows === column.length) return column;
  const positions = new Int32Array(rows);
  let k = 0;
  for (const [start, end] of selection) for (let row = start; row < end; row++) positions[k++] = row;
  return takeColumn(column, positions, rows);
}

/** The row group's columns as pages of up to TARGET_PAGE_ROWS rows (views, not copies, of typed arrays). */
function* pagesOf(columns: Column[], rows: number): Iterable<Page> {
  if (rows <= TARGET_PAGE_ROWS) {
    yield { rowCount: rows, columns };
    return;
  }
  for (let start = 0; start < rows; start += TARGET_PAGE_ROWS) {
    const end = Math.min(rows, start + TARGET_PAGE_ROWS);
    yield {
      rowCount: end - start,
      columns: columns.map((c) =>
        hasChildColumns(c.type)
          ? sliceColumn(c, start, end)
          : ({
              type: c.type,
              length: end - start,
              values: Array.isArray(c.values) ? c.values.slice(start, end) : c.values.subarray(start, end),
              nulls: c.nulls === null ? null : c.nulls.subarray(start, end),
            } as Column),
      ),
    };
  }
}

/** The column chunks a bound file column reads: a map's keys and values, one chunk otherwise. */
function chunksOf(source: (BoundColumn & { kind: 'file' })['source']): number[] {
  if (source.kind === 'struct') return source.chunkIndexes;
  return source.kind === 'map' ? [source.keys.chunkIndex, source.values.chunkIndex] : [source.chunkIndex];
}
