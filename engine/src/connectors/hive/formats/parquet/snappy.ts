// Snappy's raw block format (Parquet's SNAPPY codec; DuckDB's and Spark's default): a varint of
// the uncompressed length, then literals and back-references. Pages decompress through hysnappy
// (snappy-wasm.ts) after the length check here; encoding finds 4-byte matches through a hash
// table, as the reference implementation does.

export class CodecError extends Error {}

/** The block's uncompressed length (its varint header). */
function blockLength(input: Uint8Array): number {
  let pos = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (pos >= input.length || shift > 28) throw new CodecError('snappy: bad length header');
    const b = input[pos++];
    length += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return length;
  }
}

/** Throws unless the block's header gives `expectedLength` bytes (the page header's size). */
export function checkSnappyLength(input: Uint8Array, expectedLength: number): void {
  const length = blockLength(input);
  if (length !== expectedLength) throw new CodecError(`snappy: block holds ${length} bytes, the page says ${expectedLength}`);
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
