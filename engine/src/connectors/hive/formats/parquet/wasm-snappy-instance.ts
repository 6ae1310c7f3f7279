// Our own instance of hysnappy's WebAssembly decoder, whose output is read in place. The package
// exports only a function that copies each output into a new array; its module (base64 in its
// uncompress.js) and calling convention — input at byte 68000 of the memory (below it the
// decoder's stack and data), the output right after the input, `uncompress(inputStart,
// inputLength, outputStart)` answering 0 or a negative error code — are those of hysnappy 1.1,
// checked here: a package whose file or exports differ gives no instance (callers then use its function).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CodecError } from './snappy.js';

export interface SnappyInstance {
  /** The block's `outputLength` bytes, a view of the decoder's memory valid until its next call. */
  uncompress(input: Uint8Array, outputLength: number): Uint8Array;
}

/** Where hysnappy's decoder reads its input (it uses the memory below for itself). */
const INPUT_START = 68_000;
const WASM_PAGE_BYTES = 64 * 1024;

const ERRORS: Record<number, string> = {
  [-1]: 'invalid snappy length header',
  [-2]: 'missing eof marker',
  [-3]: 'premature end of input',
};

/** The decoder, or null when the installed hysnappy is not laid out as expected. */
export function snappyInstance(): SnappyInstance | null {
  let exports: WebAssembly.Exports;
  try {
    const source = readFileSync(join(dirname(createRequire(import.meta.url).resolve('hysnappy')), 'uncompress.js'), 'utf8');
    const base64 = /const wasm64 = '([A-Za-z0-9+/=]+)'/.exec(source)?.[1];
    if (base64 === undefined) return null;
    exports = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(base64, 'base64'))).exports;
  } catch {
    return null;
  }
  const { memory, uncompress } = exports;
  if (!(memory instanceof WebAssembly.Memory) || typeof uncompress !== 'function') return null;
  const decode = uncompress as (inputStart: number, inputLength: number, outputStart: number) => number;
  return {
    uncompress(input, outputLength) {
      const outputStart = INPUT_START + input.length;
      const needed = outputStart + outputLength;
      if (memory.buffer.byteLength < needed) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / WASM_PAGE_BYTES));
      new Uint8Array(memory.buffer, INPUT_START, input.length).set(input);
      let result: number;
      try {
        result = decode(INPUT_START, input.length, outputStart);
      } catch (e) {
        throw new CodecError(`snappy: ${(e as Error).message}`);
      }
      if (result !== 0) throw new CodecError(`snappy: ${ERRORS[result] ?? `failed to uncompress data ${result}`}`);
      return new Uint8Array(memory.buffer, outputStart, outputLength);
    },
  };
}
