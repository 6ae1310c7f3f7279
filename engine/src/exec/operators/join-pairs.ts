// The candidate pairs of a join, a batch at a time: each row of the streamed side (a page) with the
// chain of rows of the hashed side that share its key, gathered into reused arrays without a
// closure per row; and the output page of kept pairs.

import { takeColumn, type Column, type Page } from '../../columnar/page.js';
import { takeColumnOrNull } from './gather-rows.js';
import type { HashJoinSpec } from './hash-join.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';

/** Where the walk over a page's candidate pairs stands: streamed row `row`, its candidate `candidate` next. */
export interface PairCursor {
  row: number;
  candidate: number;
}

export class PairBatches {
  readonly streamedRows = new Int32Array(TARGET_PAGE_ROWS);
  readonly hashedRows = new Int32Array(TARGET_PAGE_ROWS);

  /** A cursor before the first pair, given each streamed row's first candidate (-1 for none). */
  start(first: Int32Array): PairCursor {
    return { row: 0, candidate: first.length === 0 ? -1 : first[0] };
  }

  /** The next pairs (at most TARGET_PAGE_ROWS) from the cursor on, in streamed-row order; how many. */
  fill(first: Int32Array, next: Int32Array, cursor: PairCursor): number {
    const streamedRows = this.streamedRows;
    const hashedRows = this.hashedRows;
    const n = first.length;
    let row = cursor.row;
    let candidate = cursor.candidate;
    let count = 0;
    while (count < TARGET_PAGE_ROWS) {
      if (candidate === -1) {
        if (++row >= n) break;
        candidate = first[row];
        continue;
      }
      streamedRows[count] = row;
      hashedRows[count] = candidate;
      count++;
      candidate = next[candidate];
    }
    cursor.row = row;
    cursor.candidate = candidate;
    return count;
  }

  /** Keeps the first `count` pairs for which `filter` (evaluated over them) is TRUE; how many are left. */
  keepPassing(count: number, filter: (count: number) => Column): number {
    const result = filter(count);
    if (result.type.kind === 'unknown') return 0;
    const values = result.values as Uint8Array;
    const nulls = result.nulls;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      if (values[i] !== 1 || (nulls !== null && nulls[i] === 1)) continue;
      this.streamedRows[kept] = this.streamedRows[i];
      this.hashedRows[kept] = this.hashedRows[i];
      kept++;
    }
    return kept;
  }
}

/** probeOutput columns at probeRows, then buildOutput columns at buildRows (-1 = NULL). */
export function outputPage(
  probe: Page,
  build: Page,
  probeRows: Int32Array,
  buildRows: Int32Array,
  count: number,
  spec: HashJoinSpec,
): Page {
  const columns: Column[] = spec.probeOutput.map((c) => takeColumn(probe.columns[c], probeRows, count));
  for (const c of spec.buildOutput) columns.push(takeColumnOrNull(build.columns[c], buildRows, count));
  return { rowCount: count, columns };
}
