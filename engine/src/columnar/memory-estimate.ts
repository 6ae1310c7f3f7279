// What values really cost on V8's heap, for memory accounting: one estimator shared by every
// operator, hash table and cache, so that reservations follow real allocations rather than ad hoc
// numbers. Figures are for 64-bit V8 with pointer compression off (Node's default build).

/** A slot of a JS array (a tagged pointer). */
export const POINTER_BYTES = 8;
/** A heap number, a BigInt of up to 64 bits or another small boxed value: header plus payload. */
export const BOXED_VALUE_BYTES = 24;
/** Header of a sequential string (map, hash, length), before its characters. */
export const STRING_HEADER_BYTES = 16;
/** Header of an Uint8Array with its ArrayBuffer (the object, the buffer and their backing pointers). */
export const TYPED_ARRAY_HEADER_BYTES = 128;
/** Objects are allocated in 8-byte words. */
const WORD_BYTES = 8;

/** The heap bytes of a string (not counting the slot that points to it). */
export function stringBytes(s: string): number {
  return STRING_HEADER_BYTES + alignToWord(s.length * (isLatin1(s) ? 1 : 2));
}

/**
 * Characters outside Latin-1 make V8 store a string with two bytes per character. A loop over char
 * codes: this runs for every string of every page, and a RegExp test costs about three times more.
 */
function isLatin1(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return false;
  return true;
}

/** The heap bytes of a Uint8Array value (varbinary) with its buffer. */
export function binaryBytes(b: Uint8Array): number {
  return TYPED_ARRAY_HEADER_BYTES + alignToWord(b.byteLength);
}

/** A JS array of `length` slots holding boxed values (numbers, BigInts, decimals): slots plus boxes. */
export function boxedArrayBytes(length: number): number {
  return length * (POINTER_BYTES + BOXED_VALUE_BYTES);
}

/** The heap bytes of the strings in `values` plus their array slots. */
export function stringArrayBytes(values: readonly string[]): number {
  let bytes = values.length * POINTER_BYTES;
  for (const s of values) bytes += s === undefined ? 0 : stringBytes(s);
  return bytes;
}

/** How many strings `sampledStringArrayBytes` measures at most. */
const STRING_SAMPLE = 64;

/**
 * stringArrayBytes estimated from at most 64 evenly spaced strings: for bounds that need a size but
 * not an exact one (an output buffer's), at a fraction of the cost on wide pages of long strings.
 */
export function sampledStringArrayBytes(values: readonly string[]): number {
  const n = values.length;
  if (n <= STRING_SAMPLE) return stringArrayBytes(values);
  let sampled = 0;
  for (let i = 0; i < STRING_SAMPLE; i++) {
    const s = values[Math.floor((i * n) / STRING_SAMPLE)];
    sampled += s === undefined ? 0 : stringBytes(s);
  }
  return n * POINTER_BYTES + Math.round((sampled * n) / STRING_SAMPLE);
}

/** The heap bytes of the byte arrays in `values` plus their array slots. */
export function binaryArrayBytes(values: readonly Uint8Array[]): number {
  let bytes = values.length * POINTER_BYTES;
  for (const b of values) bytes += b === undefined ? 0 : binaryBytes(b);
  return bytes;
}

function alignToWord(bytes: number): number {
  return Math.ceil(bytes / WORD_BYTES) * WORD_BYTES;
}
