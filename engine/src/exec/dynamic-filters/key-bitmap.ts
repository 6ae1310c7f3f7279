// A join build's integer keys as one bitmap, set as the build streams in (key-domain.ts), for the
// builds with more keys than a dynamic filter lists (q03's 147k orders keys) but spanning few enough
// integers: the probe's scan then drops the rows no key matches, where the keys' range alone would
// drop none. The bitmap ends in a SharedArrayBuffer, so the scan's worker threads read the one copy
// (a dynamic filter is posted to each of them: structured cloning shares it, copies nothing).
// Measured last session (branch i-q03): a list of 400k keys cost more than it saved, to collect in
// the main thread, copy to each thread as bigints, and make into a bitmap there.

import type { KeyBitmap } from '../../spi/connector.js';

/**
 * Most integers a key bitmap spans: 2^25 bits, 4 MB (TPC-H's order keys to sf5). A wider build's
 * keys keep only their range: allocating and zeroing a bitmap costs in proportion to its span.
 */
export const MAX_KEY_BITMAP_SPAN = 2 ** 25;

const TWO_POW_32 = 4294967296;
/** |high word| below this: the 64-bit value is a safe integer as high * 2^32 + low. */
const SAFE_HIGH_WORD = 2 ** 21;
/**
 * Keys filling this share of their span or more make no bitmap: it drops at most the rest of the
 * probe's rows in that span. Measured at sf1 (memory tables, CPU of the server, bitmap off/on
 * alternated): q14's part keys (all of 1..200000) dropped nothing; q19's lineitem build (135k part
 * keys, 67% of their span) dropped 34% of part's rows yet cost more CPU in 3 of 4 pairs; q03's and
 * q10's order keys (2.5% and 1% of theirs) cost less in every pair.
 */
const MAX_USEFUL_DENSITY = 0.5;
/** The number of bits set in each byte value. */
const BITS_SET = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let v = b; v !== 0; v >>= 1) n += v & 1;
  return n;
});
/** Bits a bitmap starts with, grown by doubling (keys arrive in any order). */
const FIRST_CAPACITY = 2 ** 16;

/**
 * The keys seen so far as bits from `base`; `add…` answer false once they span too much (more than
 * maxSpan, give or take the byte at either end: checked as the bits grow, not per key), and the bitmap is then dropped.
 */
export class KeyBitmapBuilder {
  private base = 0;
  /** Bits held, a multiple of 8: every base and growth moves by whole bytes. */
  private capacity = 0;
  private bits = new Uint8Array(0);
  private low = Number.POSITIVE_INFINITY;
  private high = Number.NEGATIVE_INFINITY;

  constructor(private readonly maxSpan = MAX_KEY_BITMAP_SPAN) {}

  /** Sets one key's bit; false when it is not a safe integer or the keys would span more than maxSpan. */
  add(v: number): boolean {
    if (!Number.isSafeInteger(v)) return false;
    const offset = v - this.base;
    if ((offset < 0 || offset >= this.capacity) && !this.grow(v)) return false;
    this.set(v);
    return true;
  }

  /** The non-NULL keys of rows [start, end) of a 64-bit column, read as word pairs (no BigInt per row). */
  addInt64(values: BigInt64Array, nulls: Uint8Array | null, start: number, end: number): boolean {
    const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const highWord = words[2 * i + 1];
      if (highWord >= SAFE_HIGH_WORD || highWord < -SAFE_HIGH_WORD) return false;
      const v = highWord * TWO_POW_32 + (words[2 * i] >>> 0);
      const offset = v - this.base;
      if ((offset < 0 || offset >= this.capacity) && !this.grow(v)) return false;
      this.set(v);
    }
    return true;
  }

  /** The non-NULL keys of rows [start, end) of a column of numbers (integers, dates); false at the first that is not an integer. */
  addNumbers(values: ArrayLike<unknown>, nulls: Uint8Array | null, start: number, end: number): boolean {
    for (let i = start; i < end; i++) {
      if (nulls !== null && nulls[i] === 1) continue;
      const v = values[i];
      if (typeof v !== 'number' || !this.add(v)) return false;
    }
    return true;
  }

  /**
   * The keys' bits over [least key, greatest key] in shared memory; undefined when there was none, or
   * (`dropDense`) when they fill half that span or more (MAX_USEFUL_DENSITY).
   */
  finish(dropDense = true): KeyBitmap | undefined {
    if (this.low > this.high || (dropDense && this.dense())) return undefined;
    // Trimmed to whole bytes around the keys: the copy is what the threads read.
    const firstByte = (this.low - this.base) >>> 3;
    const base = this.base + firstByte * 8;
    const size = this.high - base + 1;
    const bits = new Uint8Array(new SharedArrayBuffer((size + 7) >>> 3));
    bits.set(this.bits.subarray(firstByte, firstByte + bits.length));
    return { base, size, bits };
  }

  /** Whether the keys set at least MAX_USEFUL_DENSITY of the bits between the least and the greatest. */
  dense(): boolean {
    const set = setBits(this.bits, (this.low - this.base) >>> 3, (this.high - this.base) >>> 3);
    return set >= (this.high - this.low + 1) * MAX_USEFUL_DENSITY;
  }

  /** Sets v's bit (within the bits held). */
  private set(v: number): void {
    const offset = v - this.base;
    this.bits[offset >>> 3] |= 1 << (offset & 7);
    if (v < this.low) this.low = v;
    if (v > this.high) this.high = v;
  }

  /**
   * Makes room for v: at least doubles the bits, towards v's side (keys mostly arrive in some order),
   * within maxSpan; false when the keys with v would span more. Bases stay multiples of 8, so the old
   * keys' bytes move whole.
   */
  private grow(v: number): boolean {
    const empty = this.low > this.high;
    const low = empty ? v : Math.min(this.low, v);
    const high = empty ? v : Math.max(this.high, v);
    if (high - low + 1 > this.maxSpan) return false;
    const capacity = Math.min(roundUpToByte(Math.max(2 * this.capacity, FIRST_CAPACITY, high - low + 9)), roundUpToByte(this.maxSpan) + 8);
    const base = v < this.base ? Math.min(alignDown(low), alignDown(high) + 8 - capacity) : alignDown(low);
    const bits = new Uint8Array(capacity >>> 3);
    if (!empty) {
      const from = (this.low - this.base) >>> 3;
      const to = (this.high - this.base) >>> 3;
      bits.set(this.bits.subarray(from, to + 1), (this.base + from * 8 - base) >>> 3);
    }
    this.base = base;
    this.capacity = capacity;
    this.bits = bits;
    return true;
  }
}

/** The multiple of 8 at or below v (of any sign). */
function alignDown(v: number): number {
  return v - (((v % 8) + 8) % 8);
}

function roundUpToByte(bits: number): number {
  return Math.ceil(bits / 8) * 8;
}

/**
 * The keys of two domains (a build made in parts, or the tasks of a partitioned join) as one bitmap:
 * when one has a bitmap (or `lists`: both may be lists) and the other a bitmap or a list of
 * integers, together within maxSpan and sparse enough (MAX_USEFUL_DENSITY); else undefined.
 * Bitmaps are OR-ed a byte at a time.
 */
export function keysOfUnion(a: KeysOrValues, b: KeysOrValues, lists = false, maxSpan = MAX_KEY_BITMAP_SPAN): KeyBitmap | undefined {
  if (a.keys === undefined && b.keys === undefined && !lists) return undefined;
  const left = a.keys ?? bitmapOfValues(a.values, maxSpan);
  const right = b.keys ?? bitmapOfValues(b.values, maxSpan);
  return left === undefined || right === undefined ? undefined : orBitmaps(left, right, maxSpan);
}

/** A list of integer keys (at most a dynamic filter's limit) as a bitmap; undefined when some key is not an integer within maxSpan. */
function bitmapOfValues(values: readonly unknown[] | undefined, maxSpan: number): KeyBitmap | undefined {
  if (values === undefined) return undefined;
  const builder = new KeyBitmapBuilder(maxSpan);
  for (const v of values) if ((typeof v !== 'number' && typeof v !== 'bigint') || !builder.add(Number(v))) return undefined;
  // A list's own bitmap is not dropped for its density: the union's is judged.
  return builder.finish(false);
}

/** The keys of either (bases are multiples of 8, KeyBitmapBuilder.finish), or undefined past maxSpan or too dense to be worth testing. */
function orBitmaps(a: KeyBitmap, b: KeyBitmap, maxSpan: number): KeyBitmap | undefined {
  const base = Math.min(a.base, b.base);
  const size = Math.max(a.base + a.size, b.base + b.size) - base;
  if (size > maxSpan) return undefined;
  const bits = new Uint8Array(new SharedArrayBuffer((size + 7) >>> 3));
  bits.set(a.bits.subarray(0, (a.size + 7) >>> 3), (a.base - base) >>> 3);
  const at = (b.base - base) >>> 3;
  const bBytes = (b.size + 7) >>> 3;
  for (let i = 0; i < bBytes; i++) bits[at + i] |= b.bits[i];
  return setBits(bits) >= size * MAX_USEFUL_DENSITY ? undefined : { base, size, bits };
}

/** How many bits of `bits` are set. */
function setBits(bits: Uint8Array, from = 0, to = bits.length - 1): number {
  let set = 0;
  for (let i = from; i <= to; i++) set += BITS_SET[bits[i]];
  return set;
}

/** Of a domain, what keysOfUnion reads. */
interface KeysOrValues {
  keys?: KeyBitmap;
  values?: readonly unknown[];
}

/** A bitmap in this process's shared memory (one received from another node), for the scan's threads to read without a copy each. */
export function sharedKeyBitmap(keys: KeyBitmap): KeyBitmap {
  if (keys.bits.buffer instanceof SharedArrayBuffer) return keys;
  const bits = new Uint8Array(new SharedArrayBuffer(keys.bits.length));
  bits.set(keys.bits);
  return { ...keys, bits };
}

/**
 * What is wrong with a bitmap another node sent, or undefined: its base a safe multiple of 8, its
 * size within MAX_KEY_BITMAP_SPAN, and exactly its bytes (the forms KeyBitmapBuilder.finish makes).
 */
export function keyBitmapProblem(keys: KeyBitmap): string | undefined {
  const { base, size, bits } = keys;
  if (!Number.isSafeInteger(base) || base % 8 !== 0) return `its base ${String(base)} is not a safe integer multiple of 8`;
  if (!Number.isInteger(size) || size < 1 || size > MAX_KEY_BITMAP_SPAN)
    return `its size ${String(size)} is not within 1..${MAX_KEY_BITMAP_SPAN}`;
  if (!(bits instanceof Uint8Array) || bits.length !== (size + 7) >>> 3) return `its bits are not ${(size + 7) >>> 3} bytes`;
  return undefined;
}
