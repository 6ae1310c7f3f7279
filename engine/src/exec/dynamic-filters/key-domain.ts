// The values a join's build side holds in one key column, gathered page by page as the build
// input streams in: their minimum and maximum, and the distinct values themselves while they are
// few (Trino's distinct-values limit; beyond it only the range is kept). NULL keys never match,
// so they are left out; a build with no non-NULL key gives a domain no value satisfies. Past the
// limit, integer keys spanning few enough integers are kept as a bitmap (key-bitmap.ts) when asked.

import type { ColumnDomain } from '../../spi/connector.js';
import type { Column } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import { compareStrings } from '../../types/chars.js';
import { KeyBitmapBuilder, keysOfUnion } from './key-bitmap.js';

/** Most distinct values a dynamic filter lists; with more, it keeps only their range. */
export const MAX_DYNAMIC_FILTER_VALUES = 50_000;

/** A domain without its column: what a dynamic filter says about the values a scan needs. */
export type KeyDomain = Omit<ColumnDomain, 'column'>;

type Key = number | bigint | string;

export class KeyDomainCollector {
  private min: Key | undefined;
  private max: Key | undefined;
  /** The distinct keys so far; undefined once there were too many. */
  private distinct: Set<Key> | undefined = new Set();
  /** Past the distinct-values limit, the keys as bits while they are integers within the bitmap's span. */
  private bitmap: KeyBitmapBuilder | undefined;

  /** Whether the distinct keys were tried as a bitmap already (bitmapAfter passed). */
  private bitmapTried = false;

  /**
   * `keyBitmaps`: whether keys past `bitmapAfter` distinct ones go to a bitmap (DYNAMIC_FILTER_KEY_BITMAP_PROPERTY)
   * when they can (integers within its span); those that cannot stay a list up to maxValues.
   */
  constructor(
    private readonly maxValues = MAX_DYNAMIC_FILTER_VALUES,
    private readonly keyBitmaps = false,
    private readonly bitmapAfter = maxValues,
  ) {}

  /** Whether the keys are 64-bit integers, held here as numbers where exact (no BigInt per row) and made bigints again in domain(). */
  private int64 = false;

  /** Adds the keys of rows [start, end) of `column` (a long build page is added a slice per turn, dynamic-filters.ts). */
  add(column: Column, start = 0, end = column.length): void {
    if (column.values instanceof BigInt64Array) {
      this.int64 = true;
      const values = column.values;
      // Past the distinct-values limit (even halfway through the rows) the rest goes through the range loop.
      const rest = this.distinct === undefined ? start : this.addKeys(column.nulls, int64Reader(values), start, end);
      if (rest < end) this.addInt64Range(values, column.nulls, rest, end);
      if (rest < end && this.bitmap !== undefined && !this.bitmap.addInt64(values, column.nulls, rest, end)) this.bitmap = undefined;
    } else {
      const values = column.values as ArrayLike<Key>;
      const rest = this.addKeys(column.nulls, (i) => values[i], start, end);
      if (rest < end) this.addRange(values, column.nulls, rest, end);
      if (rest < end && this.bitmap !== undefined && !this.bitmap.addNumbers(values, column.nulls, rest, end)) this.bitmap = undefined;
    }
  }

  /** Adds keys while the distinct ones are few; returns the row it stopped at (`end`, or the one past the distinct-values limit). */
  private addKeys(nulls: Uint8Array | null, read: (i: number) => Key, start: number, end: number): number {
    const distinct = this.distinct;
    if (distinct === undefined) return start;
    let { min, max } = this;
    let i = start;
    for (; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const v = read(i);
      if (min === undefined || less(v, min)) min = v;
      if (max === undefined || less(max, v)) max = v;
      distinct.add(v);
      if (distinct.size > this.bitmapAfter && this.keyBitmaps && !this.bitmapTried) {
        this.bitmapTried = true;
        const bitmap = bitmapOf(distinct);
        // While the list may go on, keys filling half their span stay one: their bitmap would end as their range alone.
        this.bitmap = bitmap !== undefined && (distinct.size > this.maxValues || !bitmap.dense()) ? bitmap : undefined;
      }
      if (this.bitmap !== undefined || distinct.size > this.maxValues) {
        this.distinct = undefined;
        i++;
        break;
      }
    }
    this.min = min;
    this.max = max;
    return i;
  }

  /** The range of keys that are not 64-bit integers, once only the range is kept. */
  private addRange(values: ArrayLike<Key>, nulls: Uint8Array | null, start: number, end: number): void {
    let { min, max } = this;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const v = values[i];
      if (min === undefined || less(v, min)) min = v;
      if (max === undefined || less(max, v)) max = v;
    }
    this.min = min;
    this.max = max;
  }

  /**
   * Past the distinct-values limit only the range grows: a loop over the int64 words that keeps the
   * exact (safe-integer) keys' range in two numbers, with no call per row (a build of millions of rows).
   */
  private addInt64Range(values: BigInt64Array, nulls: Uint8Array | null, start: number, end: number): void {
    const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const highWord = words[2 * i + 1];
      if (highWord >= SAFE_HIGH_WORD || highWord < -SAFE_HIGH_WORD) {
        this.widen(values[i]);
        continue;
      }
      const v = highWord * TWO_POW_32 + (words[2 * i] >>> 0);
      if (v < low) low = v;
      if (v > high) high = v;
    }
    if (low <= high) {
      this.widen(low);
      this.widen(high);
    }
  }

  private widen(v: Key): void {
    if (this.min === undefined || less(v, this.min)) this.min = v;
    if (this.max === undefined || less(this.max, v)) this.max = v;
  }

  domain(): KeyDomain {
    if (this.min === undefined || this.max === undefined) return { values: [] };
    const key = this.int64 ? (k: Key) => (typeof k === 'number' ? BigInt(k) : k) : (k: Key) => k;
    const range: KeyDomain = { low: { value: key(this.min), inclusive: true }, high: { value: key(this.max), inclusive: true } };
    if (this.distinct !== undefined) return { ...range, values: [...this.distinct].map(key) as Scalar[] };
    const keys = this.bitmap?.finish();
    return keys === undefined ? range : { ...range, keys };
  }
}

/** The distinct keys so far as a bitmap, or undefined when they are not integers within its span. */
function bitmapOf(distinct: Set<Key>): KeyBitmapBuilder | undefined {
  const bitmap = new KeyBitmapBuilder();
  for (const k of distinct) if (typeof k !== 'number' || !bitmap.add(k)) return undefined;
  return bitmap;
}

const TWO_POW_32 = 4294967296;
/** |high word| below this: the 64-bit value is a safe integer as high * 2^32 + low. */
const SAFE_HIGH_WORD = 2 ** 21;

/**
 * Row i of a 64-bit column as a number where that is exact, else as a bigint: one value is always
 * read the same way, so a number and a bigint never stand for the same key (and JS compares them exactly).
 */
function int64Reader(values: BigInt64Array): (i: number) => Key {
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  return (i) => {
    const high = words[2 * i + 1];
    return high >= SAFE_HIGH_WORD || high < -SAFE_HIGH_WORD ? values[i] : high * TWO_POW_32 + (words[2 * i] >>> 0);
  };
}

/**
 * The domain of the keys of both (a build made in parts: each part's keys). `listsToBitmap`: two
 * lists of integer keys together past maxValues make a bitmap too (the tasks of a partitioned join,
 * each under the limit: remote-dynamic-filters.ts), where otherwise only a bitmap joins a bitmap.
 */
export function unionDomains(a: KeyDomain, b: KeyDomain, maxValues = MAX_DYNAMIC_FILTER_VALUES, listsToBitmap = false): KeyDomain {
  // A domain without a range has no key at all (an empty build, see domain()).
  if (a.low === undefined || a.high === undefined) return b;
  if (b.low === undefined || b.high === undefined) return a;
  const low = less(b.low.value as Key, a.low.value as Key) ? b.low : a.low;
  const high = less(a.high.value as Key, b.high.value as Key) ? b.high : a.high;
  if (a.values !== undefined && b.values !== undefined) {
    const values = new Set([...a.values, ...b.values]);
    if (values.size <= maxValues) return { low, high, values: [...values] };
  }
  // Past the values' limit: a bitmap of both parts' keys, when one part has a bitmap (asked for) and the other too or a list.
  const keys = keysOfUnion(a, b, listsToBitmap);
  return keys === undefined ? { low, high } : { low, high, keys };
}

/**
 * The domain as sent to other nodes: its key bitmap only when it takes at most `maxKeyBitmapBytes`
 * (DYNAMIC_FILTER_REMOTE_KEY_BITMAP_MAX_SIZE_PROPERTY), else its range and values alone.
 */
export function forOtherNodes(domain: KeyDomain, maxKeyBitmapBytes: number): KeyDomain {
  if (domain.keys === undefined || domain.keys.bits.byteLength <= maxKeyBitmapBytes) return domain;
  const { keys: _, ...rest } = domain;
  return rest;
}

/** SQL's order: strings by code point (their UTF-8 bytes' order, which file statistics use), not by UTF-16 unit. */
function less(a: Key, b: Key): boolean {
  return typeof a === 'string' ? compareStrings(a, b as string) < 0 : a < (b as number | bigint);
}
