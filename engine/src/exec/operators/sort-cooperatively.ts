// A stable sort of row indexes for inputs of millions of rows, which one Array.sort call would sort
// for seconds without the event loop getting a turn: runs of RUN_ROWS are sorted each on their own,
// then merged pairwise, with turns between runs and every RUN_ROWS merged rows.

import { yieldIfDue } from '../../columnar/cooperative.js';
import type { OperatorContext } from './operator.js';

const RUN_ROWS = 8192;

/** What a long loop of an operator needs for its turns: the query's signal, and the operator's stats to count them as blocked. */
export type Turns = Pick<OperatorContext, 'signal' | 'stats'>;

/** `order` sorted by `compare` (ties keep their order); may return another array than `order`. */
export async function sortCooperatively(order: Int32Array, compare: (a: number, b: number) => number, ctx: Turns): Promise<Int32Array> {
  const n = order.length;
  for (let start = 0; start < n; start += RUN_ROWS) {
    order.subarray(start, Math.min(n, start + RUN_ROWS)).sort(compare);
    await yieldIfDue(ctx.signal, ctx.stats);
  }
  let from: Int32Array = order;
  let to: Int32Array = new Int32Array(n);
  for (let width = RUN_ROWS; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const mid = Math.min(n, left + width);
      const end = Math.min(n, left + 2 * width);
      let i = left;
      let j = mid;
      for (let k = left; k < end; ) {
        const stop = Math.min(end, k + RUN_ROWS);
        while (k < stop) to[k++] = j >= end || (i < mid && compare(from[i], from[j]) <= 0) ? from[i++] : from[j++];
        await yieldIfDue(ctx.signal, ctx.stats);
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
