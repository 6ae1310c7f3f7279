// Parquet files with list layouts DuckDB does not write (the legacy two-level LIST, a bare repeated
// field), made from their parts: a schema, one INT32 leaf's repetition and definition levels and
// values in one uncompressed data page v1. DuckDB reads them too, as the oracle.

import { writeFileSync } from 'node:fs';
import type { SchemaElement } from '../../../../src/connectors/hive/formats/parquet/file-metadata.js';
import { encodeDataPageHeader, encodeFileMetaData } from '../../../../src/connectors/hive/formats/parquet/metadata-writer.js';
import { bitWidthOf, encodeRleHybrid } from '../../../../src/connectors/hive/formats/parquet/rle.js';

export interface LeafLevels {
  rows: number;
  repetition: number[];
  definition: number[];
  values: number[];
  maxRepetition: number;
  maxDefinition: number;
}

const MAGIC = new TextEncoder().encode('PAR1');

/** Writes a file whose schema is `fields` (the root's children, depth first) with one INT32 leaf at `path`. */
export function writeOneLeafFile(path: string, fields: SchemaElement[], topLevelFields: number, leafPath: string[], leaf: LeafLevels): void {
  const levels = (values: number[], max: number): Uint8Array => {
    if (max === 0) return new Uint8Array(0);
    const rle = encodeRleHybrid(values, values.length, bitWidthOf(max));
    const out = new Uint8Array(4 + rle.length);
    new DataView(out.buffer).setUint32(0, rle.length, true);
    out.set(rle, 4);
    return out;
  };
  const values = new Uint8Array(leaf.values.length * 4);
  leaf.values.forEach((v, i) => new DataView(values.buffer).setInt32(i * 4, v, true));
  const body = concat([levels(leaf.repetition, leaf.maxRepetition), levels(leaf.definition, leaf.maxDefinition), values]);
  const header = encodeDataPageHeader(body.length, body.length, leaf.repetition.length, 0);
  const chunk = concat([header, body]);
  const footer = encodeFileMetaData({
    version: 1,
    schema: [{ name: 'schema', numChildren: topLevelFields }, ...fields],
    numRows: leaf.rows,
    rowGroups: [
      {
        numRows: leaf.rows,
        totalByteSize: chunk.length,
        columns: [{ meta: { type: 1, encodings: [0, 3], path: leafPath, codec: 0, numValues: leaf.repetition.length, totalUncompressedSize: chunk.length, totalCompressedSize: chunk.length, dataPageOffset: 4 } }],
      },
    ],
  });
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, footer.length, true);
  writeFileSync(path, concat([MAGIC, chunk, footer, length, MAGIC]));
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
