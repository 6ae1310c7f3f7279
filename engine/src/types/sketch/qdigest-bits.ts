// The 64-bit keys of a quantile digest, held as two unsigned 32-bit halves (hi, lo) so that the
// hot insert path needs no BigInt. A key is a value's "sortable bits": its two's-complement long
// with the sign bit flipped, so unsigned order of keys is signed order of values. Doubles and reals
// first become sortable longs the way Trino maps them (IEEE bits, negatives with all other bits
// flipped; a real's sortable int sign-extended), so NaN sorts above +Infinity and -0.0 below 0.0.

export interface Key {
  hi: number;
  lo: number;
}

const SIGN = 0x80000000;
const scratch = new DataView(new ArrayBuffer(8));

/** The key of a signed long given as its two's-complement halves (hi signed or unsigned). */
export function keyOfLongWords(hi: number, lo: number): Key {
  return { hi: (hi ^ SIGN) >>> 0, lo: lo >>> 0 };
}

export function keyOfBigint(value: bigint): Key {
  scratch.setBigInt64(0, value);
  return keyOfLongWords(scratch.getUint32(0), scratch.getUint32(4));
}

/** The key of doubleToSortableLong(value) (NaN read as Java's canonical NaN). */
export function keyOfDouble(value: number): Key {
  scratch.setFloat64(0, Number.isNaN(value) ? NaN : value);
  const hi = scratch.getUint32(0);
  const lo = scratch.getUint32(4);
  // negative: every bit but the sign flips, then the key flips the sign bit too
  return hi & SIGN ? { hi: ~hi >>> 0, lo: ~lo >>> 0 } : { hi: (hi | SIGN) >>> 0, lo };
}

/** The key of floatToSortableInt(value) sign-extended to a long. */
export function keyOfReal(value: number): Key {
  scratch.setFloat32(0, Number.isNaN(value) ? NaN : value);
  const bits = scratch.getInt32(0);
  const sortable = bits < 0 ? bits ^ 0x7fffffff : bits;
  return keyOfLongWords(sortable < 0 ? 0xffffffff : 0, sortable);
}

export function bigintOfKey(key: Key): bigint {
  scratch.setUint32(0, (key.hi ^ SIGN) >>> 0);
  scratch.setUint32(4, key.lo);
  return scratch.getBigInt64(0);
}

/** The double a key of a qdigest(double) stands for (the key's long read back as airlift's sortableLongToDouble does). */
export function doubleOfKey(key: Key): number {
  const negative = (key.hi & SIGN) === 0; // the long's sign bit is the key's flipped
  scratch.setUint32(0, negative ? ~key.hi >>> 0 : (key.hi ^ SIGN) >>> 0);
  scratch.setUint32(4, negative ? ~key.lo >>> 0 : key.lo);
  return scratch.getFloat64(0);
}

/** The real a key of a qdigest(real) stands for (the low 32 bits read back as airlift's sortableIntToFloat does). */
export function realOfKey(key: Key): number {
  const sortable = key.lo | 0;
  scratch.setInt32(0, sortable < 0 ? sortable ^ 0x7fffffff : sortable);
  return scratch.getFloat32(0);
}

export function compareKeys(aHi: number, aLo: number, bHi: number, bLo: number): number {
  return aHi !== bHi ? (aHi < bHi ? -1 : 1) : aLo === bLo ? 0 : aLo < bLo ? -1 : 1;
}

/** Whether two keys agree above bit `level` (always at level 64: the whole domain). */
export function sameAbove(aHi: number, aLo: number, bHi: number, bLo: number, level: number): boolean {
  if (level >= 64) return true;
  if (level >= 32) return aHi >>> (level - 32) === bHi >>> (level - 32);
  return aHi === bHi && aLo >>> level === bLo >>> level;
}

/** The number of bits up to and including the highest in which two keys differ (0 when equal). */
export function differingBits(aHi: number, aLo: number, bHi: number, bLo: number): number {
  const hi = (aHi ^ bHi) >>> 0;
  return hi !== 0 ? 64 - Math.clz32(hi) : 32 - Math.clz32((aLo ^ bLo) >>> 0);
}

/** Bit `index` (0 = least significant) of a key. */
export function bitAt(hi: number, lo: number, index: number): number {
  return index >= 32 ? (hi >>> (index - 32)) & 1 : (lo >>> index) & 1;
}

/** The key with its low `level` bits set (ones) or cleared (!ones): a node's range bounds. */
export function rangeEnd(hi: number, lo: number, level: number, ones: boolean): Key {
  const loMask = level >= 32 ? 0xffffffff : level === 0 ? 0 : (0xffffffff >>> (32 - level)) >>> 0;
  const hiMask = level <= 32 ? 0 : level >= 64 ? 0xffffffff : (0xffffffff >>> (64 - level)) >>> 0;
  return ones ? { hi: (hi | hiMask) >>> 0, lo: (lo | loMask) >>> 0 } : { hi: (hi & ~hiMask) >>> 0, lo: (lo & ~loMask) >>> 0 };
}
