// Encodes one column of a row group as a Parquet column chunk: a dictionary page when the column
// has few distinct values (not for floating point), data pages (v1: RLE definition levels, then plain values
// or dictionary indices) of at most PAGE_ROWS rows or about PAGE_BYTES, each compressed with
// snappy; statistics (min/max in SQL order, null count) for the chunk and, as the column index, for
// every page, so that readers (ours included) prune row groups and pages.

import type { Column, ColumnValues } from '../../../../columnar/page.js';
import { compareStrings } from '../../../../types/chars.js';
import type { ColumnIndex, ColumnMetaData, PageEncodingStats, Statistics } from './file-metadata.js';
import { encodeDataPageHeader, encodeDictionaryPageHeader } from './metadata-writer.js';
import { Codec, Encoding, PageType, PhysicalType } from './parquet-constants.js';
import type { PhysicalEncoding } from './physical-encoding.js';
import { bitWidthOf, encodeRleHybrid } from './rle.js';
import { snappyCompress } from './snappy.js';

const PAGE_ROWS = 20_000;
const PAGE_BYTES = 1024 * 1024;
const MAX_DICTIONARY_ENTRIES = 1 << 16;
const MAX_DICTIONARY_BYTES = 1024 * 1024;
/** Longer min/max values are left out of the statistics (they would bloat the footer). */
const MAX_STATISTICS_BYTES = 256;

export interface EncodedChunk {
  /** The chunk's bytes, in order (page headers and pages). */
  parts: Uint8Array[];
  /** Offsets relative to the chunk's start. */
  dictionaryPage: boolean;
  dataPages: { offset: number; length: number; firstRow: number }[];
  /** Metadata with offsets relative to the chunk's start. */
  meta: ColumnMetaData;
  columnIndex: ColumnIndex | undefined;
}

export function encodeColumnChunk(encoding: PhysicalEncoding, column: Column): EncodedChunk {
  const rows = column.length;
  const parts: Uint8Array[] = [];
  let offset = 0;
  let uncompressedTotal = 0;
  const push = (header: Uint8Array, body: Uint8Array, uncompressed: number): number => {
    const at = offset;
    parts.push(header, body);
    offset += header.length + body.length;
    uncompressedTotal += header.length + uncompressed;
    return at;
  };
  const dictionary = buildDictionary(column);
  const encodingStats: PageEncodingStats[] = [];
  if (dictionary !== undefined) {
    const plain = encoding.plain(column.values, dictionary.firstRows, dictionary.size);
    const compressed = snappyCompress(plain);
    push(encodeDictionaryPageHeader(plain.length, compressed.length, dictionary.size), compressed, plain.length);
    encodingStats.push({ pageType: PageType.DictionaryPage, encoding: Encoding.Plain, count: 1 });
  }
  const dataPageOffset = offset;
  const statistics = new MinMax(column);
  const columnIndex: ColumnIndex = { nullPages: [], minValues: [], maxValues: [], nullCounts: [] };
  let indexable = true;
  const dataPages: EncodedChunk['dataPages'] = [];
  const nonNull = new Int32Array(Math.min(rows, PAGE_ROWS));
  let nullTotal = 0;
  for (let first = 0; first < rows; ) {
    const last = pageEnd(column, first);
    let count = 0;
    const defined = new Uint8Array(last - first);
    for (let row = first; row < last; row++) {
      if (column.nulls !== null && column.nulls[row] === 1) continue;
      defined[row - first] = 1;
      nonNull[count++] = row;
    }
    const nulls = last - first - count;
    nullTotal += nulls;
    const levels = encodeRleHybrid(defined, defined.length, 1);
    const values = dictionary !== undefined ? dictionaryIndices(dictionary, nonNull, count) : encoding.plain(column.values, nonNull, count);
    const page = new Uint8Array(4 + levels.length + values.length);
    new DataView(page.buffer).setInt32(0, levels.length, true);
    page.set(levels, 4);
    page.set(values, 4 + levels.length);
    const compressed = snappyCompress(page);
    const pageEncoding = dictionary !== undefined ? Encoding.RleDictionary : Encoding.Plain;
    const at = push(encodeDataPageHeader(page.length, compressed.length, last - first, pageEncoding), compressed, page.length);
    dataPages.push({ offset: at, length: offset - at, firstRow: first });
    const pageStats = new MinMax(column);
    for (let i = 0; i < count; i++) pageStats.add(nonNull[i]);
    statistics.merge(pageStats);
    const min = pageStats.encodedMin(encoding);
    const max = pageStats.encodedMax(encoding);
    columnIndex.nullPages.push(count === 0);
    columnIndex.nullCounts!.push(nulls);
    if (count > 0 && (min === undefined || max === undefined)) indexable = false;
    columnIndex.minValues.push(min ?? new Uint8Array(0));
    columnIndex.maxValues.push(max ?? new Uint8Array(0));
    first = last;
  }
  if (dataPages.length > 0)
    encodingStats.push({
      pageType: PageType.DataPage,
      encoding: dictionary !== undefined ? Encoding.RleDictionary : Encoding.Plain,
      count: dataPages.length,
    });
  const stats: Statistics = { nullCount: nullTotal, minValue: statistics.encodedMin(encoding), maxValue: statistics.encodedMax(encoding) };
  // A dictionary holds each distinct value once: readers' estimates take the count for free.
  if (dictionary !== undefined) stats.distinctCount = dictionary.size;
  const encodings = dictionary !== undefined ? [Encoding.Plain, Encoding.Rle, Encoding.RleDictionary] : [Encoding.Plain, Encoding.Rle];
  return {
    parts,
    dictionaryPage: dictionary !== undefined,
    dataPages,
    meta: {
      type: encoding.element.type!,
      encodings,
      path: [encoding.element.name],
      codec: Codec.Snappy,
      numValues: rows,
      totalUncompressedSize: uncompressedTotal,
      totalCompressedSize: offset,
      dataPageOffset,
      dictionaryPageOffset: dictionary !== undefined ? 0 : undefined,
      statistics: stats,
      encodingStats,
    },
    columnIndex: indexable && dataPages.length > 0 ? columnIndex : undefined,
  };
}

/** Where the page starting at `first` ends: PAGE_ROWS rows, or fewer when long values pass PAGE_BYTES. */
function pageEnd(column: Column, first: number): number {
  const limit = Math.min(column.length, first + PAGE_ROWS);
  if (!Array.isArray(column.values)) return limit;
  const values = column.values as (string | Uint8Array)[];
  let bytes = 0;
  for (let row = first; row < limit; row++) {
    bytes += values[row].length + 4;
    if (bytes > PAGE_BYTES) return Math.max(first + 1, row);
  }
  return limit;
}

interface Dictionary {
  /** The row of each entry's first occurrence (the dictionary page is their plain encoding). */
  firstRows: Int32Array;
  size: number;
  /** Index of each row's value (rows that are NULL hold 0). */
  indices: Int32Array;
}

/** The key a value is told apart by in a dictionary, or undefined when the column gets none. */
type DictionaryKey = (row: number) => string | number | undefined;

/**
 * Keys for the storage kinds a dictionary pays off for: strings, binaries, integers, dates, times
 * and timestamps (not floating point: a Map would merge 0 and -0), bigints while exact in a double.
 */
function dictionaryKey(column: Column): DictionaryKey | undefined {
  const values = column.values;
  if (column.type.kind === 'varchar' || column.type.kind === 'char') return (row) => (values as string[])[row];
  if (column.type.kind === 'varbinary') return (row) => Buffer.from((values as Uint8Array[])[row]).toString('latin1');
  if (values instanceof Int32Array || values instanceof Int16Array || values instanceof Int8Array) return (row) => values[row];
  if (values instanceof Float64Array && (column.type.kind === 'timestamp' || column.type.kind === 'time')) return (row) => values[row];
  if (column.type.kind === 'timestamp') return (row) => String((values as bigint[])[row]);
  if (values instanceof BigInt64Array) {
    const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
    return (row) => {
      const high = words[2 * row + 1];
      return high >= -0x100000 && high < 0x100000 ? high * 4294967296 + (words[2 * row] >>> 0) : undefined;
    };
  }
  return undefined;
}

/** Rows looked at before giving up on a column whose values are mostly distinct. */
const DICTIONARY_SAMPLE = 8192;

/** A dictionary of the column's distinct values, or undefined when there are too many of them. */
function buildDictionary(column: Column): Dictionary | undefined {
  const key = dictionaryKey(column);
  if (key === undefined) return undefined;
  const byteArrays = Array.isArray(column.values) && column.type.kind !== 'decimal' && column.type.kind !== 'timestamp';
  const positions = new Map<string | number, number>();
  const firstRows: number[] = [];
  const indices = new Int32Array(column.length);
  let bytes = 0;
  let seen = 0;
  for (let row = 0; row < column.length; row++) {
    if (column.nulls !== null && column.nulls[row] === 1) continue;
    const k = key(row);
    if (k === undefined) return undefined;
    let index = positions.get(k);
    if (index === undefined) {
      index = firstRows.length;
      bytes += byteArrays ? (column.values[row] as string | Uint8Array).length + 4 : 8;
      if (index >= MAX_DICTIONARY_ENTRIES || bytes > MAX_DICTIONARY_BYTES) return undefined;
      positions.set(k, index);
      firstRows.push(row);
    }
    indices[row] = index;
    if (++seen === DICTIONARY_SAMPLE && firstRows.length > DICTIONARY_SAMPLE / 2) return undefined;
  }
  // Mostly distinct values: plain pages are smaller than a dictionary plus indices.
  if (firstRows.length === 0 || firstRows.length > seen / 2) return undefined;
  return { firstRows: Int32Array.from(firstRows), size: firstRows.length, indices };
}

function dictionaryIndices(dictionary: Dictionary, rows: Int32Array, count: number): Uint8Array {
  const width = Math.max(1, bitWidthOf(dictionary.size - 1));
  const picked = new Int32Array(count);
  for (let i = 0; i < count; i++) picked[i] = dictionary.indices[rows[i]];
  const encoded = encodeRleHybrid(picked, count, width);
  const out = new Uint8Array(1 + encoded.length);
  out[0] = width;
  out.set(encoded, 1);
  return out;
}

/** The least and greatest non-null row of a column in SQL order (NaN left out, as readers expect). */
class MinMax {
  min = -1;
  max = -1;
  private readonly compare: (a: number, b: number) => number;

  constructor(private readonly column: Column) {
    this.compare = rowComparator(column.values);
  }

  add(row: number): void {
    const v = this.column.values[row];
    if (typeof v === 'number' && Number.isNaN(v)) return;
    if (this.min < 0 || this.compare(row, this.min) < 0) this.min = row;
    if (this.max < 0 || this.compare(row, this.max) > 0) this.max = row;
  }

  merge(other: MinMax): void {
    if (other.min >= 0) this.add(other.min);
    if (other.max >= 0) this.add(other.max);
  }

  encodedMin(encoding: PhysicalEncoding): Uint8Array | undefined {
    return this.encoded(encoding, this.min, -0);
  }

  encodedMax(encoding: PhysicalEncoding): Uint8Array | undefined {
    return this.encoded(encoding, this.max, 0);
  }

  /** One value as statistics hold it (byte arrays without their length); a zero float bound as ±0 (the spec's rule). */
  private encoded(encoding: PhysicalEncoding, row: number, zero: number): Uint8Array | undefined {
    if (row < 0) return undefined;
    let values = this.column.values;
    let at = row;
    if ((values instanceof Float64Array || values instanceof Float32Array) && values[row] === 0) {
      values = values instanceof Float64Array ? Float64Array.of(zero) : Float32Array.of(zero);
      at = 0;
    }
    let bytes = encoding.plain(values, Int32Array.of(at), 1);
    if (encoding.element.type === PhysicalType.ByteArray) bytes = bytes.subarray(4);
    return bytes.length > MAX_STATISTICS_BYTES ? undefined : bytes.slice();
  }
}

function rowComparator(values: ColumnValues): (a: number, b: number) => number {
  if (values instanceof BigInt64Array) {
    const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
    return (a, b) => words[2 * a + 1] - words[2 * b + 1] || (words[2 * a] >>> 0) - (words[2 * b] >>> 0);
  }
  if (Array.isArray(values)) {
    const v = values as unknown[];
    if (typeof v[0] === 'string') return (a, b) => compareStrings(v[a] as string, v[b] as string);
    if (v[0] instanceof Uint8Array) return (a, b) => compareUnsigned(v[a] as Uint8Array, v[b] as Uint8Array);
    return (a, b) => ((v[a] as bigint) < (v[b] as bigint) ? -1 : (v[a] as bigint) > (v[b] as bigint) ? 1 : 0);
  }
  const v = values as Float64Array;
  return (a, b) => v[a] - v[b];
}

function compareUnsigned(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
