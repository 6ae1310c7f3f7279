// Decoded columns of stored batches. Batches never change once stored, so a column decoded for one
// scan (strings especially) is kept and shared by every later scan of the same batch.

import type { RecordBatch } from 'apache-arrow';
import { arrowDataToColumn } from '../../exec/arrow.js';
import type { Column, Page } from '../../exec/page.js';
import type { SqlType } from '../../types/types.js';

const decoded = new WeakMap<RecordBatch, (Column | undefined)[]>();

/** The columns at `indexes` of `batch` (whose columns have `types`), decoding each at most once. */
export function batchPage(batch: RecordBatch, types: readonly SqlType[], indexes: readonly number[]): Page {
  let cache = decoded.get(batch);
  if (cache === undefined) {
    cache = new Array<Column | undefined>(types.length);
    decoded.set(batch, cache);
  }
  const columns = indexes.map((i) => (cache[i] ??= arrowDataToColumn(batch.data.children[i], types[i])));
  return { rowCount: batch.numRows, columns };
}

/** Every column of `batch`. */
export function fullBatchPage(batch: RecordBatch, types: readonly SqlType[]): Page {
  return batchPage(batch, types, types.map((_, i) => i));
}

/**
 * Kinds whose Arrow values are the column's own typed array (see exec/arrow.ts): decoding them is a
 * view of the stored buffer, so keeping the page's copy would only double the memory.
 */
const ZERO_COPY_KINDS = new Set<SqlType['kind']>(['tinyint', 'smallint', 'integer', 'interval year to month', 'bigint', 'real', 'double', 'date']);

/** Whether decoding a stored column of `type` is only a view of its buffer (nothing worth caching). */
export function decodesWithoutCopy(type: SqlType): boolean {
  return ZERO_COPY_KINDS.has(type.kind);
}

/** Records `page` as the decoded form of `batch`, which was just encoded from it. */
export function rememberDecoded(batch: RecordBatch, page: Page): void {
  // A column whose buffer is longer than its rows would hand scans more values than rows: skip it.
  decoded.set(
    batch,
    page.columns.map((c) => (c.values.length === page.rowCount && !decodesWithoutCopy(c.type) ? c : undefined)),
  );
}
