// Decoded columns of stored batches. Batches never change once stored, so a column decoded for one
// scan (strings especially) is kept and shared by later scans of the same batch — in this thread's
// decoded-column cache, which is bounded in bytes (the least recently read go first), so that the
// decoded copies of big tables never fill the heap.

import type { RecordBatch } from 'apache-arrow';
import { arrowDataToColumn } from '../../columnar/arrow.js';
import type { Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { decodedColumns } from '../../columnar/decoded-columns.js';
import { storedColumnKey } from './shared-batch.js';

/** The columns at `indexes` of `batch` (whose columns have `types`), decoded once while the cache keeps them. */
export function batchPage(batch: RecordBatch, types: readonly SqlType[], indexes: readonly number[]): Page {
  const columns = indexes.map((i) => {
    const decode = () => arrowDataToColumn(batch.data.children[i], types[i]);
    const key = storedColumnKey(batch, i);
    return key === undefined || decodesWithoutCopy(types[i]) ? decode() : decodedColumns.decode(key, decode);
  });
  return { rowCount: batch.numRows, columns };
}

/** Every column of `batch`. */
export function fullBatchPage(batch: RecordBatch, types: readonly SqlType[]): Page {
  return batchPage(
    batch,
    types,
    types.map((_, i) => i),
  );
}

/**
 * Kinds whose Arrow values are the column's own typed array (see columnar/arrow.ts): decoding them is a
 * view of the stored buffer, so keeping the page's copy would only double the memory.
 */
const ZERO_COPY_KINDS = new Set<SqlType['kind']>([
  'tinyint',
  'smallint',
  'integer',
  'interval year to month',
  'bigint',
  'real',
  'double',
  'date',
]);

/** Whether decoding a stored column of `type` is only a view of its buffer (nothing worth caching). */
export function decodesWithoutCopy(type: SqlType): boolean {
  return ZERO_COPY_KINDS.has(type.kind);
}
