// The order in which Trino's CLI prints a map's entries: its client decodes a map into a
// java.util.HashMap, which iterates bucket by bucket (hash code, spread, modulo a capacity that
// doubles as the map fills), in insertion order within a bucket. Two differences remain: buckets that
// Java turns into trees (nine colliding keys in a table of 64 or more) keep insertion order here, and
// the insertion order is that of the parsed JSON object, which lists integer-like keys first.

import { keyIsText } from './client-types.js';

const INITIAL_CAPACITY = 16;
const LOAD_FACTOR = 0.75;
const TREEIFY_THRESHOLD = 8;
const MIN_TREEIFY_CAPACITY = 64;

/** Java's hashCode of the object the Trino client decodes a map key of this type to; undefined for a byte[] (its identity). */
export function javaKeyHash(key: string, keyType: string): number | undefined {
  switch (keyType) {
    case 'bigint':
      return longHash(BigInt.asUintN(64, BigInt(key)));
    case 'integer':
    case 'smallint':
    case 'tinyint':
      return Number(key) | 0;
    case 'double':
      return longHash(doubleBits(Number(key)));
    case 'real':
      return floatBits(Number(key));
    case 'boolean':
      return key === 'true' ? 1231 : 1237;
    default:
      return keyIsText(keyType) ? stringHash(key) : undefined;
  }
}

/** The entries in a HashMap's iteration order, given in insertion order with their keys' hash codes. */
export function hashMapOrder<T>(entries: readonly T[], hashes: ReadonlyArray<number | undefined>): readonly T[] {
  if (hashes.some((h) => h === undefined)) return entries;
  const spread = (hashes as number[]).map((h) => (h ^ (h >>> 16)) >>> 0);
  const capacity = finalCapacity(spread);
  const bucket = (i: number) => spread[i]! & (capacity - 1);
  // Array.prototype.sort is stable: insertion order within a bucket.
  return entries
    .map((_, i) => i)
    .sort((a, b) => bucket(a) - bucket(b))
    .map((i) => entries[i]!);
}

/** The table size after inserting the keys one by one, resizing as HashMap.putVal does. */
function finalCapacity(spread: readonly number[]): number {
  let capacity = INITIAL_CAPACITY;
  let bins = new Map<number, number>();
  const rehash = (inserted: number) => {
    bins = new Map();
    for (let i = 0; i < inserted; i++) bins.set(spread[i]! & (capacity - 1), (bins.get(spread[i]! & (capacity - 1)) ?? 0) + 1);
  };
  for (let size = 0; size < spread.length; ) {
    const bin = spread[size]! & (capacity - 1);
    const before = bins.get(bin) ?? 0;
    bins.set(bin, before + 1);
    size++;
    // A ninth key in one bin makes a small table grow instead of turning the bin into a tree.
    if (before >= TREEIFY_THRESHOLD && capacity < MIN_TREEIFY_CAPACITY) {
      capacity *= 2;
      rehash(size);
    }
    if (size > capacity * LOAD_FACTOR) {
      capacity *= 2;
      rehash(size);
    }
  }
  return capacity;
}

function longHash(bits: bigint): number {
  return Number(BigInt.asIntN(32, bits ^ (bits >> 32n)));
}

function stringHash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
  return h;
}

const view = new DataView(new ArrayBuffer(8));

/** Double.doubleToLongBits: every NaN as the canonical one. */
function doubleBits(x: number): bigint {
  view.setFloat64(0, Number.isNaN(x) ? NaN : x);
  return view.getBigUint64(0);
}

/** Float.floatToIntBits. */
function floatBits(x: number): number {
  view.setFloat32(0, Number.isNaN(x) ? NaN : x);
  return view.getInt32(0);
}
