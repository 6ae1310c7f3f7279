// Parquet files with layouts DuckDB does not write (the legacy two-level LIST, a bare repeated
// field, a page index beside a list column), made from their parts: a schema, and for each INT32
// leaf its pages of repetition and definition levels and values (uncompressed data pages, v1 or
// v2), with a page index when asked. DuckDB reads them too, as the oracle.

import { writeFileSync } from 'node:fs';
import type { ColumnChunk, SchemaElement } from '../../../../src/connectors/hive/formats/parquet/file-metadata.js';
import {
  encodeColumnIndex,
  encodeDataPageHeader,
  encodeFileMetaData,
  encodeOffsetIndex,
} from '../../../../src/connectors/hive/formats/parquet/metadata-writer.js';
import { bitWidthOf, encodeRleHybrid } from '../../../../src/connectors/hive/formats/parquet/rle.js';
import { CompactWriter } from '../../../../src/connectors/hive/formats/parquet/thrift-compact.js';

export interface HandMadePage {
  /** The row (of the row group) the page starts at. */
  firstRow: number;
  /** Levels (empty when the column's maximum is 0). */
  repetition: number[];
  definition: number[];
  values: number[];
}

export interface HandMadeChunk {
  path: string[];
  maxRepetition: number;
  maxDefinition: number;
  pages: HandMadePage[];
  /** Write a column index (each page's min and max value) and an offset index. */
  pageIndex?: boolean;
  /** Data pages v2 (levels uncompressed and without length prefixes, before the values) instead of v1. */
  dataPageV2?: boolean;
}

const MAGIC = new TextEncoder().encode('PAR1');

/** Writes a file of one row group of `rows` rows whose schema is `fields` (the root's `topLevelFields` children, depth first). */
export function writeHandMadeFile(
  path: string,
  fields: SchemaElement[],
  topLevelFields: number,
  rows: number,
  chunks: HandMadeChunk[],
): void {
  const parts: Uint8Array[] = [MAGIC];
  let position = MAGIC.length;
  const append = (bytes: Uint8Array): number => {
    parts.push(bytes);
    position += bytes.length;
    return position - bytes.length;
  };
  const written = chunks.map((chunk) => {
    const start = position;
    const locations = chunk.pages.map((page) => {
      const bytes = chunk.dataPageV2 === true ? dataPageV2(chunk, page) : dataPageV1(chunk, page);
      return { offset: append(bytes), compressedPageSize: bytes.length, firstRowIndex: page.firstRow };
    });
    return { start, size: position - start, locations };
  });
  const columns = chunks.map((chunk, i): ColumnChunk => {
    const { start, size, locations } = written[i];
    const numValues = chunk.pages.reduce((n, p) => n + entries(p), 0);
    const column: ColumnChunk = {
      meta: {
        type: 1,
        encodings: [0, 3],
        path: chunk.path,
        codec: 0,
        numValues,
        totalUncompressedSize: size,
        totalCompressedSize: size,
        dataPageOffset: start,
      },
    };
    if (chunk.pageIndex === true) {
      const index = encodeColumnIndex({
        nullPages: chunk.pages.map(() => false),
        minValues: chunk.pages.map((p) => int32s([Math.min(...p.values)])),
        maxValues: chunk.pages.map((p) => int32s([Math.max(...p.values)])),
      });
      column.columnIndexOffset = append(index);
      column.columnIndexLength = index.length;
      const offsets = encodeOffsetIndex(locations);
      column.offsetIndexOffset = append(offsets);
      column.offsetIndexLength = offsets.length;
    }
    return column;
  });
  const footer = encodeFileMetaData({
    version: 1,
    schema: [{ name: 'schema', numChildren: topLevelFields }, ...fields],
    numRows: rows,
    rowGroups: [{ numRows: rows, totalByteSize: position, columns }],
  });
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, footer.length, true);
  writeFileSync(path, concat([...parts, footer, length, MAGIC]));
}

function dataPageV1(chunk: HandMadeChunk, page: HandMadePage): Uint8Array {
  const body = concat([
    lengthPrefixed(levels(page.repetition, chunk.maxRepetition)),
    lengthPrefixed(levels(page.definition, chunk.maxDefinition)),
    int32s(page.values),
  ]);
  return concat([encodeDataPageHeader(body.length, body.length, entries(page), 0), body]);
}

function dataPageV2(chunk: HandMadeChunk, page: HandMadePage): Uint8Array {
  const repetition = levels(page.repetition, chunk.maxRepetition);
  const definition = levels(page.definition, chunk.maxDefinition);
  const body = concat([repetition, definition, int32s(page.values)]);
  const rows = chunk.maxRepetition === 0 ? entries(page) : page.repetition.filter((r) => r === 0).length;
  const header = new CompactWriter()
    .i32(1, 3)
    .i32(2, body.length)
    .i32(3, body.length)
    .struct(8, (w) =>
      w
        .i32(1, entries(page))
        .i32(2, entries(page) - page.values.length)
        .i32(3, rows)
        .i32(4, 0)
        .i32(5, definition.length)
        .i32(6, repetition.length)
        .bool(7, false),
    )
    .stop()
    .toBytes();
  return concat([header, body]);
}

/** A page's level entries: its values when it has no levels (a required flat column). */
function entries(page: HandMadePage): number {
  return Math.max(page.repetition.length, page.definition.length, page.values.length);
}

/** Levels in the RLE/bit-packed hybrid (nothing when the maximum is 0). */
function levels(values: number[], max: number): Uint8Array {
  return max === 0 ? new Uint8Array(0) : encodeRleHybrid(values, values.length, bitWidthOf(max));
}

/** Levels as a v1 page holds them: a 4-byte length first (nothing at all when there are none). */
function lengthPrefixed(levels: Uint8Array): Uint8Array {
  if (levels.length === 0) return levels;
  const out = new Uint8Array(4 + levels.length);
  new DataView(out.buffer).setUint32(0, levels.length, true);
  out.set(levels, 4);
  return out;
}

function int32s(values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  values.forEach((v, i) => new DataView(out.buffer).setInt32(i * 4, v, true));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
