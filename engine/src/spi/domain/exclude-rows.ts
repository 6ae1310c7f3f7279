// Which decoded rows of a column can satisfy a pushed-down column domain, row by row: the lake's
// Parquet reader decodes the constraint's columns first and the other columns only for the rows
// that pass, and the memory connector drops rows a dynamic filter rules out. The engine still
// evaluates the whole predicate on every row it gets, so this only has to be conservative: a row
// it cannot decide (NaN, a value of another kind than the domain's, an integer beyond 2^53) is
// kept. NULL never satisfies a domain (they come from null-rejecting predicates: comparisons,
// BETWEEN, IN), as the page and row-group pruning assume.

import type { Column } from '../../columnar/page.js';
import { compareBounds, type Bound, type PreparedDomain } from './prepared-domain.js';

/** Clears keep[i] for each row i of `column` that cannot satisfy `domain`. */
export function excludeRows(column: Column, domain: PreparedDomain, keep: Uint8Array): void {
  const { values, nulls } = column;
  const n = column.length;
  if (nulls !== null) for (let i = 0; i < n; i++) if (nulls[i] === 1) keep[i] = 0;
  switch (column.type.kind) {
    case 'bigint':
    case 'decimal':
      if (values instanceof BigInt64Array) {
        const test = numberTest(domain, true);
        if (test !== undefined) excludeInt64(values, n, domain, test, keep);
        else excludeBounds(values, n, domain, keep);
      } else excludeBounds(values as bigint[], n, domain, keep);
      return;
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'date':
    case 'double':
    case 'time':
    case 'timestamp': {
      // A long timestamp holds bigint picoseconds (long-plain-temporal.ts), a short one micros.
      if (Array.isArray(values)) {
        excludeBounds(values as bigint[], n, domain, keep);
        return;
      }
      const test = numberTest(domain, false);
      if (test !== undefined) excludeNumbers(values as Int32Array | Float64Array | Int16Array | Int8Array, n, test, keep);
      return;
    }
    case 'varchar':
      excludeStrings(values as string[], n, domain, keep);
      return;
    case 'boolean':
    case 'varbinary':
      excludeBounds(values as Uint8Array | Uint8Array[], n, domain, keep);
      return;
    default:
      // real: a domain's number need not be a float32 value, so rows are left to the engine's filter.
      return;
  }
}

/** The general case: each value as a bound (a number, bigint or bytes). */
function excludeBounds(
  values: Uint8Array | Uint8Array[] | bigint[] | BigInt64Array,
  n: number,
  domain: PreparedDomain,
  keep: Uint8Array,
): void {
  for (let i = 0; i < n; i++) {
    if (keep[i] === 0) continue;
    const v = values[i];
    if (!boundMatches(domain, v)) keep[i] = 0;
  }
}

/** A domain over numbers: [low, high] with inclusiveness, and IN values, all as exact JS numbers. */
interface NumberTest {
  low: number;
  lowInclusive: boolean;
  high: number;
  highInclusive: boolean;
  /** IN values, when there is no bitmap. */
  values: Set<number> | undefined;
  /** The integer values that satisfy the whole domain, as bits from `base`, when they span few numbers (faster than the set). */
  bitmap?: { base: number; size: number; bits: Uint8Array };
}

/** Most numbers a value bitmap spans (its bytes are an eighth of it). */
const MAX_BITMAP_SPAN = 2 ** 23;

/** Each domain's number tests, made once (a dynamic filter's value set may be large; a domain is tested chunk after chunk). */
const numberTests = new WeakMap<PreparedDomain, Map<boolean, NumberTest | undefined>>();

/** The domain as numbers, or undefined when one of its bounds is not a number that compares exactly with the column's. */
function numberTest(domain: PreparedDomain, integers: boolean): NumberTest | undefined {
  let tests = numberTests.get(domain);
  if (tests === undefined) numberTests.set(domain, (tests = new Map()));
  if (!tests.has(integers)) tests.set(integers, makeNumberTest(domain, integers));
  return tests.get(integers);
}

const MIN_SAFE_BIGINT = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);

function makeNumberTest(domain: PreparedDomain, integers: boolean): NumberTest | undefined {
  const asNumber = (b: Bound): number | undefined => {
    if (typeof b === 'bigint') return integers && b >= MIN_SAFE_BIGINT && b <= MAX_SAFE_BIGINT ? Number(b) : undefined;
    return typeof b === 'number' && !integers ? b : undefined;
  };
  const low = domain.low === undefined ? -Infinity : asNumber(domain.low.value);
  const high = domain.high === undefined ? Infinity : asNumber(domain.high.value);
  if (low === undefined || high === undefined) return undefined;
  const test: NumberTest = {
    low,
    lowInclusive: domain.low?.inclusive ?? true,
    high,
    highInclusive: domain.high?.inclusive ?? true,
    values: undefined,
  };
  if (domain.values === undefined) {
    // A build's keys as bits: they lie within the range (its least and greatest), so the bitmap alone decides.
    if (domain.keys !== undefined) test.bitmap = domain.keys;
    return test;
  }
  const numbers = new Float64Array(domain.values.length);
  for (let i = 0; i < numbers.length; i++) {
    const v = asNumber(domain.values[i]);
    if (v === undefined) return undefined;
    numbers[i] = v;
  }
  // A dynamic filter's values may be tens of thousands: the set is made only when no bitmap can hold them.
  test.bitmap = valueBitmap(test, numbers);
  if (test.bitmap === undefined) test.values = new Set(numbers);
  return test;
}

/** The values in the test's range as a bitmap, when they are all integers spanning at most MAX_BITMAP_SPAN. */
function valueBitmap(t: NumberTest, values: Float64Array): NumberTest['bitmap'] {
  let base = Infinity;
  let last = -Infinity;
  for (const v of values) {
    if (!inRange(t, v)) continue;
    if (!Number.isInteger(v)) return undefined;
    base = Math.min(base, v);
    last = Math.max(last, v);
  }
  if (base === Infinity) return undefined;
  const size = last - base + 1;
  if (size > MAX_BITMAP_SPAN) return undefined;
  const bits = new Uint8Array((size + 7) >>> 3);
  for (const v of values) if (inRange(t, v)) bits[(v - base) >>> 3] |= 1 << ((v - base) & 7);
  return { base, size, bits };
}

function inRange(t: NumberTest, v: number): boolean {
  return !(v < t.low || (v === t.low && !t.lowInclusive) || v > t.high || (v === t.high && !t.highInclusive));
}

function numberMatches(t: NumberTest, v: number): boolean {
  const bitmap = t.bitmap;
  if (bitmap !== undefined) {
    // A non-integer offset reads its floor's bit: such a row may be kept, never wrongly dropped.
    const offset = v - bitmap.base;
    return offset >= 0 && offset < bitmap.size && (bitmap.bits[offset >>> 3] & (1 << (offset & 7))) !== 0;
  }
  if (v < t.low || (v === t.low && !t.lowInclusive) || v > t.high || (v === t.high && !t.highInclusive)) return false;
  return t.values === undefined || t.values.has(v);
}

function excludeNumbers(values: Int32Array | Float64Array | Int16Array | Int8Array, n: number, t: NumberTest, keep: Uint8Array): void {
  for (let i = 0; i < n; i++) {
    const v = values[i];
    // NaN compares false with everything: kept, for the engine's filter to decide.
    if (keep[i] === 1 && v === v && !numberMatches(t, v)) keep[i] = 0;
  }
}

const TWO_POW_32 = 4294967296;
/** |high word| below this: the 64-bit value is a safe integer as high * 2^32 + low. */
const SAFE_HIGH_WORD = 2 ** 21;

/**
 * 64-bit integers read as 32-bit word pairs (no BigInt per row), as a BigInt only beyond 2^53. The
 * bitmap, range and set cases loop apart with the test's fields in locals: one generic loop calling
 * numberMatches cost ~20 ns a row, on the memory connector's scan path before any thread starts.
 */
function excludeInt64(values: BigInt64Array, n: number, domain: PreparedDomain, t: NumberTest, keep: Uint8Array): void {
  const words = new Int32Array(values.buffer, values.byteOffset, n * 2);
  const bitmap = t.bitmap;
  const unsafe =
    bitmap !== undefined
      ? excludeInt64ByBitmap(words, n, bitmap, keep)
      : t.values === undefined
        ? excludeInt64ByRange(words, n, t, keep)
        : excludeInt64BySet(words, n, t, keep);
  if (unsafe === 0) return;
  // Values beyond 2^53, left out above, against the domain's exact bounds.
  for (let i = 0; i < n; i++) if (keep[i] === 1 && !isSafeHighWord(words[2 * i + 1]) && !boundMatches(domain, values[i])) keep[i] = 0;
}

function isSafeHighWord(high: number): boolean {
  return high < SAFE_HIGH_WORD && high >= -SAFE_HIGH_WORD;
}

// Each of these clears keep for the rows of safe words (|value| <= 2^53) the test rules out and
// returns how many rows it left for boundMatches (their values beyond 2^53).

function excludeInt64ByBitmap(words: Int32Array, n: number, bitmap: NonNullable<NumberTest['bitmap']>, keep: Uint8Array): number {
  const { base, size, bits } = bitmap;
  let unsafe = 0;
  for (let i = 0; i < n; i++) {
    // Rows an earlier domain dropped are skipped: a selective first domain leaves few to test.
    if (keep[i] === 0) continue;
    const high = words[2 * i + 1];
    if (!isSafeHighWord(high)) {
      unsafe++;
      continue;
    }
    const offset = high * TWO_POW_32 + (words[2 * i] >>> 0) - base;
    if (!(offset >= 0 && offset < size && (bits[offset >>> 3] & (1 << (offset & 7))) !== 0)) keep[i] = 0;
  }
  return unsafe;
}

function excludeInt64ByRange(words: Int32Array, n: number, t: NumberTest, keep: Uint8Array): number {
  // Inclusive bounds as exact numbers: an integer is above an exclusive bound x when it is >= x + 1
  // only for integral x, so a fractional exclusive bound stays as it is (v > x then equals v >= x).
  const low = t.lowInclusive || !Number.isInteger(t.low) ? t.low : t.low + 1;
  const high = t.highInclusive || !Number.isInteger(t.high) ? t.high : t.high - 1;
  let unsafe = 0;
  for (let i = 0; i < n; i++) {
    if (keep[i] === 0) continue;
    const hi = words[2 * i + 1];
    if (!isSafeHighWord(hi)) {
      unsafe++;
      continue;
    }
    const v = hi * TWO_POW_32 + (words[2 * i] >>> 0);
    if (v < low || v > high) keep[i] = 0;
  }
  return unsafe;
}

function excludeInt64BySet(words: Int32Array, n: number, t: NumberTest, keep: Uint8Array): number {
  let unsafe = 0;
  for (let i = 0; i < n; i++) {
    const high = words[2 * i + 1];
    if (!isSafeHighWord(high)) unsafe++;
    else if (keep[i] === 1 && !numberMatches(t, high * TWO_POW_32 + (words[2 * i] >>> 0))) keep[i] = 0;
  }
  return unsafe;
}

/** Strings against a domain whose bounds are UTF-8 bytes, compared in code point order (SQL's for varchar). */
function excludeStrings(values: string[], n: number, domain: PreparedDomain, keep: Uint8Array): void {
  const decoder = new TextDecoder();
  const text = (b: Bound): string | undefined => (b instanceof Uint8Array ? decoder.decode(b) : undefined);
  const low = domain.low === undefined ? undefined : text(domain.low.value);
  const high = domain.high === undefined ? undefined : text(domain.high.value);
  if ((domain.low !== undefined && low === undefined) || (domain.high !== undefined && high === undefined)) return;
  const set = domain.values === undefined ? undefined : new Set(domain.values.map(text));
  const lowInclusive = domain.low?.inclusive ?? true;
  const highInclusive = domain.high?.inclusive ?? true;
  for (let i = 0; i < n; i++) {
    if (keep[i] === 0) continue;
    const v = values[i];
    if (set !== undefined && !set.has(v)) {
      keep[i] = 0;
      continue;
    }
    if (low !== undefined) {
      const c = compareCodePoints(v, low);
      if (c < 0 || (c === 0 && !lowInclusive)) {
        keep[i] = 0;
        continue;
      }
    }
    if (high !== undefined) {
      const c = compareCodePoints(v, high);
      if (c > 0 || (c === 0 && !highInclusive)) keep[i] = 0;
    }
  }
}

/**
 * a - b's sign in code point order. UTF-16 code units order strings the same way except where a
 * surrogate (a code point above U+FFFF) meets a unit of U+E000..U+FFFF: there code points decide.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return a.codePointAt(i)! - b.codePointAt(i)!;
    return x - y;
  }
  return a.length - b.length;
}

function boundMatches(domain: PreparedDomain, v: Bound): boolean {
  const cmp = compareBounds;
  if (domain.low !== undefined) {
    const c = cmp(v, domain.low.value);
    if (c !== undefined && (c < 0 || (c === 0 && !domain.low.inclusive))) return false;
  }
  if (domain.high !== undefined) {
    const c = cmp(v, domain.high.value);
    if (c !== undefined && (c > 0 || (c === 0 && !domain.high.inclusive))) return false;
  }
  if (domain.values === undefined) return true;
  return domain.values.some((d) => {
    const c = cmp(v, d);
    return c === undefined || c === 0;
  });
}
