// Cuts an input's big pages into slices of at most a number of rows, giving the event loop a turn
// between slices when one is due. An operator that works through a whole page without a break (a
// hash aggregation hashing and comparing the keys of every row) then holds the loop for a slice's
// work, not for a 16,000-row page from an exchange: under 8 concurrent clients a worker's
// aggregations of string keys held it 100-280 ms per page (the long-task log, ENGINE_LONG_TASK_MILLIS).

import { yieldIfDue } from '../../columnar/cooperative.js';
import { slicePage } from '../../columnar/page.js';
import type { OperatorContext, PageStream } from './operator.js';

/** Pages of at most this many rows reach the operators that take their input in slices. */
export const SLICE_ROWS = 4096;

/** `input`'s pages, those of more than `maxRows` rows in slices of `maxRows` (the last one shorter), in order. */
export async function* pagesOfAtMost(ctx: OperatorContext, input: PageStream, maxRows = SLICE_ROWS): PageStream {
  for await (const page of input) {
    if (page.rowCount <= maxRows) {
      yield page;
      continue;
    }
    for (let start = 0; start < page.rowCount; start += maxRows) {
      if (start > 0) await yieldIfDue(ctx.signal, ctx.stats);
      yield slicePage(page, start, Math.min(page.rowCount, start + maxRows));
    }
  }
}
