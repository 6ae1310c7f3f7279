// A version of a memory table: an immutable list of Arrow batches. Writes never touch a snapshot;
// they build the next one, so a scan that fixed its snapshot reads the same rows to the end.

import type { RecordBatch } from 'apache-arrow';
import { pageToRecordBatch } from '../../columnar/arrow.js';
import { yieldIfDue } from '../../columnar/cooperative.js';
import { concatPages, takePage, type Page } from '../../columnar/page.js';
import { MAX_PAGE_ROWS } from '../column-selection.js';
import type { ColumnMetadata, RowPredicate, RowUpdate, TableRewrite } from '../../spi/connector.js';
import { fullBatchPage } from './batch-columns.js';
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
 * `pages` (columns in table order) as stored batches of MAX_PAGE_ROWS rows (the last may have
 * fewer). Encoding a big insert takes seconds: the event loop gets its turns between batches.
 */
export async function encodeBatches(columns: readonly ColumnMetadata[], pages: readonly Page[]): Promise<RecordBatch[]> {
  const batches: RecordBatch[] = [];
  for (const page of rechunkPages(
    columns.map((c) => c.type),
    pages,
    MAX_PAGE_ROWS,
  )) {
    batches.push(encodeBatch(page, columns));
    await yieldIfDue();
  }
  return batches;
}

/**
 * The snapshot with `added` (from encodeBatches) appended. A last batch that is not full is merged
 * with the first added one, so that many small INSERTs do not leave a table of tiny batches; that
 * re-encodes at most two batches, so the new snapshot is made in one short synchronous step.
 */
export function appendBatches(snapshot: TableSnapshot, added: readonly RecordBatch[]): TableSnapshot {
  if (added.length === 0) return snapshot;
  const columns = snapshot.columns;
  const types = columns.map((c) => c.type);
  const kept = [...snapshot.batches];
  let appended = [...added];
  const last = kept.at(-1);
  if (last !== undefined && last.numRows < MAX_PAGE_ROWS) {
    kept.pop();
    const merged = rechunkPages(types, [fullBatchPage(last, types), fullBatchPage(added[0], types)], MAX_PAGE_ROWS);
    appended = [...[...merged].map((page) => encodeBatch(page, columns)), ...added.slice(1)];
  }
  const rows = added.reduce((n, b) => n + b.numRows, 0);
  return { ...snapshot, version: snapshot.version + 1, batches: [...kept, ...appended], rowCount: snapshot.rowCount + rows };
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

/**
 * The snapshot with the rows `predicate` selects replaced by `update`'s rows for them, and how many
 * those were. Every new row is computed before the snapshot is made: an error leaves the table as it was.
 * A batch's updated rows follow its unchanged ones.
 */
export function updateInSnapshot(
  snapshot: TableSnapshot,
  predicate: RowPredicate,
  update: RowUpdate,
): { snapshot: TableSnapshot; updated: number } {
  const columns = snapshot.columns;
  const types = columns.map((c) => c.type);
  const batches: RecordBatch[] = [];
  let updated = 0;
  for (const batch of snapshot.batches) {
    const page = fullBatchPage(batch, types);
    const selected = predicate(page);
    const keep = new Int32Array(page.rowCount);
    const change = new Int32Array(page.rowCount);
    let kept = 0;
    let changed = 0;
    for (let row = 0; row < page.rowCount; row++) {
      if (selected[row] === 1) change[changed++] = row;
      else keep[kept++] = row;
    }
    if (changed === 0) {
      batches.push(batch);
      continue;
    }
    const rows = update(takePage(page, change, changed));
    if (rows.rowCount !== changed) throw new Error(`UPDATE computed ${rows.rowCount} rows for ${changed}`);
    updated += changed;
    batches.push(encodeBatch(kept === 0 ? rows : concatPages(types, [takePage(page, keep, kept), rows]), columns));
  }
  if (updated === 0) return { snapshot, updated };
  return { snapshot: { ...snapshot, version: snapshot.version + 1, batches }, updated };
}

/** The snapshot holding `rewrite`'s rows instead of the current ones (made in one synchronous step). */
export function rewriteSnapshot(snapshot: TableSnapshot, rewrite: TableRewrite): { snapshot: TableSnapshot; changed: number } {
  const columns = snapshot.columns;
  const types = columns.map((c) => c.type);
  const { rows, changed } = rewrite(snapshot.batches.map((batch) => fullBatchPage(batch, types)));
  if (changed === 0) return { snapshot, changed };
  const batches = [...rechunkPages(types, rows, MAX_PAGE_ROWS)].map((page) => encodeBatch(page, columns));
  const rowCount = batches.reduce((n, b) => n + b.numRows, 0);
  return { snapshot: { ...snapshot, version: snapshot.version + 1, batches, rowCount }, changed };
}

/** The snapshot with new columns: each batch's rows reshaped to them (a column added, dropped or renamed). */
export function reshapeSnapshot(snapshot: TableSnapshot, columns: readonly ColumnMetadata[], reshape: (page: Page) => Page): TableSnapshot {
  const types = snapshot.columns.map((c) => c.type);
  const batches = snapshot.batches.map((batch) => encodeBatch(reshape(fullBatchPage(batch, types)), columns));
  return { ...snapshot, version: snapshot.version + 1, columns, batches };
}

/**
 * A stored batch lives in shared memory, so that worker threads scan it without a copy. The written
 * page is not kept as the batch's decoded form: the main thread seldom scans big tables (the threads
 * do, each decoding its own share), and millions of kept strings in the main heap made each of its
 * full collections (started by any query's ArrayBuffers) cost a second.
 */
function encodeBatch(page: Page, columns: readonly ColumnMetadata[]): RecordBatch {
  return shareBatch(
    pageToRecordBatch(
      page,
      columns.map((c) => c.name),
    ),
  );
}
