// The rows of Trino's table function sequence(start, stop, step) as arithmetic on a range: its
// length, its splits (consecutive runs of at most SEQUENCE_SPLIT_ROWS values, made one at a time
// so that a range of 2^64 values is never listed), and each split's pages. Values are bigints
// computed exactly: no intermediate overflows even at the ends of the bigint range.

import { MAX_PAGE_ROWS } from '../column-selection.js';
import type { Page } from '../../columnar/page.js';
import { BIGINT } from '../../types/types.js';

/** Values per split (Trino's split size for sequence). */
export const SEQUENCE_SPLIT_ROWS = 1_000_000n;

/** A validated sequence: `step` has the sign of stop - start, and is 0 only when start = stop. */
export interface SequenceRange {
  start: bigint;
  stop: bigint;
  step: bigint;
}

/** What a split carries (decimal strings: splits travel as JSON): `count` values from `first` on, `step` apart. */
export interface SequenceSplitInfo {
  first: string;
  count: string;
  step: string;
}

/** How many values the sequence has: start, start + step, ... up to stop (inclusive, when reached). */
export function sequenceLength({ start, stop, step }: SequenceRange): bigint {
  return step === 0n ? 1n : (stop - start) / step + 1n;
}

/** The least and greatest values a query needs (inclusive; absent: unbounded), and the only ones it needs, when listed. */
export interface ValueBounds {
  low?: bigint;
  high?: bigint;
  values?: readonly bigint[];
}

/**
 * The splits of the sequence, made as they are asked for; only the values within `bounds` (a
 * filter's range on the column, so that `WHERE x < 10` over a huge sequence ends at once).
 */
export function* sequenceSplits(range: SequenceRange, bounds: ValueBounds = {}): Generator<SequenceSplitInfo> {
  const [from, to] = indexesWithin(range, bounds);
  const step = range.step.toString();
  if (bounds.values !== undefined) {
    // A split of one row per listed value that is in the sequence (in the sequence's order).
    const positions = bounds.values.map((v) =>
      range.step === 0n ? (v === range.start ? 0n : -1n) : (v - range.start) % range.step === 0n ? (v - range.start) / range.step : -1n,
    );
    const wanted = [...new Set(positions.filter((p) => p >= from && p < to))].sort((a, b) => (a < b ? -1 : 1));
    for (const p of wanted) yield { first: (range.start + p * range.step).toString(), count: '1', step };
    return;
  }
  for (let offset = from; offset < to; offset += SEQUENCE_SPLIT_ROWS) {
    const count = to - offset < SEQUENCE_SPLIT_ROWS ? to - offset : SEQUENCE_SPLIT_ROWS;
    yield { first: (range.start + offset * range.step).toString(), count: count.toString(), step };
  }
}

/** The positions [from, to) of the sequence's values that lie within `bounds`. */
function indexesWithin(range: SequenceRange, { low, high }: ValueBounds): [bigint, bigint] {
  const length = sequenceLength(range);
  if (range.step === 0n)
    return (low === undefined || range.start >= low) && (high === undefined || range.start <= high) ? [0n, 1n] : [0n, 0n];
  // Values grow with the position for a positive step: a lower bound limits the first position, an upper bound the last.
  const [first, last] = range.step > 0n ? [low, high] : [high, low];
  const from = first === undefined ? 0n : clamp(ceilDiv(first - range.start, range.step), 0n, length);
  const to = last === undefined ? length : clamp(floorDiv(last - range.start, range.step) + 1n, 0n, length);
  return [from, to < from ? from : to];
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b !== a && a < 0n !== b < 0n ? q - 1n : q;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}

function clamp(v: bigint, low: bigint, high: bigint): bigint {
  return v < low ? low : v > high ? high : v;
}

/** The split's values in pages of at most MAX_PAGE_ROWS rows, made when asked for. */
export function* sequencePages(split: SequenceSplitInfo): Generator<Page> {
  const step = BigInt(split.step);
  const total = BigInt(split.count);
  let next = BigInt(split.first);
  for (let made = 0n; made < total; ) {
    const rows = Number(total - made < BigInt(MAX_PAGE_ROWS) ? total - made : BigInt(MAX_PAGE_ROWS));
    const values = new BigInt64Array(rows);
    // `next` is an unbounded bigint: the one past the last value (beyond the bigint range, perhaps) is never stored.
    for (let i = 0; i < rows; i++, next += step) values[i] = next;
    made += BigInt(rows);
    yield { rowCount: rows, columns: [{ type: BIGINT, length: rows, values, nulls: null }] };
  }
}
