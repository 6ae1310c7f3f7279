// Decodes the column chunk of a list column (list-levels in parquet-schema.ts) into an array
// column: Arrow's List layout, one offsets array and null mask per list level, the leaf values at
// the bottom. Each level entry (repetition r, definition d) of the chunk's pages starts a new slot
// at list level r (r = 0: a new row) and, going down, the first slot of every deeper list it
// opens; d says where that stops: a NULL list, an empty one, a NULL element or a value. The values
// themselves decode as a flat column's do (ColumnChunkDecoder), dense, then spread to the
// element slots. A row may span pages (data page v1), so the state runs across pages.

import { allocateValues, type Column, type ColumnValues } from '../../../../columnar/page.js';
import type { SqlType } from '../../../../types/types.js';
import { ColumnChunkDecoder, placeRows, splitDataPage } from './column-chunk-decoder.js';
import type { ColumnMetaData } from './file-metadata.js';
import type { FetchedBytes } from './fetched-bytes.js';
import { ParquetDataError } from './parquet-errors.js';
import type { ListColumn } from './parquet-schema.js';
import { bitWidthOf, decodeRleHybrid } from './rle.js';

const MAX_ENTRIES = 2 ** 31 - 2;

export class ListChunkDecoder {
  private readonly values: ColumnChunkDecoder;
  /** The array type at each list level, outermost first, and the values' type under them. */
  private readonly levelTypes: SqlType[] = [];
  private readonly leafType: SqlType;

  constructor(
    private readonly column: ListColumn,
    private readonly meta: ColumnMetaData,
  ) {
    let type = column.type;
    for (let k = 0; k < column.levels.length; k++) {
      if (type.kind !== 'array') throw new Error(`list column '${column.name}' has type ${type.kind} at level ${k}`);
      this.levelTypes.push(type);
      type = type.element;
    }
    this.leafType = type;
    this.values = new ColumnChunkDecoder(column, meta, type);
  }

  /** All `rowCount` rows of the chunk. */
  decode(bytes: FetchedBytes, rowCount: number): Column {
    const entries = this.meta.numValues;
    if (!Number.isInteger(entries) || entries < 0 || entries > MAX_ENTRIES)
      throw new ParquetDataError(`the chunk claims ${entries} values`);
    if (rowCount > entries) throw new ParquetDataError(`the chunk holds ${entries} values for ${rowCount} rows`);
    const { levels, maxDefinitionLevel } = this.column;
    const depth = levels.length;
    const leafType = this.leafType;
    // Slots per level (rows at level 0) and, at index `depth`, element slots of the innermost lists.
    const counts = new Int32Array(depth + 1);
    const offsets = levels.map(() => new Int32Array(entries + 1));
    const nulls: (Uint8Array | null)[] = levels.map(() => null);
    const leafValues = allocateValues(leafType, entries);
    let leafNulls: Uint8Array | null = null;
    let seen = 0;
    const repetitionWidth = bitWidthOf(depth);
    const definitionWidth = bitWidthOf(maxDefinitionLevel);
    for (const { header, compressed } of this.values.dataPages(bytes)) {
      const parts = splitDataPage(header, compressed(), this.meta.codec, depth, maxDefinitionLevel);
      const n = parts.count;
      if (seen + n > entries) throw new ParquetDataError(`pages hold more than the chunk's ${entries} values`);
      seen += n;
      const repetition = new Uint8Array(n);
      const definition = new Uint8Array(n);
      decodeRleHybrid(parts.levels, parts.repetitionStart, parts.repetitionEnd, repetitionWidth, n, repetition);
      decodeRleHybrid(parts.levels, parts.definitionStart, parts.definitionEnd, definitionWidth, n, definition);
      // Element slots of this page: whether each holds a value (else it is a NULL element).
      const defined = new Uint8Array(n);
      const firstLeaf = counts[depth];
      let nonNull = 0;
      for (let i = 0; i < n; i++) {
        const r = repetition[i];
        const d = definition[i];
        if (r > depth || d > maxDefinitionLevel)
          throw new ParquetDataError(`levels (${r}, ${d}) past the column's maximum (${depth}, ${maxDefinitionLevel})`);
        if (r > 0 && counts[0] === 0) throw new ParquetDataError('the first value continues a list');
        let k = r;
        for (; k < depth; k++) {
          const slot = counts[k]++;
          offsets[k][slot] = counts[k + 1];
          const level = levels[k];
          if (d < level.presentDefinition) {
            (nulls[k] ??= new Uint8Array(entries))[slot] = 1;
            break;
          }
          if (d < level.elementDefinition) break;
        }
        if (k === depth) {
          const value = d === maxDefinitionLevel ? 1 : 0;
          defined[counts[depth]++ - firstLeaf] = value;
          nonNull += value;
        }
      }
      const leaves = counts[depth] - firstLeaf;
      if (leaves === 0) continue;
      const page = {
        rowCount: leaves,
        defined: nonNull === leaves ? null : defined.subarray(0, leaves),
        ...this.values.pageValues(parts, nonNull),
      };
      placeRows(page, leafValues, () => (leafNulls ??= new Uint8Array(entries)), firstLeaf);
    }
    if (counts[0] !== rowCount) throw new ParquetDataError(`column chunk holds ${counts[0]} of the row group's ${rowCount} rows`);
    let column: Column = {
      type: leafType,
      length: counts[depth],
      values: truncate(leafValues, counts[depth]),
      nulls: leafNulls === null ? null : (leafNulls as Uint8Array).slice(0, counts[depth]),
    };
    for (let k = depth - 1; k >= 0; k--) {
      const length = counts[k];
      const levelOffsets = offsets[k].slice(0, length + 1);
      levelOffsets[length] = counts[k + 1];
      const levelNulls = nulls[k];
      column = {
        type: this.levelTypes[k],
        length,
        values: levelOffsets,
        nulls: levelNulls === null ? null : levelNulls.slice(0, length),
        children: [column],
      };
    }
    return column;
  }
}

function truncate(values: ColumnValues, length: number): ColumnValues {
  if (Array.isArray(values)) return values.slice(0, length) as ColumnValues;
  return (values as Uint8Array).slice(0, length) as unknown as ColumnValues;
}
