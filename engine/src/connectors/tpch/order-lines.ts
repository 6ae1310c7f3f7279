// What orders and lineitem share: an order's key, date and line count, and the per-line draws its
// total price and status derive from. Line streams own seven values per order (the most lines an
// order has), so the lines of any order range are drawn directly.

import { START_DATE, TOTAL_DATE_RANGE } from './dates.js';
import { drawInts, drawLineInts, drawLineKeys } from './draws.js';
import { partRetailPrice } from './part.js';
import { MODULUS, nextSeed } from './random.js';
import { RandomStream64 } from './random64.js';
import type { Scale } from './scale.js';
import { once } from './table.js';

/** Values each line stream owns per order. */
export const LINE_USAGE = 7;
const LINE_COUNT_SEED = 1434868289;
const ORDER_DATE_SEED = 1066728069;
const QUANTITY_SEED = 209208115;
const DISCOUNT_SEED = 554590007;
const TAX_SEED = 721958466;
const PART_KEY_SEED = 1808217256;
const SHIP_DATE_SEED = 1769349045;
/** Lines ship 1..121 days after the order and arrive 1..30 days later; orders end that long before the range does. */
export const SHIP_DAYS_MAX = 121;
export const RECEIPT_DAYS_MAX = 30;
export const ORDER_DATE_DAYS = TOTAL_DATE_RANGE - (SHIP_DAYS_MAX + RECEIPT_DAYS_MAX) - 1;

/** Lines of orders [start, start + count) (0-based order numbers). */
export function drawLineCounts(start: number, count: number): Uint8Array {
  return Uint8Array.from(drawInts(LINE_COUNT_SEED, 1, start, count, 1, LINE_USAGE));
}

/** Lines of all orders [0, count): one draw per order, summed without storing them. */
export function totalLines(count: number): number {
  let seed = LINE_COUNT_SEED;
  let lines = 0;
  for (let i = 0; i < count; i++) {
    seed = nextSeed(seed);
    lines += 1 + Math.floor((seed / MODULUS) * LINE_USAGE);
  }
  return lines;
}

/**
 * The key of the order numbered `orderNumber` (1-based): keys are sparse, the first 8 of every 32,
 * leaving room for the refresh functions' inserts.
 */
export function orderKey(orderNumber: number): number {
  const low = orderNumber % 8;
  return (orderNumber - low) * 4 + low;
}

/** Orders [start, end) and their lines. */
export class OrderLines {
  readonly orderCount: number;
  readonly lineCounts: Uint8Array;
  readonly totalLines: number;

  constructor(
    readonly scale: Scale,
    /** The first order (0-based). */
    readonly start: number,
    end: number,
  ) {
    this.orderCount = end - start;
    this.lineCounts = drawLineCounts(start, this.orderCount);
    let total = 0;
    for (let i = 0; i < this.lineCounts.length; i++) total += this.lineCounts[i];
    this.totalLines = total;
  }

  /** Order dates, days since 1970-01-01. */
  readonly orderDates = once(() => {
    const dates = drawInts(ORDER_DATE_SEED, 1, this.start, this.orderCount, 0, ORDER_DATE_DAYS);
    for (let i = 0; i < dates.length; i++) dates[i] += START_DATE;
    return dates;
  });

  /** For each line, its order's position in the range. */
  readonly lineOrders = once(() => {
    const orders = new Int32Array(this.totalLines);
    let line = 0;
    for (let o = 0; o < this.orderCount; o++) for (let n = this.lineCounts[o]; n > 0; n--) orders[line++] = o;
    return orders;
  });

  readonly quantities = once(() => this.drawLines(QUANTITY_SEED, 1, 50));
  /** Percent. */
  readonly discounts = once(() => this.drawLines(DISCOUNT_SEED, 0, 10));
  /** Percent. */
  readonly taxes = once(() => this.drawLines(TAX_SEED, 0, 8));
  readonly partKeys = once((): Float64Array => {
    const parts = this.scale.parts;
    if (!this.scale.uses64BitKeys) {
      return drawLineKeys(PART_KEY_SEED, LINE_USAGE, this.start, this.lineCounts, this.totalLines, 1, parts);
    }
    const keys = new Float64Array(this.totalLines);
    const stream = new RandomStream64(PART_KEY_SEED, LINE_USAGE, this.start);
    let line = 0;
    for (let o = 0; o < this.orderCount; o++) {
      for (let n = this.lineCounts[o]; n > 0; n--) keys[line++] = stream.nextLong(1, parts);
      stream.finishRow();
    }
    return keys;
  });
  /** Days since 1970-01-01. */
  readonly shipDates = once(() => this.addOrderDates(this.drawLines(SHIP_DATE_SEED, 1, SHIP_DAYS_MAX)));

  /** l_extendedprice in cents: retail price times quantity. */
  readonly extendedPrices = once(() => {
    const partKeys = this.partKeys();
    const quantities = this.quantities();
    const prices = new Float64Array(this.totalLines);
    for (let i = 0; i < prices.length; i++) prices[i] = partRetailPrice(partKeys[i]) * quantities[i];
    return prices;
  });

  /** One value per line from a line stream. */
  drawLines(initialSeed: number, low: number, high: number): Int32Array {
    return drawLineInts(initialSeed, LINE_USAGE, this.start, this.lineCounts, this.totalLines, low, high);
  }

  /** Adds each line's order date to its day offset (in place). */
  addOrderDates(days: Int32Array): Int32Array {
    const orderDates = this.orderDates();
    const lineOrders = this.lineOrders();
    for (let i = 0; i < days.length; i++) days[i] += orderDates[lineOrders[i]];
    return days;
  }
}
