// Drawing a column's values for a range of rows from its stream. Two shapes: one draw per row
// (`drawInts`), and one draw per line of an order whose stream owns a fixed number of values per
// order (`drawLineInts`, for lineitem columns and the lineitem values orders derive from). Picks
// from a distribution are the same draws mapped through its weight units.

import type { Distribution } from './distribution.js';
import { MODULUS, jumpFactor, mulMod, nextSeed } from './random.js';
import type { Column } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import type { TextPool, TextRanges } from './text-pool.js';

/** The stream value just before the first value of row `row`. */
function rowStartSeed(initialSeed: number, usagePerRow: number, row: number): number {
  return mulMod(initialSeed, jumpFactor(usagePerRow * row));
}

/** The first value row `row` draws in [low, high]. */
export function drawIntAt(initialSeed: number, usagePerRow: number, row: number, low: number, high: number): number {
  const seed = nextSeed(rowStartSeed(initialSeed, usagePerRow, row));
  return low + Math.floor((seed / MODULUS) * (high - low + 1));
}

/** Integer storage for draws: Int32Array, or Float64Array for keys that can pass 2^31 at large scale factors. */
type IntArray = Int32Array | Float64Array;

/** Uniform integers in [low, high] (high < 2^31), one per row, for rows [start, start + count). */
export function drawInts(initialSeed: number, usagePerRow: number, start: number, count: number, low: number, high: number): Int32Array {
  return fillInts(new Int32Array(count), initialSeed, usagePerRow, start, low, high);
}

/** As drawInts, for keys of any size. */
export function drawKeys(initialSeed: number, usagePerRow: number, start: number, count: number, low: number, high: number): Float64Array {
  return fillInts(new Float64Array(count), initialSeed, usagePerRow, start, low, high);
}

function fillInts<T extends IntArray>(out: T, initialSeed: number, usagePerRow: number, start: number, low: number, high: number): T {
  const count = out.length;
  const range = high - low + 1;
  let rowSeed = rowStartSeed(initialSeed, usagePerRow, start);
  if (usagePerRow === 1) {
    for (let i = 0; i < count; i++) {
      rowSeed = nextSeed(rowSeed);
      out[i] = low + Math.floor((rowSeed / MODULUS) * range);
    }
    return out;
  }
  const rowJump = jumpFactor(usagePerRow);
  for (let i = 0; i < count; i++) {
    out[i] = low + Math.floor((nextSeed(rowSeed) / MODULUS) * range);
    rowSeed = mulMod(rowSeed, rowJump);
  }
  return out;
}

/**
 * Uniform integers in [low, high] (high < 2^31), one per line, for the orders
 * [start, start + lineCounts.length) whose streams own `usagePerOrder` values each; lines of
 * consecutive orders are concatenated.
 */
export function drawLineInts(
  initialSeed: number,
  usagePerOrder: number,
  start: number,
  lineCounts: Uint8Array,
  totalLines: number,
  low: number,
  high: number,
): Int32Array {
  return fillLineInts(new Int32Array(totalLines), initialSeed, usagePerOrder, start, lineCounts, low, high);
}

/** As drawLineInts, for keys of any size. */
export function drawLineKeys(
  initialSeed: number,
  usagePerOrder: number,
  start: number,
  lineCounts: Uint8Array,
  totalLines: number,
  low: number,
  high: number,
): Float64Array {
  return fillLineInts(new Float64Array(totalLines), initialSeed, usagePerOrder, start, lineCounts, low, high);
}

function fillLineInts<T extends IntArray>(
  out: T,
  initialSeed: number,
  usagePerOrder: number,
  start: number,
  lineCounts: Uint8Array,
  low: number,
  high: number,
): T {
  const range = high - low + 1;
  const orderJump = jumpFactor(usagePerOrder);
  let orderSeed = rowStartSeed(initialSeed, usagePerOrder, start);
  let line = 0;
  for (let o = 0; o < lineCounts.length; o++) {
    let seed = orderSeed;
    for (let end = line + lineCounts[o]; line < end; line++) {
      seed = nextSeed(seed);
      out[line] = low + Math.floor((seed / MODULUS) * range);
    }
    orderSeed = mulMod(orderSeed, orderJump);
  }
  return out;
}

/** The values of `distribution` that drawn weight units pick. */
export function unitsToValues(units: Int32Array, distribution: Distribution): string[] {
  const out = new Array<string>(units.length);
  const values = distribution.values;
  for (let i = 0; i < units.length; i++) out[i] = values[distribution.indexOfUnit(units[i])];
  return out;
}

/** Picks from `distribution`, one per row. */
export function drawPicks(initialSeed: number, usagePerRow: number, start: number, count: number, distribution: Distribution): string[] {
  return unitsToValues(drawInts(initialSeed, usagePerRow, start, count, 0, distribution.totalWeight - 1), distribution);
}

/** Comment lengths: dbgen's average length times 0.4 .. 1.6. */
export class TextLength {
  readonly min: number;
  readonly max: number;

  constructor(average: number) {
    this.min = Math.floor(average * 0.4);
    this.max = Math.floor(average * 1.6);
  }
}

/** Comments (an offset draw, then a length draw, into the text pool), one per row. */
export function drawTexts(
  initialSeed: number,
  start: number,
  count: number,
  length: TextLength,
  pool: TextPool,
  usagePerRow = 2,
): string[] {
  const { starts, lengths } = drawLineTextRanges(initialSeed, usagePerRow, start, new Uint8Array(count).fill(1), count, length, pool);
  return Array.from(starts, (offset, i) => pool.slice(offset, lengths[i]));
}

/** drawTexts as a column of `type`, made from the pool's bytes (text-pool.ts). */
export function drawTextColumn(
  type: SqlType,
  initialSeed: number,
  start: number,
  count: number,
  length: TextLength,
  pool: TextPool,
): Column {
  return pool.column(type, drawLineTextRanges(initialSeed, 2, start, new Uint8Array(count).fill(1), count, length, pool));
}

/** Comments, one per line of each order (as drawLineInts), as a column of `type`. */
export function drawLineTextColumn(
  type: SqlType,
  initialSeed: number,
  usagePerOrder: number,
  start: number,
  lineCounts: Uint8Array,
  totalLines: number,
  length: TextLength,
  pool: TextPool,
): Column {
  return pool.column(type, drawLineTextRanges(initialSeed, usagePerOrder, start, lineCounts, totalLines, length, pool));
}

/** Where each comment is in the pool, one per line of each order. */
function drawLineTextRanges(
  initialSeed: number,
  usagePerOrder: number,
  start: number,
  lineCounts: Uint8Array,
  totalLines: number,
  length: TextLength,
  pool: TextPool,
): TextRanges {
  const starts = new Int32Array(totalLines);
  const lengths = new Int32Array(totalLines);
  const offsetRange = pool.size - length.max + 1;
  const lengthRange = length.max - length.min + 1;
  const minLength = length.min;
  const orderJump = jumpFactor(usagePerOrder);
  let orderSeed = rowStartSeed(initialSeed, usagePerOrder, start);
  let line = 0;
  for (let o = 0; o < lineCounts.length; o++) {
    let seed = orderSeed;
    for (let end = line + lineCounts[o]; line < end; line++) {
      seed = nextSeed(seed);
      starts[line] = Math.floor((seed / MODULUS) * offsetRange);
      seed = nextSeed(seed);
      lengths[line] = minLength + Math.floor((seed / MODULUS) * lengthRange);
    }
    orderSeed = mulMod(orderSeed, orderJump);
  }
  return { starts, lengths };
}
