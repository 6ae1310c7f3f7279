// Trino's SetDigest: a HyperLogLog of 2048 buckets plus a MinHash, the 8192 smallest value hashes
// (signed order) with how often each was added (saturating at 32767). Serialized (little-endian):
// version 1, HyperLogLog length (i32), the HyperLogLog (hyperloglog.ts), max hashes (i32), entry
// count (i32), the hashes (i64 each, ascending), then their counts (i16 each).
// While fewer than max hashes are held the set is exact: its cardinality is their number.

import { EngineError } from '../../errors/engine-error.js';
import { HyperLogLog } from './hyperloglog.js';

const VERSION = 1;
const HLL_BUCKETS = 2048;
const DEFAULT_MAX_HASHES = 8192;
const MAX_COUNT = 32767;

function invalid(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', `Cannot deserialize SetDigest: ${message}`);
}

/** The HyperLogLog bytes inside a serialized SetDigest (CAST(setdigest AS HyperLogLog)). */
export function setDigestHyperLogLogBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 5 || bytes[0] !== VERSION)
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', 'Legacy version of SetDigest cannot cast to HyperLogLog');
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(1, true);
  if (length < 0 || 5 + length > bytes.length) throw invalid('HyperLogLog length out of range');
  return bytes.slice(5, 5 + length);
}

export class SetDigest {
  /** Hash -> count; may hold more than maxHashes entries until trimmed (the kept set is the same). */
  private counts = new Map<bigint, number>();
  /** Once trimmed: the largest hash kept, above which an added hash can never be kept. */
  private ceiling: bigint | undefined;

  private constructor(
    private readonly maxHashes: number,
    readonly hll: HyperLogLog,
  ) {}

  static empty(): SetDigest {
    return new SetDigest(DEFAULT_MAX_HASHES, HyperLogLog.empty(HLL_BUCKETS));
  }

  /** Adds a value by its 64-bit hash as unsigned words (the same hash feeds the HyperLogLog, as Trino's add does). */
  addHashWords(high: number, low: number): void {
    this.hll.addHashWords(high, low);
    this.count(BigInt.asIntN(64, (BigInt(high) << 32n) | BigInt(low)), 1);
  }

  mergeWith(other: SetDigest): void {
    this.hll.mergeWith(other.hll);
    for (const [hash, count] of other.counts) this.count(hash, count);
  }

  isExact(): boolean {
    this.trim();
    // Exactly maxHashes hashes may be an exact set of that size or a truncated one: Trino says inexact.
    return this.counts.size < this.maxHashes;
  }

  cardinality(): number {
    return this.isExact() ? this.counts.size : this.hll.cardinality();
  }

  /** The hashes and their counts, by ascending (signed) hash. */
  hashCounts(): [bigint, number][] {
    this.trim();
    return [...this.counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  serialize(): Uint8Array {
    const entries = this.hashCounts();
    const hll = this.hll.serialize();
    const bytes = new Uint8Array(1 + 4 + hll.length + 8 + entries.length * 10);
    const view = new DataView(bytes.buffer);
    bytes[0] = VERSION;
    view.setInt32(1, hll.length, true);
    bytes.set(hll, 5);
    let at = 5 + hll.length;
    view.setInt32(at, this.maxHashes, true);
    view.setInt32(at + 4, entries.length, true);
    at += 8;
    entries.forEach(([hash], i) => view.setBigInt64(at + 8 * i, hash, true));
    at += 8 * entries.length;
    entries.forEach(([, count], i) => view.setInt16(at + 2 * i, count, true));
    return bytes;
  }

  static deserialize(bytes: Uint8Array): SetDigest {
    if (bytes.length < 5) throw invalid('too short');
    if (bytes[0] !== VERSION) throw invalid(`unexpected version ${bytes[0]}`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const hllLength = view.getInt32(1, true);
    const afterHll = 5 + hllLength;
    if (hllLength < 0 || afterHll + 8 > bytes.length) throw invalid('HyperLogLog length out of range');
    const maxHashes = view.getInt32(afterHll, true);
    const size = view.getInt32(afterHll + 4, true);
    if (maxHashes < 1 || size < 0 || bytes.length !== afterHll + 8 + size * 10) throw invalid('wrong length for its entry count');
    const digest = new SetDigest(maxHashes, HyperLogLog.deserialize(bytes.subarray(5, afterHll)));
    const countsAt = afterHll + 8 + size * 8;
    for (let i = 0; i < size; i++) digest.count(view.getBigInt64(afterHll + 8 + 8 * i, true), view.getInt16(countsAt + 2 * i, true));
    return digest;
  }

  /** Bytes held in memory, for the accumulator's accounting. */
  sizeInBytes(): number {
    return this.hll.sizeInBytes() + this.counts.size * 48;
  }

  private count(hash: bigint, times: number): void {
    if (this.ceiling !== undefined && hash > this.ceiling) return;
    this.counts.set(hash, Math.min(MAX_COUNT, (this.counts.get(hash) ?? 0) + times));
    if (this.counts.size > 2 * this.maxHashes) this.trim();
  }

  /** Keeps the maxHashes smallest hashes. */
  private trim(): void {
    if (this.counts.size <= this.maxHashes) return;
    const kept = [...this.counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, this.maxHashes);
    this.counts = new Map(kept.map((hash) => [hash, this.counts.get(hash) as number]));
    this.ceiling = kept[kept.length - 1];
  }
}

/** Trino's Jaccard estimate: of the smaller set's size many smallest hashes of the union, the share in both. */
export function jaccardIndex(a: SetDigest, b: SetDigest): number {
  const left = new Map(a.hashCounts());
  const right = new Map(b.hashCounts());
  const smaller = Math.min(left.size, right.size);
  const union = [...new Set([...left.keys(), ...right.keys()])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)).slice(0, smaller);
  return union.filter((hash) => left.has(hash) && right.has(hash)).length / smaller;
}

/** intersection_cardinality: exact for two exact sets, else the Jaccard index times the union's size. */
export function intersectionCardinality(a: SetDigest, b: SetDigest): number {
  if (a.isExact() && b.isExact()) {
    const right = new Set(b.hashCounts().map(([hash]) => hash));
    return a.hashCounts().filter(([hash]) => right.has(hash)).length;
  }
  const [cardinalityA, cardinalityB] = [a.cardinality(), b.cardinality()];
  const jaccard = jaccardIndex(a, b);
  a.mergeWith(b);
  // A near-subset can estimate above the smaller set's own size, which is then the better estimate.
  return Math.min(Math.round(jaccard * a.cardinality()), cardinalityA, cardinalityB);
}
