// Decodes a struct column (struct-schema.ts) of a row group into a row column: each leaf's chunk
// decodes into its values (NULL below its maximum definition level) and its definition levels;
// a struct is NULL in the rows where its leaves' levels fall below the struct's own level (every
// leaf of a struct agrees on that, or the file is malformed).

import type { Column } from '../../../../columnar/page.js';
import { ColumnChunkDecoder, placeRows, splitDataPage } from './column-chunk-decoder.js';
import type { ColumnChunk } from './file-metadata.js';
import type { FetchedBytes } from './fetched-bytes.js';
import { allocateValues } from '../../../../columnar/page.js';
import { ParquetDataError } from './parquet-errors.js';
import { bitWidthOf, decodeRleHybrid } from './rle.js';
import type { StructColumn, StructField, StructGroup, StructLeaf } from './struct-schema.js';

interface DecodedLeaf {
  column: Column;
  definitions: Uint8Array;
}

/** All `rowCount` rows of the struct column in the row group. */
export function decodeStructColumn(struct: StructColumn, chunks: readonly ColumnChunk[], bytes: FetchedBytes, rowCount: number): Column {
  return assemble(struct.root, chunks, bytes, rowCount).column;
}

function assemble(field: StructField, chunks: readonly ColumnChunk[], bytes: FetchedBytes, rowCount: number): DecodedLeaf {
  if (field.kind === 'leaf') return decodeLeaf(field, chunks[field.chunkIndex], bytes, rowCount);
  const children = field.fields.map((f) => assemble(f, chunks, bytes, rowCount));
  const definitions = children[0].definitions;
  return { column: groupColumn(field, children, rowCount), definitions };
}

function groupColumn(group: StructGroup, children: readonly DecodedLeaf[], rowCount: number): Column {
  const levels = children[0].definitions;
  let nulls: Uint8Array | null = null;
  for (let i = 0; i < rowCount; i++) {
    const isNull = levels[i] < group.presentDefinition;
    if (isNull) (nulls ??= new Uint8Array(rowCount))[i] = 1;
    for (let c = 1; c < children.length; c++) {
      if (children[c].definitions[i] < group.presentDefinition !== isNull)
        throw new ParquetDataError(`the fields of struct '${group.name}' disagree on whether row ${i} is NULL`);
    }
  }
  return { type: group.type, length: rowCount, values: new Uint8Array(0), nulls, children: children.map((c) => c.column) };
}

/** A leaf's values and definition levels (a struct field's chunk has no repetition levels). */
function decodeLeaf(leaf: StructLeaf, chunk: ColumnChunk, bytes: FetchedBytes, rowCount: number): DecodedLeaf {
  const meta = chunk.meta;
  const decoder = new ColumnChunkDecoder(leaf, meta, leaf.type);
  const values = allocateValues(leaf.type, rowCount);
  const definitions = new Uint8Array(rowCount);
  let nulls: Uint8Array | null = null;
  let seen = 0;
  const width = bitWidthOf(leaf.maxDefinitionLevel);
  for (const { header, compressed } of decoder.dataPages(bytes)) {
    const parts = splitDataPage(header, compressed(), meta.codec, 0, leaf.maxDefinitionLevel);
    const n = parts.count;
    if (seen + n > rowCount) throw new ParquetDataError(`field '${leaf.name}' holds more than the row group's ${rowCount} rows`);
    const levels = definitions.subarray(seen, seen + n);
    if (leaf.maxDefinitionLevel > 0) decodeRleHybrid(parts.levels, parts.definitionStart, parts.definitionEnd, width, n, levels);
    const defined = new Uint8Array(n);
    let nonNull = 0;
    for (let i = 0; i < n; i++) {
      if (levels[i] > leaf.maxDefinitionLevel)
        throw new ParquetDataError(`definition level ${levels[i]} past field '${leaf.name}''s maximum ${leaf.maxDefinitionLevel}`);
      defined[i] = levels[i] === leaf.maxDefinitionLevel ? 1 : 0;
      nonNull += defined[i];
    }
    const page = { rowCount: n, defined: nonNull === n ? null : defined, ...decoder.pageValues(parts, nonNull) };
    placeRows(page, values, () => (nulls ??= new Uint8Array(rowCount)), seen);
    seen += n;
  }
  if (seen !== rowCount) throw new ParquetDataError(`field '${leaf.name}' holds ${seen} of the row group's ${rowCount} rows`);
  return { column: { type: leaf.type, length: rowCount, values, nulls }, definitions };
}
