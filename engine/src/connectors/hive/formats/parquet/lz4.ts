// LZ4 block decoding: Parquet's LZ4_RAW codec (DuckDB's `lz4`), and the Hadoop framing the
// deprecated LZ4 codec used (a big-endian uncompressed and compressed length before each block).

import { CodecError } from './snappy.js';

/** Decodes one raw LZ4 block of `outputLength` bytes. */
export function lz4UncompressBlock(input: Uint8Array, outputLength: number, into?: Uint8Array): Uint8Array {
  const out = into ?? new Uint8Array(outputLength);
  const written = lz4DecodeInto(input, 0, input.length, out, 0);
  if (written !== outputLength) throw new CodecError(`lz4: block decoded to ${written} of ${outputLength} bytes`);
  return out;
}

/** Decodes input[start, end) into out from `o`; returns the end offset in out. */
function lz4DecodeInto(input: Uint8Array, start: number, end: number, out: Uint8Array, o: number): number {
  let pos = start;
  while (pos < end) {
    const token = input[pos++];
    let literals = token >>> 4;
    if (literals === 15) {
      let b: number;
      do {
        if (pos >= end) throw new CodecError('lz4: truncated literal length');
        b = input[pos++];
        literals += b;
      } while (b === 255);
    }
    if (pos + literals > end || o + literals > out.length) throw new CodecError('lz4: literal past the end');
    out.set(input.subarray(pos, pos + literals), o);
    pos += literals;
    o += literals;
    if (pos >= end) break; // The last sequence has literals only.
    if (pos + 2 > end) throw new CodecError('lz4: truncated match offset');
    const offset = input[pos] | (input[pos + 1] << 8);
    pos += 2;
    let length = (token & 15) + 4;
    if ((token & 15) === 15) {
      let b: number;
      do {
        if (pos >= end) throw new CodecError('lz4: truncated match length');
        b = input[pos++];
        length += b;
      } while (b === 255);
    }
    if (offset === 0 || offset > o || o + length > out.length) throw new CodecError('lz4: match outside the block');
    if (offset >= length) out.copyWithin(o, o - offset, o - offset + length);
    else for (let i = 0; i < length; i++) out[o + i] = out[o - offset + i];
    o += length;
  }
  return o;
}

/** The deprecated LZ4 codec: Hadoop's framing around raw blocks, or (as some writers did) one raw block. */
export function lz4HadoopUncompress(input: Uint8Array, outputLength: number): Uint8Array {
  const out = new Uint8Array(outputLength);
  try {
    let pos = 0;
    let o = 0;
    while (pos + 8 <= input.length && o < outputLength) {
      const view = new DataView(input.buffer, input.byteOffset + pos, 8);
      const blockOut = view.getUint32(0);
      const blockIn = view.getUint32(4);
      pos += 8;
      if (pos + blockIn > input.length || o + blockOut > outputLength) throw new CodecError('lz4: bad Hadoop frame');
      const end = lz4DecodeInto(input, pos, pos + blockIn, out, o);
      if (end !== o + blockOut) throw new CodecError('lz4: bad Hadoop frame');
      pos += blockIn;
      o = end;
    }
    if (o === outputLength && pos === input.length) return out;
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
  }
  return lz4UncompressBlock(input, outputLength);
}
