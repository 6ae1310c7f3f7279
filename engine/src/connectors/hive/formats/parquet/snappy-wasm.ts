// Snappy pages decompressed by hysnappy (the reference decoder compiled to WebAssembly, shipped in
// its package): 2-3x the speed of snappy.ts on DuckDB's lineitem pages. The block's header must
// give the page's size (the decoder then writes exactly that many bytes or fails); its own errors
// become CodecErrors. One instance per thread (the module is loaded per worker).

import { snappyUncompressor } from 'hysnappy';
import { CodecError, checkSnappyLength } from './snappy.js';

let uncompress: ((input: Uint8Array, outputLength: number) => Uint8Array) | undefined;

/** The block's bytes in a new array of `expectedLength` bytes. */
export function wasmSnappyUncompress(input: Uint8Array, expectedLength: number): Uint8Array {
  checkSnappyLength(input, expectedLength);
  uncompress ??= snappyUncompressor();
  try {
    return uncompress(input, expectedLength);
  } catch (e) {
    throw new CodecError(`snappy: ${(e as Error).message}`);
  }
}
