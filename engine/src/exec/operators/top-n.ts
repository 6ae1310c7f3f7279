// ORDER BY ... LIMIT n: a bounded max-heap of the n best rows seen so far (the root is the worst of
// them), so each input row costs one comparison with the root unless it displaces it. Rows stay in
// their input pages; a page is released once the heap no longer references it, and the heap is
// compacted into one page when its pages would retain far more rows than it holds. Ties keep input
// order, so the result equals a stable sort followed by LIMIT.

import { estimatedPageBytes, type Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { gatherRows } from './gather-rows.js';
import type { OperatorContext, PageStream } from './operator.js';
import type { SortKey } from '../../functions/scalar/value-ordering.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';
import { MemoryReservation, throwIfCanceled } from './operator-support.js';
import { makePreparedRowCompare, prepareKeys, type PreparedKey } from '../../functions/scalar/value-ordering.js';

export async function* topN(
  ctx: OperatorContext,
  input: PageStream,
  types: readonly SqlType[],
  keys: readonly SortKey[],
  count: number,
): PageStream {
  if (count <= 0) return;
  const heap = new RowHeap(types, keys, count, new MemoryReservation(ctx.memory));
  try {
    for await (const page of input) {
      throwIfCanceled(ctx);
      if (page.rowCount > 0) heap.addPage(page);
    }
    const { pages, pageIds, rowIds } = heap.sortedRows();
    for (let start = 0; start < pageIds.length; start += TARGET_PAGE_ROWS) {
      const end = Math.min(pageIds.length, start + TARGET_PAGE_ROWS);
      yield gatherRows(types, pages, pageIds.subarray(start, end), rowIds.subarray(start, end), end - start);
    }
  } finally {
    heap.release();
  }
}

class RowHeap {
  private readonly compare;
  private pages: (Page | undefined)[] = [];
  private prepared: (PreparedKey[] | undefined)[] = [];
  private references: number[] = [];
  /** Per page: the bytes reserved for it (estimated once: its strings measured on a sample), released with it. */
  private pageBytes: number[] = [];
  private retainedRows = 0;
  private readonly pageOf: Int32Array;
  private readonly rowOf: Int32Array;
  /** Arrival order of each entry: breaks ties so earlier rows win. */
  private readonly sequence: Float64Array;
  private size = 0;
  private arrivals = 0;

  constructor(
    private readonly types: readonly SqlType[],
    private readonly keys: readonly SortKey[],
    private readonly capacity: number,
    private readonly reservation: MemoryReservation,
  ) {
    this.compare = makePreparedRowCompare(keys, types);
    this.pageOf = new Int32Array(capacity);
    this.rowOf = new Int32Array(capacity);
    this.sequence = new Float64Array(capacity);
    reservation.add(capacity * 16);
  }

  addPage(page: Page): void {
    const id = this.pages.length;
    const keys = prepareKeys(this.keys, page.columns);
    this.pages.push(page);
    this.prepared.push(keys);
    this.references.push(0);
    this.reserve(page);
    this.retainedRows += page.rowCount;
    for (let row = 0; row < page.rowCount; row++, this.arrivals++) {
      if (this.size < this.capacity) {
        this.place(this.size, id, row, this.arrivals);
        this.references[id]++;
        this.siftUp(this.size++);
        continue;
      }
      const root = this.pageOf[0];
      if (this.compare(keys, row, this.prepared[root] as PreparedKey[], this.rowOf[0]) >= 0) continue;
      // Reference the new row's page first: the displaced root may be the last row of this page.
      this.references[id]++;
      this.unreference(root);
      this.place(0, id, row, this.arrivals);
      this.siftDown(0);
    }
    if (this.references[id] === 0) this.unreference(id, true);
    if (this.retainedRows > 4 * this.capacity + TARGET_PAGE_ROWS) this.compact();
  }

  /** The heap's rows in sort order (ties in arrival order). */
  sortedRows(): { pages: Page[]; pageIds: Int32Array; rowIds: Int32Array } {
    const order = Array.from({ length: this.size }, (_, i) => i);
    order.sort((a, b) => this.entryCompare(a, b));
    return {
      pages: this.pages as Page[],
      pageIds: Int32Array.from(order, (e) => this.pageOf[e]),
      rowIds: Int32Array.from(order, (e) => this.rowOf[e]),
    };
  }

  release(): void {
    this.pages = [];
    this.prepared = [];
    this.pageBytes = [];
    this.reservation.release();
  }

  /** Reserves the bytes of the page just pushed, remembered to release the same amount. */
  private reserve(page: Page): void {
    const bytes = estimatedPageBytes(page);
    this.pageBytes.push(bytes);
    this.reservation.add(bytes);
  }

  private place(entry: number, page: number, row: number, sequence: number): void {
    this.pageOf[entry] = page;
    this.rowOf[entry] = row;
    this.sequence[entry] = sequence;
  }

  /** Drops one reference to a page (or all of them); an unreferenced page is released. */
  private unreference(page: number, all = false): void {
    if (!all && --this.references[page] > 0) return;
    const released = this.pages[page] as Page;
    this.retainedRows -= released.rowCount;
    this.reservation.add(-this.pageBytes[page]);
    this.pages[page] = undefined;
    this.prepared[page] = undefined;
  }

  private entryCompare(a: number, b: number): number {
    const c = this.compare(
      this.prepared[this.pageOf[a]] as PreparedKey[],
      this.rowOf[a],
      this.prepared[this.pageOf[b]] as PreparedKey[],
      this.rowOf[b],
    );
    return c !== 0 ? c : this.sequence[a] - this.sequence[b];
  }

  private swap(a: number, b: number): void {
    const p = this.pageOf[a];
    const r = this.rowOf[a];
    const s = this.sequence[a];
    this.pageOf[a] = this.pageOf[b];
    this.rowOf[a] = this.rowOf[b];
    this.sequence[a] = this.sequence[b];
    this.pageOf[b] = p;
    this.rowOf[b] = r;
    this.sequence[b] = s;
  }

  private siftUp(entry: number): void {
    while (entry > 0) {
      const parent = (entry - 1) >> 1;
      if (this.entryCompare(entry, parent) <= 0) return;
      this.swap(entry, parent);
      entry = parent;
    }
  }

  private siftDown(entry: number): void {
    for (;;) {
      const left = 2 * entry + 1;
      if (left >= this.size) return;
      const right = left + 1;
      const worse = right < this.size && this.entryCompare(right, left) > 0 ? right : left;
      if (this.entryCompare(worse, entry) <= 0) return;
      this.swap(entry, worse);
      entry = worse;
    }
  }

  /** Copies the heap's rows into one page and releases the pages they came from. */
  private compact(): void {
    const page = gatherRows(
      this.types,
      this.pages as Page[],
      this.pageOf.subarray(0, this.size),
      this.rowOf.subarray(0, this.size),
      this.size,
    );
    for (let p = 0; p < this.pages.length; p++) if (this.pages[p] !== undefined) this.unreference(p, true);
    this.pages = [page];
    this.prepared = [prepareKeys(this.keys, page.columns)];
    this.references = [this.size];
    this.pageBytes = [];
    this.retainedRows = page.rowCount;
    this.reserve(page);
    for (let e = 0; e < this.size; e++) {
      this.pageOf[e] = 0;
      this.rowOf[e] = e;
    }
  }
}
