// Parquet's footer, page headers and page indexes as typed objects, decoded from the generic
// compact-protocol structs (field ids from parquet.thrift).

import type { LogicalType, TimeUnit } from './parquet-constants.js';
import { CompactReader, ThriftError, type ThriftStruct, type ThriftValue } from './thrift-compact.js';

export interface SchemaElement {
  name: string;
  type?: number;
  typeLength?: number;
  repetition?: number;
  numChildren?: number;
  convertedType?: number;
  scale?: number;
  precision?: number;
  logicalType?: LogicalType;
}

export interface Statistics {
  nullCount?: number;
  /** Distinct non-NULL values in the chunk (writers give it for dictionary-encoded chunks, when at all). */
  distinctCount?: number;
  /** min_value / max_value: in the column's own sort order. */
  minValue?: Uint8Array;
  maxValue?: Uint8Array;
  /** The deprecated min / max: signed order, trustworthy only for numeric physical types. */
  legacyMin?: Uint8Array;
  legacyMax?: Uint8Array;
}

export interface PageEncodingStats {
  pageType: number;
  encoding: number;
  count: number;
}

export interface ColumnMetaData {
  type: number;
  encodings: number[];
  path: string[];
  codec: number;
  numValues: number;
  totalUncompressedSize: number;
  totalCompressedSize: number;
  dataPageOffset: number;
  dictionaryPageOffset?: number;
  statistics?: Statistics;
  encodingStats?: PageEncodingStats[];
}

export interface ColumnChunk {
  meta: ColumnMetaData;
  offsetIndexOffset?: number;
  offsetIndexLength?: number;
  columnIndexOffset?: number;
  columnIndexLength?: number;
}

export interface RowGroup {
  columns: ColumnChunk[];
  numRows: number;
  totalByteSize: number;
}

export interface FileMetaData {
  version: number;
  schema: SchemaElement[];
  numRows: number;
  rowGroups: RowGroup[];
  createdBy?: string;
}

export interface DataPageHeader {
  numValues: number;
  encoding: number;
  definitionLevelEncoding: number;
  repetitionLevelEncoding: number;
}

export interface DataPageHeaderV2 {
  numValues: number;
  numNulls: number;
  numRows: number;
  encoding: number;
  definitionLevelsByteLength: number;
  repetitionLevelsByteLength: number;
  isCompressed: boolean;
}

export interface PageHeader {
  type: number;
  uncompressedPageSize: number;
  compressedPageSize: number;
  dataPage?: DataPageHeader;
  dictionaryPage?: { numValues: number; encoding: number };
  dataPageV2?: DataPageHeaderV2;
}

export interface ColumnIndex {
  nullPages: boolean[];
  minValues: Uint8Array[];
  maxValues: Uint8Array[];
  nullCounts?: number[];
}

export interface PageLocation {
  offset: number;
  compressedPageSize: number;
  firstRowIndex: number;
}

export function decodeFileMetaData(bytes: Uint8Array): FileMetaData {
  const s = new CompactReader(bytes).readStruct();
  return {
    version: num(s[1]),
    schema: list(s[2]).map(schemaElement),
    numRows: num(s[3]),
    rowGroups: list(s[4]).map(rowGroup),
    createdBy: optString(s[6]),
  };
}

/** A page header at `offset`; returns it and the offset of the page's data. */
export function decodePageHeader(bytes: Uint8Array, offset: number): { header: PageHeader; dataOffset: number } {
  const reader = new CompactReader(bytes, offset);
  const s = reader.readStruct();
  const header: PageHeader = { type: num(s[1]), uncompressedPageSize: num(s[2]), compressedPageSize: num(s[3]) };
  if (s[5] !== undefined) {
    const d = struct(s[5]);
    header.dataPage = { numValues: num(d[1]), encoding: num(d[2]), definitionLevelEncoding: num(d[3]), repetitionLevelEncoding: num(d[4]) };
  }
  if (s[7] !== undefined) {
    const d = struct(s[7]);
    header.dictionaryPage = { numValues: num(d[1]), encoding: num(d[2]) };
  }
  if (s[8] !== undefined) {
    const d = struct(s[8]);
    header.dataPageV2 = {
      numValues: num(d[1]),
      numNulls: num(d[2]),
      numRows: num(d[3]),
      encoding: num(d[4]),
      definitionLevelsByteLength: num(d[5]),
      repetitionLevelsByteLength: num(d[6]),
      isCompressed: d[7] === undefined ? true : d[7] === true,
    };
  }
  return { header, dataOffset: reader.offset };
}

export function decodeColumnIndex(bytes: Uint8Array): ColumnIndex {
  const s = new CompactReader(bytes).readStruct();
  return {
    nullPages: list(s[1]).map((v) => v === true),
    minValues: list(s[2]).map(binary),
    maxValues: list(s[3]).map(binary),
    nullCounts: s[5] === undefined ? undefined : list(s[5]).map(num),
  };
}

export function decodeOffsetIndex(bytes: Uint8Array): PageLocation[] {
  const s = new CompactReader(bytes).readStruct();
  return list(s[1]).map((v) => {
    const p = struct(v);
    return { offset: num(p[1]), compressedPageSize: num(p[2]), firstRowIndex: num(p[3]) };
  });
}

function schemaElement(v: ThriftValue): SchemaElement {
  const s = struct(v);
  return {
    type: optNum(s[1]),
    typeLength: optNum(s[2]),
    repetition: optNum(s[3]),
    name: optString(s[4]) ?? '',
    numChildren: optNum(s[5]),
    convertedType: optNum(s[6]),
    scale: optNum(s[7]),
    precision: optNum(s[8]),
    logicalType: s[10] === undefined ? undefined : logicalType(struct(s[10])),
  };
}

const SIMPLE_LOGICAL_TYPES: Record<number, LogicalType['kind']> = {
  1: 'STRING',
  2: 'MAP',
  3: 'LIST',
  4: 'ENUM',
  6: 'DATE',
  11: 'UNKNOWN',
  12: 'JSON',
  13: 'BSON',
  14: 'UUID',
  15: 'FLOAT16',
  16: 'VARIANT',
  17: 'GEOMETRY',
  18: 'GEOGRAPHY',
};

function logicalType(s: ThriftStruct): LogicalType | undefined {
  if (s[5] !== undefined) {
    const d = struct(s[5]);
    return { kind: 'DECIMAL', scale: num(d[1]), precision: num(d[2]) };
  }
  for (const [id, kind] of [
    [7, 'TIME'],
    [8, 'TIMESTAMP'],
  ] as const) {
    if (s[id] === undefined) continue;
    const d = struct(s[id]);
    return { kind, isAdjustedToUTC: d[1] === true, unit: timeUnit(struct(d[2])) };
  }
  if (s[10] !== undefined) {
    const d = struct(s[10]);
    return { kind: 'INTEGER', bitWidth: num(d[1]), isSigned: d[2] === true };
  }
  for (const key of Object.keys(s)) {
    const kind = SIMPLE_LOGICAL_TYPES[Number(key)];
    if (kind !== undefined) return { kind } as LogicalType;
  }
  return undefined;
}

function timeUnit(s: ThriftStruct): TimeUnit {
  if (s[1] !== undefined) return 'MILLIS';
  if (s[2] !== undefined) return 'MICROS';
  if (s[3] !== undefined) return 'NANOS';
  throw new ThriftError('time unit without a unit');
}

function rowGroup(v: ThriftValue): RowGroup {
  const s = struct(v);
  return { columns: list(s[1]).map(columnChunk), totalByteSize: num(s[2]), numRows: num(s[3]) };
}

function columnChunk(v: ThriftValue): ColumnChunk {
  const s = struct(v);
  if (s[3] === undefined) throw new ThriftError('column chunk without metadata');
  return {
    meta: columnMetaData(struct(s[3])),
    offsetIndexOffset: optNum(s[4]),
    offsetIndexLength: optNum(s[5]),
    columnIndexOffset: optNum(s[6]),
    columnIndexLength: optNum(s[7]),
  };
}

function columnMetaData(s: ThriftStruct): ColumnMetaData {
  return {
    type: num(s[1]),
    encodings: list(s[2]).map(num),
    path: list(s[3]).map((p) => new TextDecoder().decode(binary(p))),
    codec: num(s[4]),
    numValues: num(s[5]),
    totalUncompressedSize: num(s[6]),
    totalCompressedSize: num(s[7]),
    dataPageOffset: num(s[9]),
    dictionaryPageOffset: optNum(s[11]),
    statistics: s[12] === undefined ? undefined : statistics(struct(s[12])),
    encodingStats:
      s[13] === undefined
        ? undefined
        : list(s[13]).map((e) => {
            const d = struct(e);
            return { pageType: num(d[1]), encoding: num(d[2]), count: num(d[3]) };
          }),
  };
}

function statistics(s: ThriftStruct): Statistics {
  return {
    legacyMax: optBinary(s[1]),
    legacyMin: optBinary(s[2]),
    nullCount: optNum(s[3]),
    distinctCount: optNum(s[4]),
    maxValue: optBinary(s[5]),
    minValue: optBinary(s[6]),
  };
}

function struct(v: ThriftValue | undefined): ThriftStruct {
  if (v === undefined || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array) throw new ThriftError('expected a struct');
  return v as ThriftStruct;
}
function list(v: ThriftValue | undefined): ThriftValue[] {
  if (!Array.isArray(v)) throw new ThriftError('expected a list');
  return v;
}
function num(v: ThriftValue | undefined): number {
  if (typeof v !== 'number') throw new ThriftError('expected a number');
  return v;
}
function optNum(v: ThriftValue | undefined): number | undefined {
  return v === undefined ? undefined : num(v);
}
function binary(v: ThriftValue | undefined): Uint8Array {
  if (!(v instanceof Uint8Array)) throw new ThriftError('expected binary data');
  return v;
}
function optBinary(v: ThriftValue | undefined): Uint8Array | undefined {
  return v === undefined ? undefined : binary(v);
}
function optString(v: ThriftValue | undefined): string | undefined {
  return v === undefined ? undefined : new TextDecoder().decode(binary(v));
}
