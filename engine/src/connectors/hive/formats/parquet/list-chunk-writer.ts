// Encodes an array column (array(T), array(array(T)), ...) as the column chunk of its leaf, in
// Parquet's standard three-level LIST layout, every level optional:
//   optional group <name> (LIST) { repeated group list { optional <T or the next LIST> element } }
// so that list level k is NULL at definition level 2k, empty at 2k + 1, and the leaf is NULL at
// 2D and a value at 2D + 1 (D list levels; repetition level k + 1 continues the list at level k).
// Data pages v1 of whole rows (repetition, then definition levels, then the values plain), snappy
// compressed; no dictionary and no statistics (readers must not prune lists by their elements).

import type { Column } from '../../../../columnar/page.js';
import { listElements, listOffsets } from '../../../../columnar/list-column.js';
import type { SqlType } from '../../../../types/types.js';
import type { EncodedChunk } from './column-chunk-writer.js';
import type { SchemaElement } from './file-metadata.js';
import { encodeDataPageHeader } from './metadata-writer.js';
import { Codec, ConvertedType, Encoding, PageType, Repetition } from './parquet-constants.js';
import { physicalEncoding, type PhysicalEncoding } from './physical-encoding.js';
import { bitWidthOf, encodeRleHybrid } from './rle.js';
import { snappyCompress } from './snappy.js';

/** Rows per data page (pages hold whole rows, as the page index requires). */
const PAGE_ROWS = 10_000;

export interface ListEncoding {
  /** The schema elements of the column, depth first. */
  elements: SchemaElement[];
  /** Its leaf's path in the schema. */
  path: string[];
  leaf: PhysicalEncoding;
  depth: number;
  /** False for a required leaf (a map's keys): never NULL, a value one definition level lower. */
  leafOptional?: boolean;
}

/** The three-level LIST schema of an array column, or undefined when the type is no array. */
export function listEncoding(name: string, type: SqlType): ListEncoding | undefined {
  if (type.kind !== 'array') return undefined;
  const elements: SchemaElement[] = [];
  const path = [name];
  let t: SqlType = type;
  let fieldName = name;
  let depth = 0;
  while (t.kind === 'array') {
    elements.push({
      name: fieldName,
      repetition: Repetition.Optional,
      numChildren: 1,
      convertedType: ConvertedType.List,
      logicalType: { kind: 'LIST' },
    });
    elements.push({ name: 'list', repetition: Repetition.Repeated, numChildren: 1 });
    path.push('list', 'element');
    fieldName = 'element';
    t = t.element;
    depth++;
  }
  const leaf = physicalEncoding(name, t);
  elements.push({ ...leaf.element, name: 'element' });
  return { elements, path, leaf, depth };
}

/** Repetition and definition levels of rows [first, last), and the leaf positions holding values. */
class Levels implements PageLevels {
  repetition: number[] = [];
  definition: number[] = [];
  leaves: number[] = [];

  constructor(
    private readonly depth: number,
    /** The definition level of a leaf value: 2D + 1, or 2D for a required leaf. */
    private readonly valueDefinition: number,
  ) {}

  /** Slot `i` of list level `k` (a row at level 0), starting with repetition level `r`. */
  add(column: Column, k: number, i: number, r: number): void {
    if (column.nulls !== null && column.nulls[i] === 1) return this.push(r, 2 * k);
    const offsets = listOffsets(column);
    const start = offsets[i];
    const end = offsets[i + 1];
    if (start === end) return this.push(r, 2 * k + 1);
    const elements = listElements(column);
    for (let j = start; j < end; j++) {
      const rep = j === start ? r : k + 1;
      if (k + 1 < this.depth) this.add(elements, k + 1, j, rep);
      else if (elements.nulls !== null && elements.nulls[j] === 1) this.push(rep, 2 * this.depth);
      else {
        this.push(rep, this.valueDefinition);
        this.leaves.push(j);
      }
    }
  }

  private push(r: number, d: number): void {
    this.repetition.push(r);
    this.definition.push(d);
  }
}

export function encodeListChunk(encoding: ListEncoding, column: Column): EncodedChunk {
  let leafColumn = column;
  for (let k = 0; k < encoding.depth; k++) leafColumn = listElements(leafColumn);
  const maxDefinition = 2 * encoding.depth + (encoding.leafOptional === false ? 0 : 1);
  return encodeLeveledChunk(
    encoding.leaf,
    encoding.path,
    column.length,
    leafColumn.values,
    { repetition: encoding.depth, definition: maxDefinition },
    (first, last) => {
      const levels = new Levels(encoding.depth, maxDefinition);
      for (let row = first; row < last; row++) levels.add(column, 0, row, 0);
      return levels;
    },
  );
}

/** The levels and leaf positions of rows [first, last) of a nested column. */
export interface PageLevels {
  repetition: number[];
  definition: number[];
  leaves: number[];
}

/**
 * A nested column's leaf chunk: data pages v1 of PAGE_ROWS rows each (repetition levels when the
 * leaf repeats, definition levels, the values plain), snappy compressed; no dictionary, no
 * statistics. `levelsOf` gives each page's levels and the positions in `leafValues` of its values.
 */
export function encodeLeveledChunk(
  leaf: PhysicalEncoding,
  path: string[],
  rows: number,
  leafValues: Column['values'],
  maxLevels: { repetition: number; definition: number },
  levelsOf: (first: number, last: number) => PageLevels,
): EncodedChunk {
  const parts: Uint8Array[] = [];
  const dataPages: EncodedChunk['dataPages'] = [];
  let offset = 0;
  let uncompressedTotal = 0;
  let numValues = 0;
  for (let first = 0; first < rows; first += PAGE_ROWS) {
    const levels = levelsOf(first, Math.min(rows, first + PAGE_ROWS));
    const count = levels.definition.length;
    const sections: Uint8Array[] = [];
    if (maxLevels.repetition > 0) sections.push(encodeRleHybrid(levels.repetition, count, bitWidthOf(maxLevels.repetition)));
    if (maxLevels.definition > 0) sections.push(encodeRleHybrid(levels.definition, count, bitWidthOf(maxLevels.definition)));
    const values = leaf.plain(leafValues, Int32Array.from(levels.leaves), levels.leaves.length);
    const page = new Uint8Array(sections.reduce((n, b) => n + 4 + b.length, 0) + values.length);
    const view = new DataView(page.buffer);
    let at = 0;
    for (const section of sections) {
      view.setInt32(at, section.length, true);
      page.set(section, at + 4);
      at += 4 + section.length;
    }
    page.set(values, at);
    const compressed = snappyCompress(page);
    const header = encodeDataPageHeader(page.length, compressed.length, count, Encoding.Plain);
    dataPages.push({ offset, length: header.length + compressed.length, firstRow: first });
    parts.push(header, compressed);
    offset += header.length + compressed.length;
    uncompressedTotal += header.length + page.length;
    numValues += count;
  }
  return {
    parts,
    dictionaryPage: false,
    dataPages,
    meta: {
      type: leaf.element.type!,
      encodings: [Encoding.Plain, Encoding.Rle],
      path,
      codec: Codec.Snappy,
      numValues,
      totalUncompressedSize: uncompressedTotal,
      totalCompressedSize: offset,
      dataPageOffset: 0,
      encodingStats: dataPages.length > 0 ? [{ pageType: PageType.DataPage, encoding: Encoding.Plain, count: dataPages.length }] : [],
    },
    columnIndex: undefined,
  };
}
