// A HyperLogLog sketch in airlift's serialized format, which Trino's HyperLogLog and P4HyperLogLog
// values are (little-endian throughout):
//   sparse (tag 2): tag, p, entry count (u16), entries (u32, ascending): the hash's top 26 bits, then
//                   6 bits holding the leading zeros after them;
//   dense  (tag 3): tag, p, baseline, 2^p 4-bit deltas (even bucket in the high nibble), overflow
//                   count (u16), overflow buckets (u16 each, ascending), overflow values (u8 each).
// A bucket's value is 1 + the leading zeros of the hash after its top p bits (the bucket index).
// Dense tag 1 (airlift's old dense layout) is read too. In memory a dense sketch is one byte per bucket.
// Estimates: linear counting over the 2^26 sparse buckets while sparse; dense, linear counting while
// more than 40% of the buckets are empty (as airlift), else Ertl's improved estimator (unbiased without
// airlift's empirical bias tables). Standard error 1.04 / sqrt(2^p).

import { EngineError } from '../../errors/engine-error.js';

const TAG_DENSE_V1 = 1;
const TAG_SPARSE = 2;
const TAG_DENSE = 3;
const SPARSE_PREFIX_BITS = 26;
const VALUE_BITS = 6;
const MAX_DELTA = 15;
const LINEAR_COUNTING_MIN_EMPTY = 0.4;
export const MAX_INDEX_BITS = 16;

/** Leading zeros of a 64-bit value given as unsigned high and low 32-bit words. */
function clz64(high: number, low: number): number {
  return high !== 0 ? Math.clz32(high) : 32 + Math.clz32(low);
}

/** The hash shifted left by `bits` (0 < bits < 32), as words. */
function shiftLeft(high: number, low: number, bits: number): [number, number] {
  return [((high << bits) | (low >>> (32 - bits))) >>> 0, (low << bits) >>> 0];
}

function invalid(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', `Cannot deserialize HyperLogLog: ${message}`);
}

export class HyperLogLog {
  /** Sparse entries (sorted by their top 26 bits), or undefined once dense. */
  private entries: number[] | undefined = [];
  private registers: Uint8Array | undefined;

  private constructor(readonly indexBits: number) {}

  static empty(buckets: number): HyperLogLog {
    const indexBits = Math.log2(buckets);
    if (!Number.isInteger(indexBits) || indexBits < 1 || indexBits > MAX_INDEX_BITS) {
      throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Number of buckets must be a power of 2 up to ${2 ** MAX_INDEX_BITS}: ${buckets}`);
    }
    return new HyperLogLog(indexBits);
  }

  get isDense(): boolean {
    return this.registers !== undefined;
  }

  /** Adds a 64-bit hash given as unsigned words (airlift: the first 64 bits of the value's murmur3_128). */
  addHashWords(high: number, low: number): void {
    if (this.registers !== undefined) {
      const p = this.indexBits;
      const [h, l] = shiftLeft(high, low, p);
      this.raise(high >>> (32 - p), clz64(h, (l | (1 << (p - 1))) >>> 0) + 1);
      return;
    }
    const prefix = high >>> (32 - SPARSE_PREFIX_BITS);
    const [h, l] = shiftLeft(high, low, SPARSE_PREFIX_BITS);
    this.insertEntry(prefix, clz64(h, (l | (1 << (SPARSE_PREFIX_BITS - 1))) >>> 0));
  }

  mergeWith(other: HyperLogLog): void {
    if (other.indexBits !== this.indexBits) {
      throw new EngineError(
        'INVALID_FUNCTION_ARGUMENT',
        `Cannot merge HLLs with different number of buckets: ${2 ** this.indexBits} vs ${2 ** other.indexBits}`,
      );
    }
    if (this.entries !== undefined && other.entries !== undefined) {
      for (const entry of other.entries) this.addEntry(entry);
      return;
    }
    this.makeDense();
    const theirs = other.denseRegisters();
    for (let bucket = 0; bucket < theirs.length; bucket++) this.raise(bucket, theirs[bucket]);
  }

  makeDense(): void {
    if (this.registers === undefined) this.registers = this.denseRegisters();
    this.entries = undefined;
  }

  cardinality(): number {
    if (this.entries !== undefined) {
      const total = 2 ** SPARSE_PREFIX_BITS;
      return Math.round(total * Math.log(total / (total - this.entries.length)));
    }
    const registers = this.registers as Uint8Array;
    const m = registers.length;
    const q = 64 - this.indexBits;
    const counts = new Float64Array(q + 2);
    for (const value of registers) counts[value]++;
    if (counts[0] > LINEAR_COUNTING_MIN_EMPTY * m) return Math.round(m * Math.log(m / counts[0]));
    let z = m * tau(1 - counts[q + 1] / m);
    for (let k = q; k >= 1; k--) z = 0.5 * (z + counts[k]);
    z += m * sigma(counts[0] / m);
    return Math.round((m * m) / (2 * Math.LN2 * z));
  }

  serialize(): Uint8Array {
    if (this.entries !== undefined) {
      const bytes = new Uint8Array(4 + 4 * this.entries.length);
      const view = new DataView(bytes.buffer);
      bytes[0] = TAG_SPARSE;
      bytes[1] = this.indexBits;
      view.setUint16(2, this.entries.length, true);
      this.entries.forEach((entry, i) => view.setUint32(4 + 4 * i, entry, true));
      return bytes;
    }
    const registers = this.registers as Uint8Array;
    let baseline = 255;
    for (const value of registers) baseline = Math.min(baseline, value);
    const overflows: number[] = [];
    for (let bucket = 0; bucket < registers.length; bucket++) if (registers[bucket] - baseline > MAX_DELTA) overflows.push(bucket);
    const deltasAt = 3;
    const overflowAt = deltasAt + registers.length / 2;
    const bytes = new Uint8Array(overflowAt + 2 + 3 * overflows.length);
    const view = new DataView(bytes.buffer);
    bytes[0] = TAG_DENSE;
    bytes[1] = this.indexBits;
    bytes[2] = baseline;
    for (let bucket = 0; bucket < registers.length; bucket++) {
      const delta = Math.min(MAX_DELTA, registers[bucket] - baseline);
      bytes[deltasAt + (bucket >> 1)] |= bucket % 2 === 0 ? delta << 4 : delta;
    }
    view.setUint16(overflowAt, overflows.length, true);
    overflows.forEach((bucket, i) => {
      view.setUint16(overflowAt + 2 + 2 * i, bucket, true);
      bytes[overflowAt + 2 + 2 * overflows.length + i] = registers[bucket] - baseline - MAX_DELTA;
    });
    return bytes;
  }

  /** Reads a serialized sketch, refusing anything that is not one (Trino: "Cannot deserialize HyperLogLog"). */
  static deserialize(bytes: Uint8Array): HyperLogLog {
    if (bytes.length < 2) throw invalid('too short');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const tag = bytes[0];
    const indexBits = bytes[1];
    if (indexBits < 1 || indexBits > MAX_INDEX_BITS) throw invalid(`index bit length ${indexBits} is out of range`);
    const hll = new HyperLogLog(indexBits);
    if (tag === TAG_SPARSE) {
      if (bytes.length < 4) throw invalid('too short');
      const count = view.getUint16(2, true);
      if (bytes.length !== 4 + 4 * count) throw invalid('wrong length for its entry count');
      for (let i = 0; i < count; i++) {
        const entry = view.getUint32(4 + 4 * i, true);
        hll.addEntry(entry);
      }
      return hll;
    }
    if (tag !== TAG_DENSE && tag !== TAG_DENSE_V1) throw invalid(`unknown format tag ${tag}`);
    const buckets = 2 ** indexBits;
    const overflowAt = 3 + buckets / 2;
    if (bytes.length < overflowAt + (tag === TAG_DENSE ? 2 : 3)) throw invalid('too short');
    const baseline = bytes[2];
    const registers = new Uint8Array(buckets);
    for (let bucket = 0; bucket < buckets; bucket++) {
      const slot = bytes[3 + (bucket >> 1)];
      registers[bucket] = baseline + (bucket % 2 === 0 ? slot >> 4 : slot & 15);
    }
    const addOverflow = (bucket: number, value: number): void => {
      if (bucket >= buckets) throw invalid('overflow bucket index is out of range');
      if (registers[bucket] - baseline === MAX_DELTA) registers[bucket] += value;
    };
    if (tag === TAG_DENSE_V1) {
      if (bytes.length !== overflowAt + 3) throw invalid('wrong length');
      const bucket = view.getInt16(overflowAt, true);
      const value = view.getInt8(overflowAt + 2);
      if (bucket >= 0 && value > 0) addOverflow(bucket, value);
    } else {
      const count = view.getUint16(overflowAt, true);
      if (bytes.length !== overflowAt + 2 + 3 * count) throw invalid('wrong length for its overflow count');
      for (let i = 0; i < count; i++) addOverflow(view.getUint16(overflowAt + 2 + 2 * i, true), bytes[overflowAt + 2 + 2 * count + i]);
    }
    if (registers.some((value) => value > 65 - indexBits)) throw invalid('bucket value is out of range');
    hll.registers = registers;
    hll.entries = undefined;
    return hll;
  }

  /** Bytes held in memory, for the accumulator's accounting. */
  sizeInBytes(): number {
    return 32 + (this.entries !== undefined ? this.entries.length * 8 : (this.registers as Uint8Array).length);
  }

  private raise(bucket: number, value: number): void {
    const registers = this.registers as Uint8Array;
    if (registers[bucket] < value) registers[bucket] = value;
  }

  /** Adds a sparse entry, into the buckets if this sketch has turned dense meanwhile. */
  private addEntry(entry: number): void {
    if (this.registers === undefined) this.insertEntry(entry >>> VALUE_BITS, entry & 63);
    else this.raise(entry >>> (32 - this.indexBits), entryValue(entry, this.indexBits));
  }

  /** Inserts (prefix, zeros) keeping entries sorted; turns dense once sparse stops being smaller. */
  private insertEntry(prefix: number, zeros: number): void {
    const entries = this.entries as number[];
    let low = 0;
    let high = entries.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = entries[middle] >>> VALUE_BITS;
      if (found < prefix) low = middle + 1;
      else if (found > prefix) high = middle - 1;
      else {
        if ((entries[middle] & 63) < zeros) entries[middle] = ((prefix << VALUE_BITS) | zeros) >>> 0;
        return;
      }
    }
    entries.splice(low, 0, ((prefix << VALUE_BITS) | zeros) >>> 0);
    // Sparse entries take 4 bytes, dense buckets half a byte: switch near airlift's point.
    if (entries.length * 4 > 2 ** this.indexBits / 2) this.makeDense();
  }

  private denseRegisters(): Uint8Array {
    if (this.registers !== undefined) return this.registers;
    const p = this.indexBits;
    const registers = new Uint8Array(2 ** p);
    for (const entry of this.entries as number[]) {
      const bucket = entry >>> (32 - p);
      registers[bucket] = Math.max(registers[bucket], entryValue(entry, p));
    }
    return registers;
  }
}

/** The dense bucket value of a sparse entry: 1 + the zeros after the top p bits of the hash. */
function entryValue(entry: number, p: number): number {
  const remainingBits = SPARSE_PREFIX_BITS - p;
  const zeros = Math.clz32((entry << p) >>> 0);
  return 1 + (zeros >= remainingBits ? remainingBits + (entry & 63) : zeros);
}

/** Ertl's σ(x) = x + Σ x^(2^k) 2^(k-1), for the share of empty buckets. */
function sigma(x: number): number {
  if (x === 1) return Infinity;
  let y = 1;
  let z = x;
  for (;;) {
    x *= x;
    const previous = z;
    z += x * y;
    y += y;
    if (z === previous) return z;
  }
}

/** Ertl's τ(x), for the share of buckets below the maximum value. */
function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  for (;;) {
    x = Math.sqrt(x);
    const previous = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
    if (z === previous) return z / 3;
  }
}
