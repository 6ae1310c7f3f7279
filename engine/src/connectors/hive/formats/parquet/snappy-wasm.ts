// Snappy pages decompressed by hysnappy (the reference decoder compiled to WebAssembly, shipped in
// its package): 2-3x the speed of snappy.ts on DuckDB's lineitem pages. The block's header must
// give the page's size (the decoder then writes exactly that many bytes or fails); its own errors
// become CodecErrors. One instance per thread (the module is loaded per worker).
//
// hysnappy's function copies every page out of its memory into a new array (a megabyte per page of
// DuckDB's lineitem: allocation and garbage collection cost more than the copy). So a page decoded
// straight away (`scratch`, valid until the next page) is read where the decoder wrote it, through
// our own instance of the same WebAssembly module (wasm-snappy-instance.ts); without that instance
// (a hysnappy whose layout changed), pages take hysnappy's function.

import { snappyUncompressor } from 'hysnappy';
import { CodecError, checkSnappyLength } from './snappy.js';
import { snappyInstance, type SnappyInstance } from './wasm-snappy-instance.js';

let uncompress: ((input: Uint8Array, outputLength: number) => Uint8Array) | undefined;
let instance: SnappyInstance | null | undefined;

/**
 * The block's `expectedLength` bytes: a new array, or with `inPlace` a view of the decoder's memory
 * that the next snappy page of this thread overwrites.
 */
export function wasmSnappyUncompress(input: Uint8Array, expectedLength: number, inPlace = false): Uint8Array {
  checkSnappyLength(input, expectedLength);
  if (inPlace) {
    instance ??= snappyInstance();
    if (instance !== null) return instance.uncompress(input, expectedLength);
  }
  uncompress ??= snappyUncompressor();
  try {
    return uncompress(input, expectedLength);
  } catch (e) {
    throw new CodecError(`snappy: ${(e as Error).message}`);
  }
}
