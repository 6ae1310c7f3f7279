// Buffers a thread reuses from one data page to the next, instead of allocating a page's
// decompressed bytes, definition levels, dictionary indices and plain values (aligned copies of
// fixed-width values, a byte array page's offsets and compacted bytes) each time (workers spent
// 15-20% of their time in GC on those). Safe because a page's decoded parts are placed into the
// column before the next page decodes (column-chunk-decoder.ts decodes a chunk synchronously), and
// only where nothing keeps a view of them: never for dictionary pages, nor for varbinary values
// (views of the page's bytes).

export class PageScratch {
  private byteBuffer = new Uint8Array(0);
  private levelBuffer = new Uint8Array(0);
  private indexBuffer = new Int32Array(0);
  private valueBuffer = new Uint8Array(0);
  private offsetBuffer = new Int32Array(0);

  /** `length` bytes for decompressed data (contents undefined). */
  bytes(length: number): Uint8Array {
    this.byteBuffer = atLeast(this.byteBuffer, length, Uint8Array);
    return this.byteBuffer.subarray(0, length);
  }

  /** `length` definition levels (contents undefined). */
  levels(length: number): Uint8Array {
    this.levelBuffer = atLeast(this.levelBuffer, length, Uint8Array);
    return this.levelBuffer.subarray(0, length);
  }

  /** `length` bytes at the start of their own buffer (typed array views of it are aligned), for a page's values (contents undefined). */
  values(length: number): Uint8Array {
    this.valueBuffer = atLeast(this.valueBuffer, length, Uint8Array);
    return this.valueBuffer.subarray(0, length);
  }

  /** `length` byte array offsets (contents undefined). */
  offsets(length: number): Int32Array {
    this.offsetBuffer = atLeast(this.offsetBuffer, length, Int32Array);
    return this.offsetBuffer.subarray(0, length);
  }

  /** `length` dictionary indices (contents undefined). */
  indices(length: number): Int32Array {
    this.indexBuffer = atLeast(this.indexBuffer, length, Int32Array);
    return this.indexBuffer.subarray(0, length);
  }
}

/** `buffer`, or a larger one when it holds fewer than `length` elements (grown by doubling, at most 1 Mi elements past `length`). */
function atLeast<T extends Uint8Array | Int32Array>(buffer: T, length: number, make: new (length: number) => T): T {
  if (buffer.length >= length) return buffer;
  return new make(Math.max(length, Math.min(buffer.length * 2, length + (1 << 20))));
}

/** This thread's scratch (module state is per worker thread). */
export const threadScratch = new PageScratch();
