// CSV straight from the JSON bytes of a response's rows, for results whose every column prints as the
// JSON value's own text (integral and text types, see format-value.ts): what CsvPrinter prints from
// the parsed rows, without a JavaScript value per cell. Anything else in the bytes (a number in a text
// column, a fraction or an exponent, -0, nested values, a JSON error) gives undefined: the caller
// then parses and prints the rows the general way. A string with escapes is decoded by JSON.parse.

import { isUtf8 } from 'node:buffer';
import { BACKSLASH, CLOSE_BRACKET, COMMA, OPEN_BRACKET, QUOTE, skipString, skipWhitespace } from '../client/json-bytes.js';

/** How a column's values print: integral (numbers, booleans) or text (strings) as the JSON has them. */
export type PlainKind = 'integral' | 'text';

export interface CsvBytes {
  bytes: Uint8Array;
  rows: number;
}

const NEWLINE = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const decoder = new TextDecoder();

/** `data`: a JSON array of rows (`[[...],[...]]`), each with one value per entry of `kinds`. */
export function csvFromJsonRows(data: Uint8Array, kinds: readonly PlainKind[], quoted: boolean): CsvBytes | undefined {
  // The general path decodes invalid UTF-8 to U+FFFD: such bytes are left to it.
  if (kinds.length === 0 || !isUtf8(data)) return undefined;
  const out = new CsvOutput(data.length);
  let rows = 0;
  let at = skipWhitespace(data, 0);
  if (data[at] !== OPEN_BRACKET) return undefined;
  at = skipWhitespace(data, at + 1);
  if (data[at] === CLOSE_BRACKET) return skipWhitespace(data, at + 1) === data.length ? { bytes: out.written(), rows } : undefined;
  for (;;) {
    if (data[at] !== OPEN_BRACKET) return undefined;
    at++;
    for (let c = 0; c < kinds.length; c++) {
      if (c > 0) out.byte(COMMA);
      at = skipWhitespace(data, at);
      const first = data[at];
      if (first === 0x6e) {
        // null: an empty value
        if (!isWord(data, at, 'null')) return undefined;
        at += 4;
        if (quoted) {
          out.byte(QUOTE);
          out.byte(QUOTE);
        }
      } else if (kinds[c] === 'text') {
        if (first !== QUOTE) return undefined;
        at = copyString(data, at, out, quoted);
        if (at < 0) return undefined;
      } else {
        const end = plainScalarEnd(data, at);
        if (end < 0) return undefined;
        if (quoted) out.byte(QUOTE);
        out.copy(data, at, end);
        if (quoted) out.byte(QUOTE);
        at = end;
      }
      at = skipWhitespace(data, at);
      if (data[at] !== (c + 1 < kinds.length ? COMMA : CLOSE_BRACKET)) return undefined;
      at++;
    }
    out.byte(NEWLINE);
    rows++;
    at = skipWhitespace(data, at);
    if (data[at] === COMMA) {
      at = skipWhitespace(data, at + 1);
      continue;
    }
    if (data[at] !== CLOSE_BRACKET || skipWhitespace(data, at + 1) !== data.length) return undefined;
    return { bytes: out.written(), rows };
  }
}

/** The end of an integer as String() prints its value (no sign on zero, no leading zero), or of true or false; else -1. */
function plainScalarEnd(data: Uint8Array, at: number): number {
  if (isWord(data, at, 'true')) return at + 4;
  if (isWord(data, at, 'false')) return at + 5;
  let i = data[at] === MINUS ? at + 1 : at;
  const digits = i;
  while (data[i]! >= ZERO && data[i]! <= NINE) i++;
  if (i === digits || (data[digits] === ZERO && (i - digits > 1 || digits > at))) return -1;
  const next = data[i];
  return next === COMMA || next === CLOSE_BRACKET || next === 0x20 || next === 0x0a || next === 0x0d || next === 0x09 ? i : -1;
}

function isWord(data: Uint8Array, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) if (data[at + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** Copies the string at `at` (its opening quote) as a CSV value; the position after it, or -1 where it is not JSON. */
function copyString(data: Uint8Array, at: number, out: CsvOutput, quoted: boolean): number {
  const bytes = out.bytes;
  let o = out.length;
  if (quoted) bytes[o++] = QUOTE;
  let i = at + 1;
  for (;;) {
    const c = data[i]!;
    if (c === QUOTE) break;
    if (c === BACKSLASH) return copyEscapedString(data, at, out, quoted);
    // A control character is not JSON; the end of the bytes (undefined) is not either.
    if (!(c >= 0x20)) return -1;
    bytes[o++] = c;
    i++;
  }
  if (quoted) bytes[o++] = QUOTE;
  out.length = o;
  return i + 1;
}

function copyEscapedString(data: Uint8Array, at: number, out: CsvOutput, quoted: boolean): number {
  const end = skipString(data, at);
  if (end < 0) return -1;
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(data.subarray(at, end)));
  } catch {
    return -1;
  }
  const text = String(value);
  out.copy(Buffer.from(quoted ? `"${text.replaceAll('"', '""')}"` : text));
  return end;
}

/** The CSV bytes, in a buffer large enough from the start. */
class CsvOutput {
  /**
   * Each cell of at least two bytes (value, separator) becomes at most four (quotes, value,
   * separator); an escaped string's text is never longer in UTF-8 than its escapes.
   */
  readonly bytes: Uint8Array;
  length = 0;

  constructor(jsonBytes: number) {
    this.bytes = Buffer.allocUnsafe(2 * jsonBytes + 16);
  }

  byte(value: number): void {
    this.bytes[this.length++] = value;
  }

  /** `from[start, end)` */
  copy(from: Uint8Array, start = 0, end = from.length): void {
    const bytes = this.bytes;
    let o = this.length;
    for (let i = start; i < end; i++) bytes[o++] = from[i]!;
    this.length = o;
  }

  written(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}
