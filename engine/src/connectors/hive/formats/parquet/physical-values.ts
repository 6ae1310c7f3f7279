// The non-null values of one data page (or a dictionary) as their physical type stores them, in
// typed arrays; value-conversion.ts turns them into our column layout. Plain decoding lives here,
// the other encodings in delta.ts.

import { PhysicalType } from './parquet-constants.js';
import type { PageScratch } from './page-scratch.js';
import { ParquetDataError } from './parquet-errors.js';

export type PhysicalValues =
  | { kind: 'boolean'; values: Uint8Array }
  | { kind: 'int32'; values: Int32Array }
  | { kind: 'int64'; values: BigInt64Array }
  /** Three 32-bit words per value: nanoseconds of the day (two words) and the Julian day. */
  | { kind: 'int96'; values: Int32Array }
  | { kind: 'float'; values: Float32Array }
  | { kind: 'double'; values: Float64Array }
  /** Value i is data[offsets[i], offsets[i + 1]). */
  | { kind: 'bytes'; offsets: Int32Array; data: Uint8Array }
  | { kind: 'fixed'; width: number; data: Uint8Array };

export function physicalCount(v: PhysicalValues): number {
  switch (v.kind) {
    case 'bytes':
      return v.offsets.length - 1;
    case 'fixed':
      return v.width === 0 ? 0 : v.data.length / v.width;
    case 'int96':
      return v.values.length / 3;
    default:
      return v.values.length;
  }
}

/**
 * Bytes [start, start + length) copied to an aligned buffer (typed array views need alignment): a
 * fresh one, or the start of `scratch`'s value bytes.
 */
export function alignedCopy(bytes: Uint8Array, start: number, length: number, scratch?: PageScratch): ArrayBufferLike {
  if (start + length > bytes.length) throw new ParquetDataError(`page holds ${bytes.length - start} value bytes, ${length} needed`);
  const copy = scratch?.values(length) ?? new Uint8Array(length);
  copy.set(bytes.subarray(start, start + length));
  return copy.buffer;
}

/** `count` plain-encoded values from bytes[pos, end); `scratch`: in its reused buffers (valid until their next use). */
export function decodePlain(
  physicalType: number,
  typeLength: number,
  bytes: Uint8Array,
  pos: number,
  end: number,
  count: number,
  scratch?: PageScratch,
): PhysicalValues {
  switch (physicalType) {
    case PhysicalType.Boolean: {
      if (pos + Math.ceil(count / 8) > end) throw new ParquetDataError('boolean values past the end of the page');
      const values = new Uint8Array(count);
      for (let i = 0; i < count; i++) values[i] = (bytes[pos + (i >> 3)] >> (i & 7)) & 1;
      return { kind: 'boolean', values };
    }
    case PhysicalType.Int32:
      return { kind: 'int32', values: new Int32Array(alignedCopy(bytes, pos, count * 4, scratch), 0, count) };
    case PhysicalType.Int64:
      return { kind: 'int64', values: new BigInt64Array(alignedCopy(bytes, pos, count * 8, scratch), 0, count) };
    case PhysicalType.Int96:
      return { kind: 'int96', values: new Int32Array(alignedCopy(bytes, pos, count * 12, scratch), 0, count * 3) };
    case PhysicalType.Float:
      return { kind: 'float', values: new Float32Array(alignedCopy(bytes, pos, count * 4, scratch), 0, count) };
    case PhysicalType.Double:
      return { kind: 'double', values: new Float64Array(alignedCopy(bytes, pos, count * 8, scratch), 0, count) };
    case PhysicalType.ByteArray:
      return decodePlainByteArrays(bytes, pos, end, count, scratch);
    case PhysicalType.FixedLenByteArray:
      if (pos + count * typeLength > end) throw new ParquetDataError('fixed-length values past the end of the page');
      return { kind: 'fixed', width: typeLength, data: bytes.subarray(pos, pos + count * typeLength) };
    default:
      throw new ParquetDataError(`unknown physical type ${physicalType}`);
  }
}

/** Length-prefixed values, compacted into one buffer (strings then decode in one go). */
function decodePlainByteArrays(bytes: Uint8Array, pos: number, end: number, count: number, scratch?: PageScratch): PhysicalValues {
  const offsets = scratch?.offsets(count + 1) ?? new Int32Array(count + 1);
  offsets[0] = 0;
  let p = pos;
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (p + 4 > end) throw new ParquetDataError('byte array length past the end of the page');
    const length = (bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16) | (bytes[p + 3] << 24)) >>> 0;
    p += 4 + length;
    if (p > end) throw new ParquetDataError('byte array value past the end of the page');
    total += length;
    offsets[i + 1] = total;
  }
  const data = scratch?.values(total) ?? new Uint8Array(total);
  p = pos;
  for (let i = 0; i < count; i++) {
    const start = offsets[i];
    const length = offsets[i + 1] - start;
    p += 4;
    if (length > 32) data.set(bytes.subarray(p, p + length), start);
    else for (let k = 0; k < length; k++) data[start + k] = bytes[p + k];
    p += length;
  }
  return { kind: 'bytes', offsets, data };
}
