// Parquet's delta encodings (DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY) and
// BYTE_STREAM_SPLIT, which version-2 writers (Spark, Arrow with v2 pages) use.

import { Encoding, PhysicalType } from './parquet-constants.js';
import { ParquetDataError } from './parquet-errors.js';
import { alignedCopy, type PhysicalValues } from './physical-values.js';

class Cursor {
  constructor(
    readonly bytes: Uint8Array,
    public pos: number,
    readonly end: number,
  ) {}

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.end) throw new ParquetDataError('delta header past the end of the page');
      const b = this.bytes[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 70n) throw new ParquetDataError('bad varint in delta header');
    }
  }

  smallVarint(): number {
    return Number(this.varint());
  }

  zigzag(): bigint {
    const n = this.varint();
    return (n & 1n) === 0n ? n >> 1n : -((n + 1n) >> 1n);
  }
}

const TWO_POW_32 = 4294967296;

/** `n` (<= 32) bits at bit position `bit`, little-endian, as an unsigned number. */
function readBits(bytes: Uint8Array, bit: number, n: number): number {
  let value = 0;
  let got = 0;
  while (got < n) {
    const offset = bit & 7;
    const take = Math.min(8 - offset, n - got);
    value += ((bytes[bit >> 3] >> offset) & ((1 << take) - 1)) * 2 ** got;
    got += take;
    bit += take;
  }
  return value;
}

/**
 * DELTA_BINARY_PACKED values as 64-bit two's complement word pairs (low, high); INT32 columns use the
 * low words. Arithmetic wraps at 64 bits as the writer's did, in doubles, without a BigInt per value.
 * The cursor ends after the last miniblock used (DELTA_LENGTH_BYTE_ARRAY's bytes follow).
 */
function decodeDeltaBinaryPacked(c: Cursor): Int32Array {
  const blockSize = c.smallVarint();
  const miniblocks = c.smallVarint();
  const total = c.smallVarint();
  const first = BigInt.asUintN(64, c.zigzag());
  if (miniblocks === 0 || blockSize % miniblocks !== 0 || (blockSize / miniblocks) % 8 !== 0)
    throw new ParquetDataError('bad delta block header');
  if (total > 1 << 28) throw new ParquetDataError(`delta header claims ${total} values`);
  const perMiniblock = blockSize / miniblocks;
  const out = new Int32Array(total * 2);
  let lo = Number(first & 0xffffffffn);
  let hi = Number(first >> 32n) | 0;
  let n = 0;
  if (total > 0) {
    out[0] = lo;
    out[1] = hi;
    n = 1;
  }
  while (n < total) {
    const minDelta = BigInt.asUintN(64, c.zigzag());
    const minLo = Number(minDelta & 0xffffffffn);
    const minHi = Number(minDelta >> 32n) | 0;
    if (c.pos + miniblocks > c.end) throw new ParquetDataError('delta block past the end of the page');
    const widths = c.bytes.subarray(c.pos, c.pos + miniblocks);
    c.pos += miniblocks;
    for (let m = 0; m < miniblocks && n < total; m++) {
      const width = widths[m];
      if (width > 64) throw new ParquetDataError('bad delta bit width');
      const bytes = (perMiniblock * width) / 8;
      if (c.pos + bytes > c.end) throw new ParquetDataError('delta miniblock past the end of the page');
      let bit = c.pos * 8;
      const lowBits = Math.min(width, 32);
      for (let i = 0; i < perMiniblock && n < total; i++, n++) {
        const dLo = lowBits === 0 ? 0 : readBits(c.bytes, bit, lowBits);
        const dHi = width > 32 ? readBits(c.bytes, bit + 32, width - 32) : 0;
        bit += width;
        const sum = (lo >>> 0) + minLo + dLo;
        const carry = Math.floor(sum / TWO_POW_32);
        lo = (sum - carry * TWO_POW_32) | 0;
        hi = (hi + minHi + dHi + carry) | 0;
        out[2 * n] = lo;
        out[2 * n + 1] = hi;
      }
      c.pos += bytes;
    }
  }
  return out;
}

/** The low words of decoded pairs (INT32 values, lengths). */
function lowWords(pairs: Int32Array): Int32Array {
  const out = new Int32Array(pairs.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = pairs[2 * i];
  return out;
}

export function decodeEncoded(
  encoding: number,
  physicalType: number,
  typeLength: number,
  bytes: Uint8Array,
  pos: number,
  end: number,
  count: number,
): PhysicalValues {
  switch (encoding) {
    case Encoding.DeltaBinaryPacked: {
      const pairs = decodeDeltaBinaryPacked(new Cursor(bytes, pos, end));
      if (pairs.length < count * 2) throw new ParquetDataError(`delta data holds ${pairs.length / 2} of ${count} values`);
      if (physicalType === PhysicalType.Int32) return { kind: 'int32', values: lowWords(pairs.subarray(0, count * 2)) };
      if (physicalType === PhysicalType.Int64) return { kind: 'int64', values: new BigInt64Array(pairs.buffer, 0, count) };
      break;
    }
    case Encoding.DeltaLengthByteArray:
      if (physicalType === PhysicalType.ByteArray) return deltaLengthByteArrays(new Cursor(bytes, pos, end), count);
      break;
    case Encoding.DeltaByteArray:
      if (physicalType === PhysicalType.ByteArray || physicalType === PhysicalType.FixedLenByteArray)
        return deltaByteArrays(new Cursor(bytes, pos, end), count, physicalType, typeLength);
      break;
    case Encoding.ByteStreamSplit:
      return byteStreamSplit(physicalType, typeLength, bytes, pos, end, count);
  }
  throw new ParquetDataError(`encoding ${encoding} is not valid for physical type ${physicalType}`);
}

function deltaLengthByteArrays(c: Cursor, count: number): PhysicalValues & { kind: 'bytes' } {
  const lengths = lowWords(decodeDeltaBinaryPacked(c));
  if (lengths.length < count) throw new ParquetDataError('delta lengths fewer than the values');
  const offsets = new Int32Array(count + 1);
  for (let i = 0; i < count; i++) {
    const length = lengths[i];
    if (length < 0) throw new ParquetDataError('negative byte array length');
    offsets[i + 1] = offsets[i] + length;
  }
  if (c.pos + offsets[count] > c.end) throw new ParquetDataError('byte array values past the end of the page');
  const data = c.bytes.slice(c.pos, c.pos + offsets[count]);
  c.pos += offsets[count];
  return { kind: 'bytes', offsets, data };
}

function deltaByteArrays(c: Cursor, count: number, physicalType: number, typeLength: number): PhysicalValues {
  const prefixes = lowWords(decodeDeltaBinaryPacked(c));
  const suffixes = deltaLengthByteArrays(c, count);
  if (prefixes.length < count) throw new ParquetDataError('delta prefixes fewer than the values');
  const offsets = new Int32Array(count + 1);
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (prefixes[i] < 0) throw new ParquetDataError('negative delta prefix length');
    total += prefixes[i] + suffixes.offsets[i + 1] - suffixes.offsets[i];
    offsets[i + 1] = total;
  }
  const data = new Uint8Array(total);
  for (let i = 0; i < count; i++) {
    const prefix = prefixes[i];
    const at = offsets[i];
    if (prefix > 0) {
      if (i === 0 || prefix > offsets[i] - offsets[i - 1]) throw new ParquetDataError('delta prefix longer than the previous value');
      data.copyWithin(at, offsets[i - 1], offsets[i - 1] + prefix);
    }
    data.set(suffixes.data.subarray(suffixes.offsets[i], suffixes.offsets[i + 1]), at + prefix);
  }
  if (physicalType === PhysicalType.FixedLenByteArray) {
    if (total !== count * typeLength) throw new ParquetDataError('fixed-length values of the wrong length');
    return { kind: 'fixed', width: typeLength, data };
  }
  return { kind: 'bytes', offsets, data };
}

function byteStreamSplit(
  physicalType: number,
  typeLength: number,
  bytes: Uint8Array,
  pos: number,
  end: number,
  count: number,
): PhysicalValues {
  const width =
    physicalType === PhysicalType.Float || physicalType === PhysicalType.Int32
      ? 4
      : physicalType === PhysicalType.Double || physicalType === PhysicalType.Int64
        ? 8
        : physicalType === PhysicalType.FixedLenByteArray
          ? typeLength
          : 0;
  if (width === 0) throw new ParquetDataError(`BYTE_STREAM_SPLIT is not valid for physical type ${physicalType}`);
  if (pos + width * count > end) throw new ParquetDataError('byte stream split values past the end of the page');
  const joined = new Uint8Array(width * count);
  for (let s = 0; s < width; s++) {
    const stream = pos + s * count;
    for (let i = 0; i < count; i++) joined[i * width + s] = bytes[stream + i];
  }
  switch (physicalType) {
    case PhysicalType.Float:
      return { kind: 'float', values: new Float32Array(joined.buffer) };
    case PhysicalType.Double:
      return { kind: 'double', values: new Float64Array(joined.buffer) };
    case PhysicalType.Int32:
      return { kind: 'int32', values: new Int32Array(joined.buffer) };
    case PhysicalType.Int64:
      return { kind: 'int64', values: new BigInt64Array(alignedCopy(joined, 0, joined.length)) };
    default:
      return { kind: 'fixed', width, data: joined };
  }
}
