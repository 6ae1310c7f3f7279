// Page decompression for every codec Parquet writers use. gzip and brotli are Node's zlib (native);
// snappy is hysnappy (WebAssembly, snappy-wasm.ts), LZ4 ours (small byte loops); zstd is fzstd
// (pure JS: Node 20's zlib has no zstd).
// LZO, which no current writer uses, fails naming the codec.

import { decompress as zstdDecompress } from 'fzstd';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { CODEC_NAMES, Codec } from './parquet-constants.js';
import { lz4HadoopUncompress, lz4UncompressBlock } from './lz4.js';
import { CodecError } from './snappy.js';
import { wasmSnappyUncompress } from './snappy-wasm.js';
import type { PageScratch } from './page-scratch.js';

export { CodecError };

/** No writer makes pages this large; a header that says so is corrupt (and must not allocate it). */
const MAX_PAGE_BYTES = 1 << 30;

/**
 * `scratch`: decompress into its reused bytes, or (snappy) the decoder's own memory: the result is
 * then valid until the next page of this thread decompresses.
 */
export function decompressPage(codec: number, data: Uint8Array, uncompressedLength: number, scratch?: PageScratch): Uint8Array {
  if (!(uncompressedLength >= 0 && uncompressedLength <= MAX_PAGE_BYTES))
    throw new CodecError(`a page header gives an uncompressed size of ${uncompressedLength} bytes`);
  let out: Uint8Array;
  switch (codec) {
    case Codec.Uncompressed:
      return data;
    case Codec.Snappy:
      return wasmSnappyUncompress(data, uncompressedLength, scratch !== undefined);
    case Codec.Gzip:
      out = zlibCall(() => (data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : inflateSync(data)));
      break;
    case Codec.Brotli:
      out = zlibCall(() => brotliDecompressSync(data));
      break;
    case Codec.Zstd:
      out = zlibCall(() => zstdDecompress(data, scratch?.bytes(uncompressedLength) ?? new Uint8Array(uncompressedLength)));
      break;
    case Codec.Lz4Raw:
      return lz4UncompressBlock(data, uncompressedLength, scratch?.bytes(uncompressedLength));
    case Codec.Lz4:
      return lz4HadoopUncompress(data, uncompressedLength);
    default:
      throw new CodecError(`compression codec ${CODEC_NAMES[codec] ?? codec} is not supported`);
  }
  if (out.length !== uncompressedLength)
    throw new CodecError(`${CODEC_NAMES[codec]}: page decompressed to ${out.length} bytes, its header says ${uncompressedLength}`);
  return out;
}

function zlibCall(f: () => Uint8Array): Uint8Array {
  try {
    return f();
  } catch (e) {
    throw new CodecError(`corrupt compressed page: ${(e as Error).message}`);
  }
}
