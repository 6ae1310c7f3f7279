// The RLE / bit-packing hybrid (definition levels, dictionary indices, RLE booleans) and plain
// bit-packing, decoded into typed arrays and encoded for the writer.

import { ParquetDataError } from './parquet-errors.js';

/**
 * Decodes `count` values of `bitWidth` bits from bytes[start, end) into out[0, count). Runs may
 * hold more values than asked for (the last bit-packed group is padded to 8).
 */
export function decodeRleHybrid(
  bytes: Uint8Array,
  start: number,
  end: number,
  bitWidth: number,
  count: number,
  out: Int32Array | Uint8Array,
): number {
  let pos = start;
  let n = 0;
  const valueBytes = (bitWidth + 7) >> 3;
  // One view for all the bit-packed runs (a page may hold many short ones).
  let words: DataView | undefined;
  while (n < count) {
    if (pos >= end) throw new ParquetDataError(`RLE data ends after ${n} of ${count} values`);
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
      const values = Math.floor(header / 2) * 8;
      const take = Math.min(values, count - n);
      const byteLength = Math.floor(header / 2) * bitWidth;
      const available = Math.min(byteLength, end - pos);
      if (Math.ceil((take * bitWidth) / 8) > available) throw new ParquetDataError('bit-packed run past the end of the data');
      words ??= new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      unpackBits(bytes, pos, bitWidth, take, out, n, words);
      pos += byteLength;
      n += take;
    } else {
      const run = Math.floor(header / 2);
      if (pos + valueBytes > end) throw new ParquetDataError('RLE run past the end of the data');
      let value = 0;
      for (let i = 0; i < valueBytes; i++) value += bytes[pos + i] * 2 ** (8 * i);
      pos += valueBytes;
      const take = Math.min(run, count - n);
      out.fill(value | 0, n, n + take);
      n += take;
    }
  }
  return pos;
}

/** Little-endian bit-packed values (LSB first), as Parquet packs them; `words`: a DataView of `bytes` (made here when not given). */
export function unpackBits(
  bytes: Uint8Array,
  pos: number,
  bitWidth: number,
  count: number,
  out: Int32Array | Uint8Array,
  at: number,
  words?: DataView,
): void {
  if (bitWidth === 0) {
    out.fill(0, at, at + count);
    return;
  }
  if (bitWidth > 24) {
    unpackWide(bytes, pos, bitWidth, count, out, at);
    return;
  }
  const mask = (1 << bitWidth) - 1;
  const end = at + count;
  // Each value from the 4 bytes that hold its first bit (up to 24 bits shifted by up to 7 fit in 31),
  // read as one little-endian word: no branch per value. The last values, whose 4 bytes would pass
  // the end, take the loop below.
  const whole = Math.min(end, at + Math.max(0, Math.floor(((bytes.length - 4 - pos) * 8) / bitWidth) + 1));
  let bit = pos * 8;
  let i = at;
  if (i < whole) {
    const view = words ?? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (; i < whole; i++) {
      out[i] = (view.getUint32(bit >>> 3, true) >>> (bit & 7)) & mask;
      bit += bitWidth;
    }
  }
  let p = bit >>> 3;
  let buffer = 0;
  let bits = 0;
  if ((bit & 7) !== 0 && i < end) {
    buffer = bytes[p++] >>> (bit & 7);
    bits = 8 - (bit & 7);
  }
  for (; i < end; i++) {
    while (bits < bitWidth) {
      buffer |= bytes[p++] << bits;
      bits += 8;
    }
    out[i] = buffer & mask;
    buffer >>>= bitWidth;
    bits -= bitWidth;
  }
}

function unpackWide(bytes: Uint8Array, pos: number, bitWidth: number, count: number, out: Int32Array | Uint8Array, at: number): void {
  for (let i = 0; i < count; i++) {
    let bit = (pos << 3) + i * bitWidth;
    let value = 0;
    for (let b = 0; b < bitWidth; b++, bit++) if ((bytes[bit >> 3] >> (bit & 7)) & 1) value += 2 ** b;
    out[at + i] = value | 0;
  }
}

/** Bits needed for values up to `max`. */
export function bitWidthOf(max: number): number {
  let width = 0;
  while (max >= 2 ** width) width++;
  return width;
}

/** Encodes values as the hybrid: RLE runs for repeats of 8 or more, bit-packed groups of 8 for the rest. */
export function encodeRleHybrid(values: ArrayLike<number>, count: number, bitWidth: number): Uint8Array {
  const out = new ByteSink(Math.ceil((count * bitWidth) / 8) + 16);
  const valueBytes = (bitWidth + 7) >> 3;
  let pending = 0; // values [pending, i) wait to be bit-packed
  let i = 0;
  while (i < count) {
    const v = values[i];
    let run = 1;
    while (i + run < count && values[i + run] === v) run++;
    if (run < 8) {
      i += run;
      continue;
    }
    // Fill the pending values' last group of 8 from the run, then emit what is left of it as a run.
    const fill = (8 - ((i - pending) & 7)) & 7;
    const rest = run - fill;
    if (rest < 8) {
      i += run;
      continue;
    }
    if (i + fill > pending) packGroups(values, pending, i + fill, bitWidth, out);
    out.varint(rest * 2);
    for (let b = 0; b < valueBytes; b++) out.byte((v >>> (8 * b)) & 0xff);
    i += run;
    pending = i;
  }
  if (count > pending) packGroups(values, pending, count, bitWidth, out);
  return out.toBytes();
}

/** Values [from, to) bit-packed in groups of 8 (the last padded with zeros) under one header. */
function packGroups(values: ArrayLike<number>, from: number, to: number, bitWidth: number, out: ByteSink): void {
  const groups = Math.ceil((to - from) / 8);
  out.varint(groups * 2 + 1);
  const slots = groups * 8;
  out.ensure(groups * bitWidth);
  if (bitWidth > 24) {
    let buffer = 0;
    let bits = 0;
    for (let k = 0; k < slots; k++) {
      buffer += (from + k < to ? values[from + k] >>> 0 : 0) * 2 ** bits;
      bits += bitWidth;
      while (bits >= 8) {
        out.byte(buffer % 256);
        buffer = Math.floor(buffer / 256);
        bits -= 8;
      }
    }
    return;
  }
  let buffer = 0;
  let bits = 0;
  for (let k = 0; k < slots; k++) {
    buffer |= (from + k < to ? values[from + k] : 0) << bits;
    bits += bitWidth;
    while (bits >= 8) {
      out.byte(buffer & 0xff);
      buffer >>>= 8;
      bits -= 8;
    }
  }
}

/** A growing byte buffer. */
export class ByteSink {
  private buffer: Uint8Array;
  length = 0;

  constructor(capacity = 1024) {
    this.buffer = new Uint8Array(Math.max(16, capacity));
  }

  byte(b: number): void {
    if (this.length === this.buffer.length) this.grow(1);
    this.buffer[this.length++] = b;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buffer.set(b, this.length);
    this.length += b.length;
  }

  varint(value: number): void {
    let v = value;
    while (v >= 128) {
      this.byte((v % 128) | 0x80);
      v = Math.floor(v / 128);
    }
    this.byte(v);
  }

  int32(v: number): void {
    this.ensure(4);
    const b = this.buffer;
    const o = this.length;
    b[o] = v & 0xff;
    b[o + 1] = (v >>> 8) & 0xff;
    b[o + 2] = (v >>> 16) & 0xff;
    b[o + 3] = (v >>> 24) & 0xff;
    this.length += 4;
  }

  ensure(n: number): void {
    if (this.length + n > this.buffer.length) this.grow(n);
  }

  toBytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  private grow(n: number): void {
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
}
