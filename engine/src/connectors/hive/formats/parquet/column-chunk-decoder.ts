// Decodes one column chunk of one row group (a flat column) into our column layout: walks its pages
// (all of them, or those the offset index selected), decompresses, decodes definition levels and
// values (plain, dictionary, RLE, delta, byte-stream-split; data pages v1 and v2), converts the
// dictionary once, and keeps the rows of the selected row ranges. Its page walk, page splitting and
// value decoding also serve list columns (list-chunk-decoder.ts), which add repetition levels.

import { allocateValues, type Column, type ColumnValues } from '../../../../columnar/page.js';
import type { SqlType } from '../../../../types/types.js';
import { decompressPage } from './codecs.js';
import { decodeEncoded } from './delta.js';
import { decodePageHeader, type ColumnMetaData, type PageHeader } from './file-metadata.js';
import type { FetchedBytes } from './fetched-bytes.js';
import { Encoding, PageType, PhysicalType } from './parquet-constants.js';
import { ParquetDataError } from './parquet-errors.js';
import { threadScratch, type PageScratch } from './page-scratch.js';
import type { FlatColumn } from './parquet-schema.js';
import { decodePlain, physicalCount } from './physical-values.js';
import { plainAsciiStrings } from './plain-strings.js';
import { decodeRleHybrid } from './rle.js';
import { pickRleHybrid } from './rle-picks.js';
import type { RowRanges } from './row-ranges.js';
import { valueConverter, type ValueConverter } from './value-conversion.js';

/** A data page the offset index located. */
export interface PageRef {
  offset: number;
  firstRow: number;
}

/** Where a chunk's bytes start: its dictionary page when it has one (some writers leave the offset 0 or unset). */
export function chunkStart(meta: ColumnMetaData): number {
  const dict = meta.dictionaryPageOffset;
  return dict !== undefined && dict > 0 && dict < meta.dataPageOffset ? dict : meta.dataPageOffset;
}

/**
 * A decoded data page before its values reach their rows: dictionary indices or dense values (of
 * the non-null rows), and which rows are defined (null when none is NULL).
 */
export interface DecodedPage {
  rowCount: number;
  defined: Uint8Array | null;
  dictionary?: ColumnValues;
  indices?: Int32Array;
  dense?: ColumnValues;
  /** Only the indices (or plain strings) of the rows the output picked (ChunkOutput.picks) were decoded: the others are not the page's. */
  picked?: true;
}

/** Rows rows[from, to) - first of a page, ascending: the few an output wants of it. */
export interface RowPicks {
  rows: Int32Array;
  from: number;
  to: number;
  first: number;
}

/**
 * A page's wanted rows are picked (their dictionary indices decoded alone) when they are fewer than
 * one in this many: an index read at its bit offset costs about 3.5 times one unpacked with all the
 * others (measured on 100,000 indices of 12 bits: picking 2% took 5% of the time of unpacking all,
 * 25% took 80%, 50% took 125%). Plain strings are picked at any share: skipping one costs a read
 * of its length, making it a string far more.
 */
const PICK_INDICES_WHEN_ONE_IN = 4;

export class ColumnChunkDecoder {
  private readonly convert: ValueConverter;
  /** Whether plain values are strings read from BYTE_ARRAYs (decodeStrings is then the converter): ASCII pages take plain-strings.ts. */
  private readonly plainStrings: boolean;
  private dictionary: ColumnValues | undefined;

  /** `column`: a flat column, or the leaf of a list column (then `type` is its elements' type). */
  constructor(
    private readonly column: Pick<FlatColumn, 'element' | 'maxDefinitionLevel'>,
    private readonly meta: ColumnMetaData,
    private readonly type: SqlType,
  ) {
    this.convert = valueConverter(column.element, type);
    this.plainStrings = type.kind === 'varchar' && column.element.type === PhysicalType.ByteArray;
  }

  /** The converted dictionary of the chunk (read from its first page), or undefined when it has none. */
  readDictionary(bytes: FetchedBytes): ColumnValues | undefined {
    const start = chunkStart(this.meta);
    if (start >= this.meta.dataPageOffset) return undefined;
    const { header, dataOffset } = decodePageHeader(bytes.from(start), 0);
    if (header.type !== PageType.DictionaryPage) return undefined;
    this.readDictionaryPage(header, bytes.slice(start + dataOffset, header.compressedPageSize));
    return this.dictionary;
  }

  /** Rows `selection` (of `selectedRows` rows in all) of the chunk; `pages` from the offset index, or all pages in order. */
  decode(bytes: FetchedBytes, pages: readonly PageRef[] | undefined, selection: RowRanges, selectedRows: number): Column {
    return this.decodeInto(bytes, pages, new ColumnOutput(this.type, selectedRows, selection));
  }

  /** The chunk's rows `out` asks for; pages holding none of them are not decompressed. */
  decodeInto(bytes: FetchedBytes, pages: readonly PageRef[] | undefined, out: ChunkOutput): Column {
    if (pages === undefined) {
      let row = 0;
      for (const { header, compressed } of this.dataPages(bytes, () => out.done())) {
        const rows = pageRowCount(header);
        if (out.wants(row, row + rows)) out.append(row, this.dataPage(header, compressed(), out.picks?.(row, rows)));
        row += rows;
      }
    } else {
      if (this.dictionary === undefined) this.readDictionary(bytes);
      for (const page of pages) {
        const { header, dataOffset } = decodePageHeader(bytes.from(page.offset), 0);
        if (header.type !== PageType.DataPage && header.type !== PageType.DataPageV2)
          throw new ParquetDataError('the offset index points at a page that holds no data');
        const rows = pageRowCount(header);
        if (!out.wants(page.firstRow, page.firstRow + rows)) continue;
        const compressed = bytes.slice(page.offset + dataOffset, header.compressedPageSize);
        out.append(page.firstRow, this.dataPage(header, compressed, out.picks?.(page.firstRow, rows)));
      }
    }
    return out.build();
  }

  /** The chunk's data pages in order, until `stop` holds; its dictionary page is read on the way. */
  *dataPages(bytes: FetchedBytes, stop: () => boolean = () => false): Generator<{ header: PageHeader; compressed: () => Uint8Array }> {
    const start = chunkStart(this.meta);
    const end = start + this.meta.totalCompressedSize;
    let offset = start;
    while (offset < end && !stop()) {
      const { header, dataOffset } = decodePageHeader(bytes.from(offset), 0);
      const dataStart = offset + dataOffset;
      offset = dataStart + header.compressedPageSize;
      if (header.type === PageType.DictionaryPage) {
        this.readDictionaryPage(header, bytes.slice(dataStart, header.compressedPageSize));
        continue;
      }
      if (header.type !== PageType.DataPage && header.type !== PageType.DataPageV2) continue;
      yield { header, compressed: () => bytes.slice(dataStart, header.compressedPageSize) };
    }
  }

  private readDictionaryPage(header: PageHeader, compressed: Uint8Array): void {
    const dict = header.dictionaryPage;
    if (dict === undefined) throw new ParquetDataError('dictionary page without its header');
    const data = decompressPage(this.meta.codec, compressed, header.uncompressedPageSize);
    const e = this.column.element;
    this.dictionary =
      (this.plainStrings ? plainAsciiStrings(data, 0, data.length, dict.numValues) : undefined) ??
      this.convert(decodePlain(e.type ?? -1, e.typeLength ?? 0, data, 0, data.length, dict.numValues));
  }

  /**
   * A data page decoded into this thread's scratch buffers: valid until the next page decodes. With
   * `picks`, a page without NULLs may decode only the picked rows (pageValues).
   */
  private dataPage(header: PageHeader, compressed: Uint8Array, picks: RowPicks | undefined): DecodedPage {
    // varbinary values are views of the page's bytes, which must then outlive the page.
    const scratch = this.type.kind === 'varbinary' ? undefined : threadScratch;
    const parts = splitDataPage(header, compressed, this.meta.codec, 0, this.column.maxDefinitionLevel, scratch);
    const { count, levels } = parts;
    let defined: Uint8Array | null = null;
    if (this.column.maxDefinitionLevel > 0) {
      const hasNulls =
        parts.numNulls === undefined ? !allDefined(levels, parts.definitionStart, parts.definitionEnd, count) : parts.numNulls > 0;
      if (hasNulls) {
        defined = threadScratch.levels(count);
        decodeRleHybrid(levels, parts.definitionStart, parts.definitionEnd, 1, count, defined);
      }
    }
    let nonNull = count;
    if (defined !== null) {
      nonNull = 0;
      for (let i = 0; i < count; i++) nonNull += defined[i];
      if (nonNull === count) defined = null;
    }
    return { rowCount: count, defined, ...this.pageValues(parts, nonNull, threadScratch, scratch, defined === null ? picks : undefined) };
  }

  /**
   * The page's `nonNull` values: dictionary indices (in `scratch` when given), or dense converted
   * values (plain ones decoded in `valueScratch` when given: then valid until the next page decodes).
   * With `picks` (rows that are values: the page has no NULLs), only their dictionary indices when
   * they are few, or only their strings from plain ASCII strings (DecodedPage.picked).
   */
  pageValues(
    parts: DataPageParts,
    nonNull: number,
    scratch?: PageScratch,
    valueScratch?: PageScratch,
    picks?: RowPicks,
  ): Pick<DecodedPage, 'dictionary' | 'indices' | 'dense' | 'picked'> {
    const { encoding, data, valuesStart: pos } = parts;
    const e = this.column.element;
    if (encoding === Encoding.PlainDictionary || encoding === Encoding.RleDictionary) {
      if (this.dictionary === undefined) throw new ParquetDataError('dictionary-encoded page without a dictionary');
      if (picks !== undefined && (picks.to - picks.from) * PICK_INDICES_WHEN_ONE_IN < nonNull && pos < data.length) {
        const indices = scratch?.indices(nonNull) ?? new Int32Array(nonNull);
        pickRleHybrid(data, pos + 1, data.length, data[pos], nonNull, picks, indices);
        return { dictionary: this.dictionary, indices, picked: true };
      }
      const indices = scratch?.indices(nonNull) ?? new Int32Array(nonNull);
      if (nonNull > 0) {
        if (pos >= data.length) throw new ParquetDataError('dictionary indices missing');
        decodeRleHybrid(data, pos + 1, data.length, data[pos], nonNull, indices);
      }
      return { dictionary: this.dictionary, indices };
    }
    if (encoding === Encoding.Plain && this.plainStrings) {
      const strings = plainAsciiStrings(data, pos, data.length, nonNull, valueScratch, picks);
      if (strings !== undefined) return picks === undefined ? { dense: strings } : { dense: strings, picked: true };
    }
    let physical;
    if (encoding === Encoding.Plain) physical = decodePlain(e.type ?? -1, e.typeLength ?? 0, data, pos, data.length, nonNull, valueScratch);
    else if (encoding === Encoding.Rle && e.type === PhysicalType.Boolean) {
      const values = new Uint8Array(nonNull);
      decodeRleHybrid(data, pos + 4, data.length, 1, nonNull, values);
      physical = { kind: 'boolean' as const, values };
    } else physical = decodeEncoded(encoding, e.type ?? -1, e.typeLength ?? 0, data, pos, data.length, nonNull);
    if (physicalCount(physical) !== nonNull) throw new ParquetDataError(`page decoded ${physicalCount(physical)} of ${nonNull} values`);
    return { dense: this.convert(physical) };
  }
}

/** A data page's parts: its level sections (in `levels`) and its decompressed values (in `data` from `valuesStart`). */
export interface DataPageParts {
  /** Level entries (values, NULLs and empty lists). */
  count: number;
  encoding: number;
  data: Uint8Array;
  valuesStart: number;
  levels: Uint8Array;
  repetitionStart: number;
  repetitionEnd: number;
  definitionStart: number;
  definitionEnd: number;
  /** Data page v2 says how many values are NULL; v1 does not. */
  numNulls: number | undefined;
}

/** Splits a data page (v1: levels length-prefixed inside the compressed data; v2: levels uncompressed before it). */
export function splitDataPage(
  header: PageHeader,
  compressed: Uint8Array,
  codec: number,
  maxRepetition: number,
  maxDefinition: number,
  scratch?: PageScratch,
): DataPageParts {
  if (header.dataPageV2 !== undefined) {
    const v2 = header.dataPageV2;
    const repetitionEnd = v2.repetitionLevelsByteLength;
    const levelsLength = repetitionEnd + v2.definitionLevelsByteLength;
    if (levelsLength > compressed.length) throw new ParquetDataError('levels longer than the page');
    const values = compressed.subarray(levelsLength);
    const data = v2.isCompressed ? decompressPage(codec, values, header.uncompressedPageSize - levelsLength, scratch) : values;
    return {
      count: v2.numValues,
      encoding: v2.encoding,
      data,
      valuesStart: 0,
      levels: compressed,
      repetitionStart: 0,
      repetitionEnd,
      definitionStart: repetitionEnd,
      definitionEnd: levelsLength,
      numNulls: v2.numNulls,
    };
  }
  const v1 = header.dataPage;
  if (v1 === undefined) throw new ParquetDataError('data page without its header');
  const data = decompressPage(codec, compressed, header.uncompressedPageSize, scratch);
  let pos = 0;
  const section = (max: number, what: string, encoding: number): [number, number] => {
    if (max === 0) return [pos, pos];
    if (encoding !== Encoding.Rle) throw new ParquetDataError(`${what} levels in encoding ${encoding}`);
    if (data.length < pos + 4) throw new ParquetDataError(`page too short for its ${what} levels`);
    const length = (data[pos] | (data[pos + 1] << 8) | (data[pos + 2] << 16) | (data[pos + 3] << 24)) >>> 0;
    const start = pos + 4;
    pos = start + length;
    if (pos > data.length) throw new ParquetDataError(`${what} levels longer than the page`);
    return [start, pos];
  };
  const [repetitionStart, repetitionEnd] = section(maxRepetition, 'repetition', v1.repetitionLevelEncoding);
  const [definitionStart, definitionEnd] = section(maxDefinition, 'definition', v1.definitionLevelEncoding);
  return {
    count: v1.numValues,
    encoding: v1.encoding,
    data,
    valuesStart: pos,
    levels: data,
    repetitionStart,
    repetitionEnd,
    definitionStart,
    definitionEnd,
    numNulls: undefined,
  };
}

/** Whether definition levels (bit width 1) start with one RLE run of 1s covering all `count` values: no NULLs. */
function allDefined(bytes: Uint8Array, start: number, end: number, count: number): boolean {
  let header = 0;
  let p = start;
  for (let shift = 0; p < end && shift <= 28; shift += 7) {
    const b = bytes[p++];
    header += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return (header & 1) === 0 && header / 2 >= count && p < end && bytes[p] === 1;
  }
  return false;
}

function pageRowCount(header: PageHeader): number {
  return header.dataPageV2?.numRows ?? header.dataPage?.numValues ?? 0;
}

/** Writes the page's rows (values and nulls) to out[at, at + rowCount). */
export function placeRows(page: DecodedPage, out: ColumnValues, nulls: () => Uint8Array, at: number): void {
  if (page.picked === true) throw new ParquetDataError('a page decoded at some rows cannot place them all');
  const { rowCount, defined } = page;
  if (page.indices !== undefined) gather(page.dictionary!, page.indices, defined, rowCount, out, at);
  else if (defined === null) copyDense(page.dense!, out, at);
  else scatter(page.dense!, defined, rowCount, out, at);
  if (defined !== null) {
    const n = nulls();
    for (let i = 0; i < rowCount; i++) n[at + i] = defined[i] ^ 1;
  }
}

function copyDense(dense: ColumnValues, out: ColumnValues, at: number): void {
  if (!Array.isArray(dense)) {
    (out as Uint8Array).set(dense as Uint8Array, at);
    return;
  }
  const target = out as unknown[];
  for (let i = 0; i < dense.length; i++) target[at + i] = dense[i];
}

/** The error of a dictionary index past the dictionary (a corrupt page); callers test `index >>> 0 >= size`, so negative ones too. */
export function pastDictionary(index: number, size: number): ParquetDataError {
  return new ParquetDataError(`dictionary index ${index >>> 0} past the dictionary's ${size} entries`);
}

/**
 * out[at + row] = dictionary[indices[k++]] for each defined row; one loop per storage kind keeps each
 * monomorphic. Each index is checked as it is used (no separate pass over the page's indices).
 */
function gather(
  dictionary: ColumnValues,
  indices: Int32Array,
  defined: Uint8Array | null,
  rows: number,
  out: ColumnValues,
  at: number,
): void {
  if (dictionary instanceof BigInt64Array) gatherBigInt64(dictionary, out as BigInt64Array, indices, defined, rows, at);
  else if (dictionary instanceof Float64Array) gatherFloat64(dictionary, out as Float64Array, indices, defined, rows, at);
  else if (dictionary instanceof Int32Array) gatherInt32(dictionary, out as Int32Array, indices, defined, rows, at);
  else if (Array.isArray(dictionary)) gatherArray(dictionary as unknown[], out as unknown[], indices, defined, rows, at);
  else gatherOther(dictionary as Uint8Array, out as Uint8Array, indices, defined, rows, at);
}

/**
 * Element copies between BigInt64Arrays: V8 (Node 20) moves them as 64-bit words without making a
 * bigint, ~40% less time than copying each as two Int32 halves (h5 measurement, 3-4 vs 5-6 ns a row).
 */
function gatherBigInt64(
  dict: BigInt64Array,
  out: BigInt64Array,
  indices: Int32Array,
  defined: Uint8Array | null,
  rows: number,
  at: number,
): void {
  const size = dict.length;
  if (defined === null)
    for (let row = 0; row < rows; row++) {
      const index = indices[row];
      if (index >>> 0 >= size) throw pastDictionary(index, size);
      out[at + row] = dict[index];
    }
  else
    for (let row = 0, k = 0; row < rows; row++) {
      if (defined[row] === 0) continue;
      const index = indices[k++];
      if (index >>> 0 >= size) throw pastDictionary(index, size);
      out[at + row] = dict[index];
    }
}
function gatherFloat64(
  dict: Float64Array,
  out: Float64Array,
  indices: Int32Array,
  defined: Uint8Array | null,
  rows: number,
  at: number,
): void {
  const size = dict.length;
  if (defined === null)
    for (let row = 0; row < rows; row++) {
      const index = indices[row];
      if (index >>> 0 >= size) throw pastDictionary(index, size);
      out[at + row] = dict[index];
    }
  else
    for (let row = 0, k = 0; row < rows; row++) {
      if (defined[row] === 0) continue;
      const index = indices[k++];
      if (index >>> 0 >= size) throw pastDictionary(index, size);
      out[at + row] = dict[index];
    }
}
function gatherInt32(dict: Int32Array, out: Int32Array, indices: Int32Array, defined: Uint8Array | null, rows: number, at: number): void {
  const size = dict.length;
  if (defined === null)
    for (let row = 0; row < rows; row++) {
      const index = indices[row];
      if (index >>> 0 >= size) throw pastDictionary(index, size);
      out[at + row] = dict[index];
    }
  else
    for (let row = 0, k = 0; row < rows; row++) {
      if (defined[row] === 0) continue;
      const index = indices[k++];
      if (index >>> 0 >= size) throw pastDictionary(index, size);
      out[at + row] = dict[index];
    }
}
function gatherArray(dict: unknown[], out: unknown[], indices: Int32Array, defined: Uint8Array | null, rows: number, at: number): void {
  const size = dict.length;
  if (defined === null)
    for (let row = 0; row < rows; row++) {
      const index = indices[row];
      if (index >>> 0 >= size) throw pastDictionary(index, size);
      out[at + row] = dict[index];
    }
  else
    for (let row = 0, k = 0; row < rows; row++) {
      if (defined[row] === 0) continue;
      const index = indices[k++];
      if (index >>> 0 >= size) throw pastDictionary(index, size);
      out[at + row] = dict[index];
    }
}
function gatherOther(dict: Uint8Array, out: Uint8Array, indices: Int32Array, defined: Uint8Array | null, rows: number, at: number): void {
  const size = dict.length;
  if (defined === null)
    for (let row = 0; row < rows; row++) {
      const index = indices[row];
      if (index >>> 0 >= size) throw pastDictionary(index, size);
      out[at + row] = dict[index];
    }
  else
    for (let row = 0, k = 0; row < rows; row++) {
      if (defined[row] === 0) continue;
      const index = indices[k++];
      if (index >>> 0 >= size) throw pastDictionary(index, size);
      out[at + row] = dict[index];
    }
}

/** Dense non-null values spread to their rows, out[at + row]. */
function scatter(dense: ColumnValues, defined: Uint8Array, rows: number, out: ColumnValues, at: number): void {
  if (dense instanceof BigInt64Array) {
    const from = new Int32Array(dense.buffer, dense.byteOffset, dense.length * 2);
    const target = out as BigInt64Array;
    const to = new Int32Array(target.buffer, target.byteOffset, target.length * 2);
    for (let row = 0, k = 0; row < rows; row++) {
      if (defined[row] === 0) continue;
      to[2 * (at + row)] = from[2 * k];
      to[2 * (at + row) + 1] = from[2 * k + 1];
      k++;
    }
    return;
  }
  const target = out as unknown as { [i: number]: unknown };
  const source = dense as unknown as { [i: number]: unknown };
  for (let row = 0, k = 0; row < rows; row++) if (defined[row] === 1) target[at + row] = source[k++];
}

/** Where a chunk's decoded pages go: the rows it wants of each, placed in order. */
export interface ChunkOutput {
  /** Whether every wanted row is placed (the page walk stops). */
  done(): boolean;
  /** Whether rows [start, end) of the row group hold wanted rows. */
  wants(start: number, end: number): boolean;
  /** Places the wanted rows among the page's rows, which start at row `first` of the row group. */
  append(first: number, page: DecodedPage): void;
  /**
   * The rows it wants of the page of `rowCount` rows from row `first` when it wants only some: the
   * decoder may then decode only theirs (pageValues), and append gets a page whose other rows are
   * not decoded (DecodedPage.picked).
   */
  picks?(first: number, rowCount: number): RowPicks | undefined;
  /** How many rows are placed so far. */
  placed(): number;
  build(): Column;
}

/** An output of the rows `selection` (of `selectedRows` rows in all) of a chunk. */
export function rangesOutput(type: SqlType, selectedRows: number, selection: RowRanges): ChunkOutput {
  return new ColumnOutput(type, selectedRows, selection);
}

/** The selected row ranges of a chunk, filled page by page. */
class ColumnOutput implements ChunkOutput {
  private readonly values: ColumnValues;
  private nulls: Uint8Array | null = null;
  private written = 0;
  private rangeIndex = 0;

  constructor(
    private readonly type: SqlType,
    private readonly rowCount: number,
    private readonly selection: RowRanges,
  ) {
    this.values = allocateValues(type, rowCount);
  }

  done(): boolean {
    return this.written === this.rowCount;
  }

  placed(): number {
    return this.written;
  }

  wants(start: number, end: number): boolean {
    for (let i = this.rangeIndex; i < this.selection.length; i++) {
      const [s, e] = this.selection[i];
      if (s >= end) return false;
      if (e > start) return true;
    }
    return false;
  }

  append(first: number, page: DecodedPage): void {
    const last = first + page.rowCount;
    const [s, e] = this.selection[this.rangeIndex] ?? [0, 0];
    if (s <= first && last <= e) {
      // The whole page is selected (the usual case): decode straight into the column.
      if (this.written + page.rowCount > this.rowCount) throw new ParquetDataError('pages hold more rows than the row group');
      placeRows(page, this.values, () => this.nullMask(), this.written);
      this.written += page.rowCount;
      if (last === e) this.rangeIndex++;
      return;
    }
    let rows: { values: ColumnValues; nulls: Uint8Array | null } | undefined;
    while (this.rangeIndex < this.selection.length) {
      const [s, e] = this.selection[this.rangeIndex];
      if (s >= last) return;
      const from = Math.max(s, first);
      const to = Math.min(e, last);
      if (from < to) {
        rows ??= this.materialize(page);
        this.copy(rows, from - first, to - first);
      }
      if (e > last) return;
      this.rangeIndex++;
    }
  }

  private materialize(page: DecodedPage): { values: ColumnValues; nulls: Uint8Array | null } {
    const values = allocateValues(this.type, page.rowCount);
    let nulls: Uint8Array | null = null;
    placeRows(page, values, () => (nulls ??= new Uint8Array(page.rowCount)), 0);
    return { values, nulls };
  }

  private nullMask(): Uint8Array {
    return (this.nulls ??= new Uint8Array(this.rowCount));
  }

  private copy(page: { values: ColumnValues; nulls: Uint8Array | null }, from: number, to: number): void {
    const at = this.written;
    if (at + to - from > this.rowCount) throw new ParquetDataError('pages hold more rows than the row group');
    if (Array.isArray(page.values)) {
      const target = this.values as unknown[];
      const source = page.values as unknown[];
      for (let i = from; i < to; i++) target[at + i - from] = source[i];
    } else {
      (this.values as Uint8Array).set((page.values as Uint8Array).subarray(from, to), at);
    }
    if (page.nulls !== null) this.nullMask().set(page.nulls.subarray(from, to), at);
    this.written += to - from;
  }

  build(): Column {
    if (this.written !== this.rowCount)
      throw new ParquetDataError(`column chunk holds ${this.written} of the row group's ${this.rowCount} rows`);
    return { type: this.type, length: this.rowCount, values: this.values, nulls: this.nulls };
  }
}
