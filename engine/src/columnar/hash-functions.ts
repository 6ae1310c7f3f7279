// Hashing of typed values without allocation: integers and doubles through their bits, bigints
// through the two 32-bit halves of their int64 storage, strings through a per-character loop.
// The same value always hashes the same whatever column it comes from, so a join hashes probe and
// build keys alike, and doubles are canonicalised (-0 as 0, one NaN) to match IS NOT DISTINCT.

import { getScalar, type Column } from './page.js';
import type { Scalar } from '../types/scalar.js';
import { MapValue } from '../types/map-value.js';
import { hashMapValue } from './map-hash.js';
import { holdsStrings } from '../types/types.js';
import { zonedAsInstants } from '../types/zoned-timestamp.js';

const scratchDouble = new Float64Array(1);
const scratchWords = new Int32Array(scratchDouble.buffer);
const scratchInt64 = new BigInt64Array(1);
const scratchInt64Words = new Int32Array(scratchInt64.buffer);

export const NULL_HASH = 0x3c6ef372;
const NAN_HASH = 0x1b873593;

/** murmur3's 32-bit finaliser: spreads every input bit over the output. */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

export function combineHash(previous: number, next: number): number {
  return (Math.imul(previous, 31) + next) | 0;
}

export function hashInt64Words(lo: number, hi: number): number {
  return mix32(lo ^ mix32(hi ^ 0x27d4eb2f));
}

/** Hash of a JS number (any integer or double SQL type); integers hash as int64 would. */
export function hashNumber(v: number): number {
  if ((v | 0) === v) return hashInt64Words(v, v < 0 ? -1 : 0);
  if (v !== v) return NAN_HASH;
  if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) {
    // A large integral double (e.g. a timestamp) hashes like the int64 of the same value.
    const hi = Math.floor(v / 4294967296);
    return hashInt64Words((v - hi * 4294967296) | 0, hi | 0);
  }
  scratchDouble[0] = v;
  return hashInt64Words(scratchWords[0], scratchWords[1] ^ 0x5bd1e995);
}

export function hashBigint(v: bigint): number {
  if (v >= -0x8000000000000000n && v <= 0x7fffffffffffffffn) {
    scratchInt64[0] = v;
    return hashInt64Words(scratchInt64Words[0], scratchInt64Words[1]);
  }
  // Long decimals beyond int64: fold 64-bit limbs.
  let h = 0x9e3779b9;
  let rest = v < 0n ? -v : v;
  while (rest > 0n) {
    scratchInt64[0] = BigInt.asIntN(64, rest);
    h = combineHash(h, hashInt64Words(scratchInt64Words[0], scratchInt64Words[1]));
    rest >>= 64n;
  }
  return v < 0n ? ~h : h;
}

export function hashString(s: string): number {
  let h = 0x811c9dc5 ^ s.length;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return mix32(h);
}

export function hashBytes(b: Uint8Array): number {
  let h = 0x811c9dc5 ^ b.length;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return mix32(h);
}

/**
 * Hash of any non-null scalar as the typed loops below hash it (booleans as 0/1, every integer and
 * double as hashNumber, bigints and decimals as hashBigint): array elements and array rows.
 */
export function hashScalar(v: Scalar): number {
  if (v === null) return NULL_HASH;
  switch (typeof v) {
    case 'number':
      return hashNumber(v);
    case 'bigint':
      return hashBigint(v);
    case 'string':
      return hashString(v);
    case 'boolean':
      return hashNumber(v ? 1 : 0);
    default:
      if (v instanceof Uint8Array) return hashBytes(v);
      if (v instanceof MapValue) return hashMapValue(v, hashScalar);
      return hashArray(v);
  }
}

function hashArray(values: readonly Scalar[]): number {
  let h = 0x2545f491 ^ values.length;
  for (const v of values) h = combineHash(h, hashScalar(v));
  return mix32(h);
}

/** The two 32-bit words of each int64 in `values` (little-endian: lo at 2i, hi at 2i+1). */
export function int64Words(values: BigInt64Array): Int32Array {
  return new Int32Array(values.buffer, values.byteOffset, values.length * 2);
}

/** Values with every zoned timestamp inside replaced by its instant: equal instants hash alike. */
const instantsOf = zonedAsInstants;

/**
 * Hashes rows [from, count) of `column` into `out` (at the same positions); with `combine`, mixes
 * into the hashes already in `out` (for multi-column keys). One typed loop per storage kind.
 */
export function hashColumn(column: Column, count: number, out: Int32Array, combine: boolean, from = 0): void {
  const nulls = column.nulls;
  const values = column.values;
  const kind = column.type.kind;
  if (kind === 'unknown') {
    for (let i = from; i < count; i++) out[i] = combine ? combineHash(out[i], NULL_HASH) : NULL_HASH;
    return;
  }
  if (kind === 'array' || kind === 'map' || kind === 'row' || kind === 'variant') {
    const instants = instantsOf(column.type);
    for (let i = from; i < count; i++) {
      const h = nulls !== null && nulls[i] === 1 ? NULL_HASH : hashScalar(instants(getScalar(column, i)));
      out[i] = combine ? combineHash(out[i], h) : h;
    }
    return;
  }
  if (kind === 'timestamp with time zone' || kind === 'time with time zone') {
    hashZonedColumn(values as BigInt64Array | bigint[], nulls, count, out, combine, from);
    return;
  }
  if (values instanceof BigInt64Array) {
    const words = int64Words(values);
    for (let i = from; i < count; i++) {
      const h = nulls !== null && nulls[i] === 1 ? NULL_HASH : hashInt64Words(words[2 * i], words[2 * i + 1]);
      out[i] = combine ? combineHash(out[i], h) : h;
    }
    return;
  }
  if (Array.isArray(values)) {
    const hashOne = holdsStrings(column.type) ? hashString : kind === 'varbinary' ? hashBytes : hashBigint;
    const arr = values as unknown[];
    for (let i = from; i < count; i++) {
      const h = nulls !== null && nulls[i] === 1 ? NULL_HASH : (hashOne as (v: unknown) => number)(arr[i]);
      out[i] = combine ? combineHash(out[i], h) : h;
    }
    return;
  }
  const nums = values as Float64Array;
  for (let i = from; i < count; i++) {
    const h = nulls !== null && nulls[i] === 1 ? NULL_HASH : hashNumber(nums[i]);
    out[i] = combine ? combineHash(out[i], h) : h;
  }
}

/** Row hashes of several key columns, of rows [from, count). */
export function hashRows(columns: readonly Column[], count: number, out: Int32Array, from = 0): void {
  if (columns.length === 0) {
    out.fill(0, from, count);
    return;
  }
  for (let c = 0; c < columns.length; c++) hashColumn(columns[c], count, out, c > 0, from);
}

/**
 * Zoned timestamps hash by instant (value >> 12), so equal instants in different zones meet; a long
 * one's instant (millis << 30 | picos) hashes its two parts, each exact as a number.
 */
function hashZonedColumn(
  values: BigInt64Array | bigint[],
  nulls: Uint8Array | null,
  count: number,
  out: Int32Array,
  combine: boolean,
  from: number,
): void {
  const long = !(values instanceof BigInt64Array);
  for (let i = from; i < count; i++) {
    const instant = values[i] >> 12n;
    const h =
      nulls !== null && nulls[i] === 1
        ? NULL_HASH
        : long
          ? combineHash(hashNumber(Number(instant >> 30n)), hashNumber(Number(instant & 0x3fffffffn)))
          : hashNumber(Number(instant));
    out[i] = combine ? combineHash(out[i], h) : h;
  }
}
