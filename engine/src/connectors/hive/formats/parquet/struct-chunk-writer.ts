// Encodes a row column (row(...), rows of rows) as a Parquet struct: an optional group per row
// level, an optional primitive per field, one column chunk per primitive field. A leaf's definition
// level counts the non-NULL levels above and at it: a NULL row (or NULL inner row) stops the count
// there, a value is the maximum (see list-chunk-writer's encodeLeveledChunk for the pages).
// Rows holding arrays are not written yet: the writer refuses them naming the column.

import type { Column } from '../../../../columnar/page.js';
import { rowFieldColumns } from '../../../../columnar/row-column.js';
import type { SqlType } from '../../../../types/types.js';
import type { EncodedChunk } from './column-chunk-writer.js';
import type { SchemaElement } from './file-metadata.js';
import { encodeLeveledChunk } from './list-chunk-writer.js';
import { Repetition } from './parquet-constants.js';
import { physicalEncoding, type PhysicalEncoding } from './physical-encoding.js';

interface StructLeafEncoding {
  /** The field index at each row level, outermost first. */
  fieldPath: number[];
  path: string[];
  leaf: PhysicalEncoding;
}

export interface StructEncoding {
  /** The schema elements of the column, depth first. */
  structElements: SchemaElement[];
  leaves: StructLeafEncoding[];
}

/** The Parquet struct schema of a row column, or undefined when the type is no row. */
export function structEncoding(name: string, type: SqlType): StructEncoding | undefined {
  if (type.kind !== 'row') return undefined;
  const structElements: SchemaElement[] = [];
  const leaves: StructLeafEncoding[] = [];
  const visit = (fieldName: string, t: SqlType, fieldPath: number[], path: string[]): void => {
    if (t.kind === 'row') {
      structElements.push({ name: fieldName, repetition: Repetition.Optional, numChildren: t.fields.length });
      t.fields.forEach((f, i) => visit(f.name as string, f.type, [...fieldPath, i], [...path, f.name as string]));
      return;
    }
    const leaf = physicalEncoding(path.join('.'), t);
    structElements.push({ ...leaf.element, name: fieldName });
    leaves.push({ fieldPath, path, leaf });
  };
  visit(name, type, [], [name]);
  return { structElements, leaves };
}

/** One chunk per primitive field of the row column, in schema order. */
export function encodeStructChunks(encoding: StructEncoding, column: Column): EncodedChunk[] {
  return encoding.leaves.map(({ fieldPath, path, leaf }) => {
    // The row levels above the leaf, outermost first, then the leaf column itself.
    const levels: Column[] = [column];
    for (const f of fieldPath) levels.push(rowFieldColumns(levels[levels.length - 1])[f]);
    const leafColumn = levels[levels.length - 1];
    return encodeLeveledChunk(leaf, path, column.length, leafColumn.values, { repetition: 0, definition: levels.length }, (first, last) => {
      const definition: number[] = [];
      const leaves: number[] = [];
      for (let row = first; row < last; row++) {
        let d = 0;
        while (d < levels.length && (levels[d].nulls === null || levels[d].nulls![row] === 0)) d++;
        definition.push(d);
        if (d === levels.length) leaves.push(row);
      }
      return { repetition: [], definition, leaves };
    });
  });
}
