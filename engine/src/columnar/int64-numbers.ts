// int64 values read and written as doubles through their 32-bit words, without creating a BigInt.

const TWO_32 = 4294967296;

/** Writes the integral double `value` (|value| <= 2^53) as int64 at `index` of the word view. */
export function writeInt64Number(words: Int32Array, index: number, value: number): void {
  const hi = Math.floor(value / TWO_32);
  words[2 * index] = (value - hi * TWO_32) | 0;
  words[2 * index + 1] = hi | 0;
}

/** Reads an int64 from its words as a double, exact when |value| < 2^53 (see isSafeInt64). */
export function readInt64Number(words: Int32Array, index: number): number {
  return words[2 * index + 1] * TWO_32 + (words[2 * index] >>> 0);
}

/** True when the int64 at `index` is below 2^53 in magnitude, so readInt64Number is exact. */
export function isSafeInt64(words: Int32Array, index: number): boolean {
  const hi = words[2 * index + 1];
  return hi >= -2097152 && hi < 2097152;
}
