// A one-bit-per-hash filter (a Bloom filter with one hash function) of a join table's keys, small
// enough to stay in the core's own cache: a probe whose bit is clear cannot match, and skips the
// table itself, which may be many megabytes of random reads. It pays off where most probes miss,
// such as a semi join hashing its small side while millions of build rows stream past (TPC-H q21,
// q4, q22), and costs one cached read where they hit.

import { newInt32Array } from './shared-join-lookup.js';

/** The odd multiplier whose product's top bits choose a hash's bit (and its table region, table-regions). */
export const KEY_BIT_MULTIPLIER = 0x9e3779b1;
/** Bits per key aimed at (about 6% false positives); fewer only for tables past the size cap. */
const BITS_PER_KEY = 16;
/** The filter's largest size: 2^23 bits, one megabyte (half a core's second-level cache here). */
const MAX_BITS_LOG2 = 23;
/** Below this many bits per key the filter passes too much to earn its read. */
const MIN_BITS_PER_KEY = 4;
const MIN_BITS_LOG2 = 10;

/** The log2 of the filter's size in bits for a table of `rows` keys; 0: no filter (too many keys). */
export function keyBitsLog2(rows: number): number {
  let log2 = MIN_BITS_LOG2;
  while (log2 < MAX_BITS_LOG2 && 2 ** log2 < rows * BITS_PER_KEY) log2++;
  return 2 ** log2 < rows * MIN_BITS_PER_KEY ? 0 : log2;
}

/** Bytes of the filter for a table of `rows` keys. */
export function keyBitsBytes(rows: number): number {
  const log2 = keyBitsLog2(rows);
  return log2 === 0 ? 0 : 2 ** log2 / 8;
}

/** The zeroed filter of a table of `rows` keys (in shared memory when `shared`); empty when it has none. */
export function newKeyBits(rows: number, shared: boolean): Int32Array {
  const log2 = keyBitsLog2(rows);
  return newInt32Array(log2 === 0 ? 0 : 2 ** (log2 - 5), shared);
}

/** The shift that keyBit takes for `bits`: 32 minus its log2 size in bits (0 for no filter). */
export function keyBitShift(bits: Int32Array): number {
  return bits.length === 0 ? 0 : 32 - Math.log2(bits.length * 32);
}

/**
 * The bit of a key's hash: the top bits of an odd multiple of it, so that they do not repeat the low
 * bits that choose the key's slot in the table. `shift` is 32 minus the filter's log2 size.
 */
export function keyBit(hash: number, shift: number): number {
  return Math.imul(hash, KEY_BIT_MULTIPLIER) >>> shift;
}

/** Sets the bit of `hash` in `bits` (of 2^(32 - shift) bits). */
export function addKeyBit(bits: Int32Array, hash: number, shift: number): void {
  const bit = keyBit(hash, shift);
  bits[bit >>> 5] |= 1 << (bit & 31);
}

/** Whether `hash`'s bit is set: false means no key with this hash was added. */
export function mayHaveKey(bits: Int32Array, hash: number, shift: number): boolean {
  const bit = keyBit(hash, shift);
  return (bits[bit >>> 5] & (1 << (bit & 31))) !== 0;
}

/** Probes a table tests its filter on before its share of rejected probes decides whether testing pays. */
const TRIAL_PROBES = 65_536;
/** Below this share of rejected probes the filter is no longer tested (most probes hit: it only costs a read). */
const MIN_REJECTED_SHARE = 0.1;

/** One table's (in one thread) record of what its filter rejected: whether testing it still pays. */
export class KeyBitsTrial {
  private probes = 0;
  private rejected = 0;

  constructor(private testing: boolean) {}

  /** Whether the next probes test the filter. */
  get active(): boolean {
    return this.testing;
  }

  /** Counts a batch of `probes` of which the filter rejected `rejected`. */
  record(probes: number, rejected: number): void {
    this.probes += probes;
    this.rejected += rejected;
    if (this.probes >= TRIAL_PROBES && this.rejected < this.probes * MIN_REJECTED_SHARE) this.testing = false;
  }
}
