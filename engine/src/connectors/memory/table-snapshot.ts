// A version of a memory table: an immutable list of Arrow batches. Writes never touch a snapshot;
// they build the next one, so a scan that fixed its snapshot reads the same rows to the end.

import type { RecordBatch } from 'apache-arrow';
import { pageToRecordBatch } from '../../exec/arrow.js';
import { takePage, type Page } from '../../spi/page.js';
import { MAX_PAGE_ROWS } from '../column-selection.js';
import type { ColumnMetadata, RowPredicate } from '../../spi/connector.js';
import { fullBatchPage, rememberDecoded } from './batch-columns.js';
import { rechunkPages } from './rechunk.js';
import { shareBatch } from './shared-batch.js';

export interface TableSnapshot {
  readonly tableId: number;
  readonly version: number;
  /** The table's columns; batches hold them in this order. */
  readonly columns: readonly ColumnMetadata[];
  /** Each holds at most MAX_PAGE_ROWS rows, so a batch is a page of a scan. */
  readonly batches: readonly RecordBatch[];
  readonly rowCount: number;
}

export function emptySnapshot(tableId: number, columns: readonly ColumnMetadata[]): TableSnapshot {
  return { tableId, version: 0, columns, batches: [], rowCount: 0 };
}

/**
 * The snapshot with `pages` appended. A last batch that is not full is merged with the new rows, so
 * that many small INSERTs do not leave a table of tiny batches.
 */
export function appendToSnapshot(snapshot: TableSnapshot, pages: readonly Page[]): TableSnapshot {
  const columns = snapshot.columns;
  const types = columns.map((c) => c.type);
  const kept = [...snapshot.batches];
  const rows: Page[] = [];
  const last = kept.at(-1);
  if (last !== undefined && last.numRows < MAX_PAGE_ROWS) {
    kept.pop();
    rows.push(fullBatchPage(last, types));
  }
  rows.push(...pages);
  const added = rechunkPages(types, rows, MAX_PAGE_ROWS).map((page) => encodeBatch(page, columns));
  const appended = pages.reduce((n, p) => n + p.rowCount, 0);
  return { ...snapshot, version: snapshot.version + 1, batches: [...kept, ...added], rowCount: snapshot.rowCount + appended };
}

/** The snapshot without the rows `predicate` selects, and how many those were. */
export function deleteFromSnapshot(snapshot: TableSnapshot, predicate: RowPredicate): { snapshot: TableSnapshot; deleted: number } {
  const columns = snapshot.columns;
  const types = columns.map((c) => c.type);
  const batches: RecordBatch[] = [];
  let deleted = 0;
  for (const batch of snapshot.batches) {
    const page = fullBatchPage(batch, types);
    const selected = predicate(page);
    const keep = new Int32Array(page.rowCount);
    let kept = 0;
    for (let row = 0; row < page.rowCount; row++) if (selected[row] !== 1) keep[kept++] = row;
    deleted += page.rowCount - kept;
    if (kept === page.rowCount) batches.push(batch);
    else if (kept > 0) batches.push(encodeBatch(takePage(page, keep, kept), columns));
  }
  if (deleted === 0) return { snapshot, deleted };
  const next = { ...snapshot, version: snapshot.version + 1, batches, rowCount: snapshot.rowCount - deleted };
  return { snapshot: next, deleted };
}

/** A stored batch lives in shared memory, so that worker threads scan it without a copy. */
function encodeBatch(page: Page, columns: readonly ColumnMetadata[]): RecordBatch {
  const batch = shareBatch(pageToRecordBatch(page, columns.map((c) => c.name)));
  rememberDecoded(batch, page);
  return batch;
}
