// String columns as UTF-8 bytes and offsets (Arrow's Utf8 layout), and a column that keeps its rows
// that way until something reads them as JS strings. A page crosses between threads with its string
// columns in this layout (exec/threads/page-transfer.ts): two buffers transferred, where each row's
// JS string used to be cloned. A row that only passes through the receiving thread (a large result
// on its way to the client) then never becomes a string there, and leaves no garbage for its young
// generation to scavenge: the results' JSON is written from the bytes (coordinator/json-rows.ts).

import { isAscii, isUtf8 } from 'node:buffer';
import type { SqlType } from '../types/types.js';
import type { Column, ColumnValues } from './page.js';

/**
 * Rows as UTF-8: row i is bytes [offsets[i], offsets[i + 1]). The bytes are valid UTF-8 and no row
 * starts inside a character (what encoding well-formed JS strings gives), so a row's bytes are
 * exactly the UTF-8 of its string.
 */
export interface Utf8Strings {
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
  /** No row holds a quote, a backslash or a control character: a row's JSON string is its bytes in quotes. */
  readonly jsonPlain: boolean;
}

/** A string column in this layout; `values` are its rows decoded (on first read, then kept). */
export interface Utf8Column extends Column {
  readonly utf8: Utf8Strings;
  /** `values` once something read them (not enumerable either). */
  readonly decoded: string[] | undefined;
}

const utf8Encoder = new TextEncoder();
/** What JSON.stringify escapes in a well-formed string. */
const JSON_ESCAPED = /["\\\x00-\x1f]/;
/** A surrogate without its partner: UTF-8 cannot carry it (TextEncoder writes U+FFFD in its place). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** One UTF-8 buffer and offsets for a string column, encoded as a whole rather than value by value. */
export function encodeStrings(values: readonly string[], length: number): { offsets: Int32Array; bytes: Uint8Array } {
  const { offsets, bytes } = encodeJoined(values, length, joinStrings(values, length));
  return { offsets, bytes };
}

/**
 * The strings in the Utf8Strings layout, or undefined when one of them is not well-formed UTF-16 (a
 * lone surrogate): its JSON (`\ud800`) and its string could not be made from UTF-8 bytes. Also
 * undefined when a row holds no string (a slot left empty, or a column whose strings are elsewhere).
 */
export function wellFormedUtf8(values: readonly string[], length: number): Utf8Strings | undefined {
  if (values.length < length) return undefined;
  for (let i = 0; i < length; i++) if (typeof values[i] !== 'string') return undefined;
  const all = joinStrings(values, length);
  const { offsets, bytes, separately } = encodeJoined(values, length, all);
  if (separately || (bytes.length !== all.length && LONE_SURROGATE.test(all))) return undefined;
  return { offsets, bytes, jsonPlain: !JSON_ESCAPED.test(all) };
}

/**
 * Bytes and offsets read from elsewhere (an Arrow column) as Utf8Strings, when they are what that
 * layout promises: offsets that never go back, valid UTF-8, every row starting at a character.
 * Undefined otherwise: such rows are decoded as strings (decodeStrings), invalid bytes as U+FFFD.
 */
export function checkedUtf8(offsets: Int32Array, bytes: Uint8Array, length: number): Utf8Strings | undefined {
  if (offsets.length < length + 1 || offsets[0] < 0 || offsets[length] > bytes.length) return undefined;
  for (let i = 0; i < length; i++) {
    const from = offsets[i];
    if (offsets[i + 1] < from || (offsets[i + 1] > from && (bytes[from] & 0xc0) === 0x80)) return undefined;
  }
  const rows = bytes.subarray(offsets[0], offsets[length]);
  if (!isUtf8(rows)) return undefined;
  return { offsets, bytes, jsonPlain: !holdsJsonEscaped(rows) };
}

const LOW_BITS = 0x01010101;
const HIGH_BITS = 0x80808080;

/**
 * Whether a byte is a quote, a backslash or a control character, read four bytes at a time (a
 * byte-by-byte loop was most of the decoding of an exchange page's strings): a word has a byte below
 * 0x20 when (w - 0x20202020) & ~w has a high bit set, and a byte equal to c when w ^ (c * 0x01010101) has a zero byte.
 */
function holdsJsonEscaped(bytes: Uint8Array): boolean {
  const head = Math.min(bytes.length, (4 - (bytes.byteOffset & 3)) & 3);
  const words = new Int32Array(bytes.buffer, bytes.byteOffset + head, (bytes.length - head) >> 2);
  for (let i = 0; i < head; i++) if (isJsonEscaped(bytes[i])) return true;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const quote = w ^ (0x22 * LOW_BITS);
    const backslash = w ^ (0x5c * LOW_BITS);
    if ((((w - 0x20 * LOW_BITS) & ~w) | ((quote - LOW_BITS) & ~quote) | ((backslash - LOW_BITS) & ~backslash)) & HIGH_BITS) return true;
  }
  for (let i = head + words.length * 4; i < bytes.length; i++) if (isJsonEscaped(bytes[i])) return true;
  return false;
}

function isJsonEscaped(byte: number): boolean {
  return byte < 0x20 || byte === 0x22 || byte === 0x5c;
}

/** Rows [0, length) with offsets from 0: the same arrays when they already are, else a copy of the offsets and a view of the bytes. */
export function rebasedUtf8(utf8: Utf8Strings, length: number): Utf8Strings {
  const first = utf8.offsets[0];
  const offsets = first === 0 ? utf8.offsets.subarray(0, length + 1) : utf8.offsets.slice(0, length + 1).map((offset) => offset - first);
  return { offsets, bytes: utf8.bytes.subarray(first, utf8.offsets[length]), jsonPlain: utf8.jsonPlain };
}

function joinStrings(values: readonly string[], length: number): string {
  return (length === values.length ? values : values.slice(0, length)).join('');
}

function encodeJoined(
  values: readonly string[],
  length: number,
  all: string,
): { offsets: Int32Array; bytes: Uint8Array; separately: boolean } {
  const offsets = new Int32Array(length + 1);
  const bytes = utf8Encoder.encode(all);
  let total = 0;
  if (bytes.length === all.length) {
    // ASCII (any other UTF-16 unit takes more than one byte): byte offsets are string lengths.
    for (let i = 0; i < length; i++) offsets[i + 1] = total += values[i].length;
    return { offsets, bytes, separately: false };
  }
  for (let i = 0; i < length; i++) offsets[i + 1] = total += utf8Length(values[i]);
  // A lone surrogate at the end of one value and its partner at the start of the next encode as one
  // character when joined: then only value-by-value encoding gives each value its own bytes.
  if (bytes.length === total) return { offsets, bytes, separately: false };
  const separate = new Uint8Array(total);
  for (let i = 0; i < length; i++) utf8Encoder.encodeInto(values[i], separate.subarray(offsets[i], offsets[i + 1]));
  return { offsets, bytes: separate, separately: true };
}

/** The UTF-8 byte length of `text` as TextEncoder writes it (a lone surrogate becomes U+FFFD, 3 bytes). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A string column from one UTF-8 buffer and offsets: the whole column is decoded at once and each
 * value is a substring of it. The UTF-16 length of a value follows from its bytes (one unit per
 * character start, two for a 4-byte character), which holds when the column is valid UTF-8 and no
 * value starts inside a character; otherwise each value is decoded on its own (invalid bytes become U+FFFD).
 */
export function decodeStrings(offsets: Int32Array, bytes: Uint8Array, length: number): string[] {
  const out = new Array<string>(length);
  if (length === 0) return out;
  const start = offsets[0];
  const end = offsets[length];
  const column = bytes.subarray(start, end);
  const buffer = Buffer.from(column.buffer, column.byteOffset, column.byteLength);
  if (isAscii(column)) {
    // Byte offsets are character offsets.
    const all = buffer.toString('latin1');
    for (let i = 0; i < length; i++) out[i] = all.substring(offsets[i] - start, offsets[i + 1] - start);
    return out;
  }
  const all = decodeWhole(column);
  if (all !== undefined) {
    let unit = 0;
    let ok = true;
    for (let i = 0; i < length && ok; i++) {
      const from = offsets[i] - start;
      const to = offsets[i + 1] - start;
      if (from < to && (column[from] & 0xc0) === 0x80) ok = false;
      let units = 0;
      for (let b = from; b < to; b++) {
        const byte = column[b];
        if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
      }
      out[i] = all.substring(unit, unit + units);
      unit += units;
    }
    if (ok) return out;
  }
  for (let i = 0; i < length; i++) out[i] = buffer.toString('utf8', offsets[i] - start, offsets[i + 1] - start);
  return out;
}

/** The column decoded in one go, or undefined when it is not valid UTF-8. */
function decodeWhole(column: Uint8Array): string | undefined {
  try {
    return utf8Decoder.decode(column);
  } catch {
    return undefined;
  }
}

/**
 * A column of `type` holding `utf8` (see Utf8Strings for what its bytes must be). `utf8` is not
 * enumerable: a copy made by spreading (`{ ...column, values }`) drops it, so it never describes
 * rows other than the column's.
 */
export function utf8Column(type: SqlType, length: number, nulls: Uint8Array | null, utf8: Utf8Strings): Utf8Column {
  let strings: string[] | undefined;
  const column = {
    type,
    length,
    nulls,
    get values(): ColumnValues {
      strings ??= decodeStrings(utf8.offsets, utf8.bytes, length);
      return strings;
    },
  };
  Object.defineProperty(column, 'utf8', { value: utf8 });
  Object.defineProperty(column, 'decoded', { get: () => strings });
  return column as Utf8Column;
}

/** The heap bytes a Utf8Column holds: its buffers, and its strings once something read them. */
export function utf8ColumnBytes(column: Utf8Column, stringsBytes: (values: readonly string[]) => number): number {
  const { offsets, bytes } = column.utf8;
  const decoded = column.decoded;
  return offsets.byteLength + bytes.byteLength + (decoded === undefined ? 0 : stringsBytes(decoded));
}
