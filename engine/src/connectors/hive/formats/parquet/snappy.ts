// Snappy's raw block format (Parquet's SNAPPY codec; DuckDB's and Spark's default): a varint of
// the uncompressed length, then literals and back-references. Decoding moves short ones 4 bytes a
// step, and where the block has room, in whole words past their end (as the reference decoder
// does: the bytes after an element are rewritten by the next ones), so most elements (DuckDB's
// pages: 1-3 byte literals, 4-15 byte copies) take two word moves and no byte loop; encoding finds
// 4-byte matches through a hash table, as the reference implementation does.

export class CodecError extends Error {}

/** `into`: where to decompress (exactly the block's length), instead of a new array. */
export function snappyUncompress(input: Uint8Array, expectedLength?: number, into?: Uint8Array): Uint8Array {
  let pos = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (pos >= input.length || shift > 28) throw new CodecError('snappy: bad length header');
    const b = input[pos++];
    length += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) break;
  }
  if (expectedLength !== undefined && length !== expectedLength)
    throw new CodecError(`snappy: block holds ${length} bytes, the page says ${expectedLength}`);
  if (into !== undefined && into.length !== length) throw new CodecError(`snappy: block holds ${length} bytes, its buffer ${into.length}`);
  const out = into ?? new Uint8Array(length);
  // Short literals and copies move 4 bytes at a time through these views (fewer steps than bytes).
  const outWords = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const inWords = new DataView(input.buffer, input.byteOffset, input.byteLength);
  let o = 0;
  while (pos < input.length) {
    const tag = input[pos++];
    const kind = tag & 3;
    if (kind === 0) {
      let n = tag >>> 2;
      if (n >= 60) {
        const bytes = n - 59;
        if (pos + bytes > input.length) throw new CodecError('snappy: truncated literal length');
        n = 0;
        for (let i = 0; i < bytes; i++) n |= input[pos + i] << (8 * i);
        n = n >>> 0;
        pos += bytes;
      }
      n += 1;
      if (pos + n > input.length || o + n > length) throw new CodecError('snappy: literal past the end');
      // Short copies by hand: a native call (and a subarray) per literal costs more than the bytes.
      if (n <= 16 && pos + 16 <= input.length && o + 16 <= length) {
        outWords.setUint32(o, inWords.getUint32(pos, true), true);
        outWords.setUint32(o + 4, inWords.getUint32(pos + 4, true), true);
        if (n > 8) {
          outWords.setUint32(o + 8, inWords.getUint32(pos + 8, true), true);
          outWords.setUint32(o + 12, inWords.getUint32(pos + 12, true), true);
        }
      } else if (n < 32) {
        let i = 0;
        for (; i + 4 <= n; i += 4) outWords.setUint32(o + i, inWords.getUint32(pos + i, true), true);
        for (; i < n; i++) out[o + i] = input[pos + i];
      } else out.set(input.subarray(pos, pos + n), o);
      pos += n;
      o += n;
      continue;
    }
    let n: number;
    let offset: number;
    if (kind === 1) {
      if (pos >= input.length) throw new CodecError('snappy: truncated copy');
      n = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | input[pos++];
    } else if (kind === 2) {
      if (pos + 2 > input.length) throw new CodecError('snappy: truncated copy');
      n = (tag >>> 2) + 1;
      offset = input[pos] | (input[pos + 1] << 8);
      pos += 2;
    } else {
      if (pos + 4 > input.length) throw new CodecError('snappy: truncated copy');
      n = (tag >>> 2) + 1;
      offset = (input[pos] | (input[pos + 1] << 8) | (input[pos + 2] << 16) | (input[pos + 3] << 24)) >>> 0;
      pos += 4;
    }
    if (offset === 0 || offset > o || o + n > length) throw new CodecError('snappy: copy outside the block');
    if (offset >= n && n >= 32) out.copyWithin(o, o - offset, o - offset + n);
    else if (offset >= 4) {
      // Each 4 bytes read were written before (the copy may overlap its source, repeating it).
      const from = o - offset;
      if (n <= 8 && o + 8 <= length) {
        outWords.setUint32(o, outWords.getUint32(from, true), true);
        outWords.setUint32(o + 4, outWords.getUint32(from + 4, true), true);
      } else if (o + n + 3 < length) {
        for (let i = 0; i < n; i += 4) outWords.setUint32(o + i, outWords.getUint32(from + i, true), true);
      } else {
        let i = 0;
        for (; i + 4 <= n; i += 4) outWords.setUint32(o + i, outWords.getUint32(from + i, true), true);
        for (; i < n; i++) out[o + i] = out[from + i];
      }
    } else for (let i = 0; i < n; i++) out[o + i] = out[o - offset + i];
    o += n;
  }
  if (o !== length) throw new CodecError(`snappy: block decoded to ${o} of ${length} bytes`);
  return out;
}

const BLOCK_SIZE = 1 << 16;
const HASH_BITS = 14;

export function snappyCompress(input: Uint8Array): Uint8Array {
  // Worst case: 32 + n + n/6 bytes.
  const out = new Uint8Array(32 + input.length + Math.ceil(input.length / 6));
  let o = 0;
  let n = input.length;
  while (n >= 0x80) {
    out[o++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  out[o++] = n;
  const table = new Int32Array(1 << HASH_BITS);
  for (let blockStart = 0; blockStart < input.length; blockStart += BLOCK_SIZE) {
    const blockEnd = Math.min(input.length, blockStart + BLOCK_SIZE);
    o = compressBlock(input, blockStart, blockEnd, out, o, table);
  }
  return out.subarray(0, o);
}

function load32(b: Uint8Array, i: number): number {
  return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
}

function hash(v: number): number {
  return Math.imul(v, 0x1e35a7bd) >>> (32 - HASH_BITS);
}

function compressBlock(input: Uint8Array, start: number, end: number, out: Uint8Array, o: number, table: Int32Array): number {
  table.fill(-1);
  let literalStart = start;
  let i = start;
  const limit = end - 4;
  let skip = 32;
  while (i < limit) {
    const v = load32(input, i);
    const h = hash(v);
    const candidate = table[h];
    table[h] = i;
    if (candidate < 0 || load32(input, candidate) !== v) {
      i += skip++ >> 5;
      continue;
    }
    skip = 32;
    o = emitLiteral(input, literalStart, i, out, o);
    let length = 4;
    while (i + length < end && input[candidate + length] === input[i + length]) length++;
    o = emitCopy(i - candidate, length, out, o);
    i += length;
    literalStart = i;
    if (i < limit) table[hash(load32(input, i - 1))] = i - 1;
  }
  return emitLiteral(input, literalStart, end, out, o);
}

function emitLiteral(input: Uint8Array, from: number, to: number, out: Uint8Array, o: number): number {
  const n = to - from;
  if (n === 0) return o;
  const m = n - 1;
  if (m < 60) out[o++] = m << 2;
  else if (m < 0x100) {
    out[o++] = 60 << 2;
    out[o++] = m;
  } else if (m < 0x10000) {
    out[o++] = 61 << 2;
    out[o++] = m & 0xff;
    out[o++] = m >>> 8;
  } else {
    out[o++] = 62 << 2;
    out[o++] = m & 0xff;
    out[o++] = (m >>> 8) & 0xff;
    out[o++] = m >>> 16;
  }
  out.set(input.subarray(from, to), o);
  return o + n;
}

function emitCopy(offset: number, length: number, out: Uint8Array, o: number): number {
  let remaining = length;
  while (remaining >= 68) {
    o = emitCopyUpTo64(offset, 64, out, o);
    remaining -= 64;
  }
  if (remaining > 64) {
    o = emitCopyUpTo64(offset, 60, out, o);
    remaining -= 60;
  }
  return emitCopyUpTo64(offset, remaining, out, o);
}

function emitCopyUpTo64(offset: number, length: number, out: Uint8Array, o: number): number {
  if (length < 12 && offset < 2048) {
    out[o++] = 1 | ((length - 4) << 2) | ((offset >>> 8) << 5);
    out[o++] = offset & 0xff;
  } else {
    out[o++] = 2 | ((length - 1) << 2);
    out[o++] = offset & 0xff;
    out[o++] = offset >>> 8;
  }
  return o;
}
