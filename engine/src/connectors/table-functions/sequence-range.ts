// The rows of Trino's table function sequence(start, stop, step) as arithmetic on a range: its
// length, its splits (consecutive runs of at most SEQUENCE_SPLIT_ROWS values, made one at a time
// so that a range of 2^64 values is never listed), and each split's pages. Values are bigints
// computed exactly: no intermediate overflows even at the ends of the bigint range.

import { MAX_PAGE_ROWS } from '../column-selection.js';
import type { Page } from '../../spi/page.js';
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

/** The splits of the sequence, made as they are asked for. */
export function* sequenceSplits(range: SequenceRange): Generator<SequenceSplitInfo> {
  const length = sequenceLength(range);
  const step = range.step.toString();
  for (let offset = 0n; offset < length; offset += SEQUENCE_SPLIT_ROWS) {
    const count = length - offset < SEQUENCE_SPLIT_ROWS ? length - offset : SEQUENCE_SPLIT_ROWS;
    yield { first: (range.start + offset * range.step).toString(), count: count.toString(), step };
  }
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
