// MergeSorted, the main thread's half of a parallel sort (sql/planner/physical ParallelSort): each
// worker thread sorted the rows of its splits into one run (TopN: kept its best rows) with the sort
// or top-n operator, and this merges the runs into one sorted stream — a k-way merge over a heap of
// the runs' current rows, gathering the winners into pages of TARGET_PAGE_ROWS. Rows compare as
// those operators compare them (makePreparedRowCompare), so the order is theirs; ties go to the
// lower run. Once one run is left its pages pass through as they came. The pages the merge holds
// (one per run) are reserved in its memory; the event loop gets its turns between output pages.

import { estimatedPageBytes, slicePage, TARGET_PAGE_ROWS, type Page } from '../../columnar/page.js';
import { makePreparedRowCompare, prepareKeys, type PreparedKey, type SortKey } from '../../functions/scalar/value-ordering.js';
import type { SqlType } from '../../types/types.js';
import { gatherRows } from '../operators/gather-rows.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import { MemoryReservation, throwIfCanceled } from '../operators/operator-support.js';
import type { ThreadRuns } from './parallel-source.js';

/** The first `limit` rows (all by default) of the sorted runs, in order. */
export async function* mergeSortedRuns(
  ctx: OperatorContext,
  runs: ThreadRuns,
  types: readonly SqlType[],
  keys: readonly SortKey[],
  limit = Number.POSITIVE_INFINITY,
): PageStream {
  if (limit <= 0) return;
  const reservation = new MemoryReservation(ctx.memory);
  try {
    const heads: RunCursor[] = [];
    for (let run = 0; run < runs.count; run++) {
      const cursor = new RunCursor(run, runs, keys, reservation);
      if (await cursor.nextPage()) heads.push(cursor);
    }
    const compare = makePreparedRowCompare(keys, types);
    const heap = new CursorHeap(heads, (a, b) => compare(a.prepared, a.row, b.prepared, b.row) || a.run - b.run);
    const pageIds = new Int32Array(TARGET_PAGE_ROWS);
    const rowIds = new Int32Array(TARGET_PAGE_ROWS);
    let batch: Page[] = [];
    let rows = 0;
    let left = limit;
    const flush = (): Page => {
      const page = gatherRows(types, batch, pageIds, rowIds, rows);
      left -= rows;
      rows = 0;
      batch = [];
      for (const cursor of heap.cursors) cursor.batchId = -1;
      return page;
    };
    while (heap.size > 1 && rows < left) {
      const head = heap.top;
      if (head.batchId < 0) head.batchId = batch.push(head.page) - 1;
      pageIds[rows] = head.batchId;
      rowIds[rows++] = head.row++;
      if (head.row < head.page.rowCount || (await head.nextPage())) heap.siftDown();
      else heap.pop();
      if (rows === TARGET_PAGE_ROWS) {
        throwIfCanceled(ctx);
        yield flush();
      }
    }
    if (rows > 0) yield flush();
    if (heap.size === 0 || left <= 0) return;
    // One run left: the rest of its current page, then its pages as they are.
    const last = heap.top;
    let page: Page | undefined = last.row === 0 ? last.page : slicePage(last.page, last.row, last.page.rowCount);
    while (page !== undefined && left > 0) {
      throwIfCanceled(ctx);
      const out = page.rowCount <= left ? page : slicePage(page, 0, left);
      left -= out.rowCount;
      yield out;
      page = left > 0 && (await last.nextPage()) ? last.page : undefined;
    }
  } finally {
    reservation.release();
  }
}

/** A run's current page and row. */
class RunCursor {
  page: Page = { rowCount: 0, columns: [] };
  prepared: PreparedKey[] = [];
  row = 0;
  /** The current page's place among the pages of the output page being gathered (-1: not among them yet). */
  batchId = -1;
  private bytes = 0;

  constructor(
    readonly run: number,
    private readonly runs: ThreadRuns,
    private readonly keys: readonly SortKey[],
    private readonly reservation: MemoryReservation,
  ) {}

  /** Moves to the run's next page with rows; false once the run has ended. */
  async nextPage(): Promise<boolean> {
    for (;;) {
      const page = await this.runs.next(this.run);
      if (page === undefined) {
        this.reservation.add(-this.bytes);
        this.bytes = 0;
        return false;
      }
      if (page.rowCount === 0) continue;
      const bytes = estimatedPageBytes(page);
      this.reservation.add(bytes - this.bytes);
      this.bytes = bytes;
      this.page = page;
      this.prepared = prepareKeys(this.keys, page.columns);
      this.row = 0;
      this.batchId = -1;
      return true;
    }
  }
}

/** A binary min-heap of the runs' cursors by their current rows. */
class CursorHeap {
  constructor(
    readonly cursors: RunCursor[],
    private readonly compare: (a: RunCursor, b: RunCursor) => number,
  ) {
    for (let i = (cursors.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  get size(): number {
    return this.cursors.length;
  }

  get top(): RunCursor {
    return this.cursors[0];
  }

  /** Drops the top cursor (its run has ended). */
  pop(): void {
    const last = this.cursors.pop() as RunCursor;
    if (this.cursors.length === 0) return;
    this.cursors[0] = last;
    this.siftDown();
  }

  /** Restores the heap after the cursor at `i` moved on. */
  siftDown(i = 0): void {
    const { cursors, compare } = this;
    const n = cursors.length;
    const moved = cursors[i];
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && compare(cursors[right], cursors[left]) < 0 ? right : left;
      if (compare(cursors[child], moved) >= 0) break;
      cursors[i] = cursors[child];
      i = child;
    }
    cursors[i] = moved;
  }
}
