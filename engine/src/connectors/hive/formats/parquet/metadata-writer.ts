// The writer's thrift structures: page headers, the footer, and the page index (field ids from
// parquet.thrift, as file-metadata.ts reads them).

import type { ColumnChunk, ColumnIndex, FileMetaData, PageLocation, SchemaElement, Statistics } from './file-metadata.js';
import type { LogicalType } from './parquet-constants.js';
import { CompactWriter } from './thrift-compact.js';

export function encodeDataPageHeader(uncompressed: number, compressed: number, numValues: number, encoding: number): Uint8Array {
  return new CompactWriter()
    .i32(1, 0)
    .i32(2, uncompressed)
    .i32(3, compressed)
    .struct(5, (w) => w.i32(1, numValues).i32(2, encoding).i32(3, 3).i32(4, 3))
    .stop()
    .toBytes();
}

export function encodeDictionaryPageHeader(uncompressed: number, compressed: number, numValues: number): Uint8Array {
  return new CompactWriter()
    .i32(1, 2)
    .i32(2, uncompressed)
    .i32(3, compressed)
    .struct(7, (w) => w.i32(1, numValues).i32(2, 0))
    .stop()
    .toBytes();
}

export function encodeColumnIndex(index: ColumnIndex): Uint8Array {
  const w = new CompactWriter().bools(1, index.nullPages).binaries(2, index.minValues).binaries(3, index.maxValues).i32(4, 0);
  if (index.nullCounts !== undefined) w.i64s(5, index.nullCounts);
  return w.stop().toBytes();
}

export function encodeOffsetIndex(pages: readonly PageLocation[]): Uint8Array {
  return new CompactWriter()
    .structs(1, pages, (w, p) => w.i64(1, p.offset).i32(2, p.compressedPageSize).i64(3, p.firstRowIndex))
    .stop()
    .toBytes();
}

export function encodeFileMetaData(metadata: FileMetaData): Uint8Array {
  const w = new CompactWriter()
    .i32(1, metadata.version)
    .structs(2, metadata.schema, schemaElement)
    .i64(3, metadata.numRows)
    .structs(4, metadata.rowGroups, (w, g) => w.structs(1, g.columns, columnChunk).i64(2, g.totalByteSize).i64(3, g.numRows));
  if (metadata.createdBy !== undefined) w.string(6, metadata.createdBy);
  // column_orders: TYPE_ORDER for every leaf column, so readers trust min_value/max_value.
  w.structs(
    7,
    metadata.schema.slice(1).filter((e) => e.numChildren === undefined),
    (w) => w.struct(1, () => undefined),
  );
  return w.stop().toBytes();
}

function schemaElement(w: CompactWriter, e: SchemaElement): void {
  if (e.type !== undefined) w.i32(1, e.type);
  if (e.typeLength !== undefined) w.i32(2, e.typeLength);
  if (e.repetition !== undefined) w.i32(3, e.repetition);
  w.string(4, e.name);
  if (e.numChildren !== undefined) w.i32(5, e.numChildren);
  if (e.convertedType !== undefined) w.i32(6, e.convertedType);
  if (e.scale !== undefined) w.i32(7, e.scale);
  if (e.precision !== undefined) w.i32(8, e.precision);
  if (e.logicalType !== undefined) w.struct(10, (w) => logicalType(w, e.logicalType!));
}

function logicalType(w: CompactWriter, t: LogicalType): void {
  switch (t.kind) {
    case 'STRING':
      w.struct(1, () => undefined);
      break;
    case 'MAP':
      w.struct(2, () => undefined);
      break;
    case 'LIST':
      w.struct(3, () => undefined);
      break;
    case 'DECIMAL':
      w.struct(5, (w) => w.i32(1, t.scale).i32(2, t.precision));
      break;
    case 'DATE':
      w.struct(6, () => undefined);
      break;
    case 'TIME':
    case 'TIMESTAMP':
      w.struct(t.kind === 'TIME' ? 7 : 8, (w) =>
        w.bool(1, t.isAdjustedToUTC).struct(2, (w) => w.struct(t.unit === 'MILLIS' ? 1 : t.unit === 'MICROS' ? 2 : 3, () => undefined)),
      );
      break;
    case 'INTEGER':
      w.struct(10, (w) => w.byte(1, t.bitWidth).bool(2, t.isSigned));
      break;
    default:
      throw new Error(`the writer does not write logical type ${t.kind}`);
  }
}

function columnChunk(w: CompactWriter, c: ColumnChunk): void {
  const m = c.meta;
  w.i64(2, m.dataPageOffset).struct(3, (w) => {
    w.i32(1, m.type)
      .i32s(2, m.encodings)
      .strings(3, m.path)
      .i32(4, m.codec)
      .i64(5, m.numValues)
      .i64(6, m.totalUncompressedSize)
      .i64(7, m.totalCompressedSize)
      .i64(9, m.dataPageOffset);
    if (m.dictionaryPageOffset !== undefined) w.i64(11, m.dictionaryPageOffset);
    if (m.statistics !== undefined) w.struct(12, (w) => statistics(w, m.statistics!));
    if (m.encodingStats !== undefined) w.structs(13, m.encodingStats, (w, s) => w.i32(1, s.pageType).i32(2, s.encoding).i32(3, s.count));
  });
  if (c.offsetIndexOffset !== undefined) w.i64(4, c.offsetIndexOffset).i32(5, c.offsetIndexLength!);
  if (c.columnIndexOffset !== undefined) w.i64(6, c.columnIndexOffset).i32(7, c.columnIndexLength!);
}

function statistics(w: CompactWriter, s: Statistics): void {
  if (s.nullCount !== undefined) w.i64(3, s.nullCount);
  if (s.distinctCount !== undefined) w.i64(4, s.distinctCount);
  if (s.maxValue !== undefined) w.binary(5, s.maxValue);
  if (s.minValue !== undefined) w.binary(6, s.minValue);
}
