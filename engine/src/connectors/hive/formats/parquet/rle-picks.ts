// Some values of an RLE / bit-packing hybrid (rle.ts) without decoding the others: a page's dictionary
// indices when only a few of its rows are wanted (a filter on another column kept few rows). The
// runs are walked by their headers; a bit-packed value is read straight from its bit offset.

import { ParquetDataError } from './parquet-errors.js';

/**
 * out[p] = the value at position p = rows[j] - first, for j in [from, to) (positions ascending, below
 * `count`), of the `count` values of `bitWidth` bits encoded in bytes[start, end); out's other
 * entries are left as they were.
 */
export function pickRleHybrid(
  bytes: Uint8Array,
  start: number,
  end: number,
  bitWidth: number,
  count: number,
  picks: { rows: Int32Array; from: number; to: number; first: number },
  out: Int32Array,
): void {
  const { rows, from, to, first } = picks;
  if (bitWidth > 32) throw new ParquetDataError(`bit width ${bitWidth} past 32`);
  const valueBytes = (bitWidth + 7) >> 3;
  let pos = start;
  let n = 0; // the position of the run's first value
  let j = from;
  while (j < to) {
    if (n >= count || pos >= end) throw new ParquetDataError(`RLE data ends after ${n} of ${count} values`);
    let header = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[pos++];
      header += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) break;
      shift += 7;
      if (pos >= end || shift > 35) throw new ParquetDataError('bad RLE run header');
    }
    if ((header & 1) === 1) {
      const groups = Math.floor(header / 2);
      const take = Math.min(groups * 8, count - n);
      const byteLength = groups * bitWidth;
      if (Math.ceil((take * bitWidth) / 8) > Math.min(byteLength, end - pos))
        throw new ParquetDataError('bit-packed run past the end of the data');
      const runEnd = n + take;
      for (; j < to; j++) {
        const at = rows[j] - first;
        if (at >= runEnd) break;
        out[at] = bitsAt(bytes, pos * 8 + (at - n) * bitWidth, bitWidth);
      }
      pos += byteLength;
      n = runEnd;
    } else {
      if (pos + valueBytes > end) throw new ParquetDataError('RLE run past the end of the data');
      let value = 0;
      for (let i = 0; i < valueBytes; i++) value += bytes[pos + i] * 2 ** (8 * i);
      pos += valueBytes;
      const runEnd = n + Math.min(Math.floor(header / 2), count - n);
      for (; j < to && rows[j] - first < runEnd; j++) out[rows[j] - first] = value | 0;
      n = runEnd;
    }
  }
}

/** The `bitWidth` bits (LSB first) at bit offset `bit` (whose bytes the caller checked are there). */
function bitsAt(bytes: Uint8Array, bit: number, bitWidth: number): number {
  const byte = bit >>> 3;
  const shift = bit & 7;
  if (bitWidth + shift <= 32 && byte + 3 < bytes.length) {
    const word = bytes[byte] | (bytes[byte + 1] << 8) | (bytes[byte + 2] << 16) | (bytes[byte + 3] << 24);
    return bitWidth === 32 ? word : (word >>> shift) & ((1 << bitWidth) - 1);
  }
  // Near the end of the buffer, or 26 to 32 bits shifted past a word: byte by byte, as a double.
  let value = 0;
  for (let b = 0, scale = 1; b * 8 < shift + bitWidth; b++, scale *= 256) value += (bytes[byte + b] ?? 0) * scale;
  return (Math.floor(value / 2 ** shift) % 2 ** bitWidth) | 0;
}
