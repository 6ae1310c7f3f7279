// A growing byte buffer that JSON text is written into as UTF-8, without building a JS string or
// value per cell: integers digit by digit, strings character by character with JSON.stringify's
// escapes (the two-character forms, \u00XX for other controls, \uDXXX for lone surrogates).

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HEX = '0123456789abcdef';
/** The two-character escapes JSON.stringify writes (the other controls go out as \u00XX). */
const SHORT_ESCAPES: ReadonlyMap<number, number> = new Map([
  [0x08, 0x62], // \b
  [0x09, 0x74], // \t
  [0x0a, 0x6e], // \n
  [0x0c, 0x66], // \f
  [0x0d, 0x72], // \r
  [QUOTE, QUOTE],
  [BACKSLASH, BACKSLASH],
]);
/** The most bytes one UTF-16 code unit can take: `\uXXXX`. */
const MAX_BYTES_PER_UNIT = 6;
/** The most bytes one byte of UTF-8 can take: a control character's `\u00XX`. */
const MAX_BYTES_PER_BYTE = 6;
/** Any code unit other than printable ASCII without the quote and the backslash: a string without one is copied as it is. */
const NOT_PLAIN_ASCII = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;
/** From this length a plain string is checked by a regular expression and copied natively (one call each), faster than unit by unit in JS. */
const NATIVE_COPY_MIN_LENGTH = 24;

export class JsonByteWriter {
  /** Not zero-filled: only bytes [0, length) are written. */
  bytes: Buffer;
  length = 0;

  constructor(initialCapacity: number) {
    this.bytes = Buffer.allocUnsafeSlow(Math.max(64, initialCapacity));
  }

  /** Room for `more` bytes after what is written. */
  ensure(more: number): void {
    const needed = this.length + more;
    if (needed <= this.bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.bytes.length * 2));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  byte(b: number): void {
    this.ensure(1);
    this.bytes[this.length++] = b;
  }

  /** Text known to be printable ASCII without quotes or backslashes (numbers, `null`, `true`). */
  ascii(text: string): void {
    this.ensure(text.length);
    const bytes = this.bytes;
    let at = this.length;
    for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** An integer of at most 2^53 in magnitude, as JSON.stringify writes it. */
  integer(n: number): void {
    if (n < 0) {
      this.byte(0x2d);
      n = -n;
    }
    if (n < 10) {
      this.byte(0x30 + n);
      return;
    }
    let digits = 1;
    for (let bound = 10; bound <= n && digits < 16; bound *= 10) digits++;
    this.ensure(digits);
    const bytes = this.bytes;
    let at = this.length + digits;
    this.length = at;
    while (n >= 10) {
      const q = Math.floor(n / 10);
      bytes[--at] = 0x30 + (n - q * 10);
      n = q;
    }
    bytes[--at] = 0x30 + n;
  }

  /** The `digits` last digits of a non-negative integer below 10^digits, with leading zeros: a decimal's fraction. */
  fraction(n: number, digits: number): void {
    this.ensure(digits);
    const bytes = this.bytes;
    let at = this.length + digits;
    this.length = at;
    for (let i = 0; i < digits; i++) {
      const q = Math.floor(n / 10);
      bytes[--at] = 0x30 + (n - q * 10);
      n = q;
    }
  }

  /** A string as a JSON string literal, byte for byte what JSON.stringify writes, in UTF-8. */
  string(text: string): void {
    this.ensure(text.length * MAX_BYTES_PER_UNIT + 2);
    const bytes = this.bytes;
    let at = this.length;
    bytes[at++] = QUOTE;
    const n = text.length;
    if (n >= NATIVE_COPY_MIN_LENGTH && !NOT_PLAIN_ASCII.test(text)) {
      at += bytes.write(text, at, 'latin1');
      bytes[at++] = QUOTE;
      this.length = at;
      return;
    }
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x20 && c < 0x80 && c !== QUOTE && c !== BACKSLASH) {
        bytes[at++] = c;
      } else if (c < 0x80) {
        bytes[at++] = BACKSLASH;
        const short = SHORT_ESCAPES.get(c);
        if (short !== undefined) bytes[at++] = short;
        else at = writeUnicodeEscape(bytes, at, c);
      } else if (c < 0x800) {
        bytes[at++] = 0xc0 | (c >> 6);
        bytes[at++] = 0x80 | (c & 0x3f);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const point = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          bytes[at++] = 0xf0 | (point >> 18);
          bytes[at++] = 0x80 | ((point >> 12) & 0x3f);
          bytes[at++] = 0x80 | ((point >> 6) & 0x3f);
          bytes[at++] = 0x80 | (point & 0x3f);
          i++;
        } else {
          bytes[at++] = BACKSLASH;
          at = writeUnicodeEscape(bytes, at, c);
        }
      } else {
        bytes[at++] = 0xe0 | (c >> 12);
        bytes[at++] = 0x80 | ((c >> 6) & 0x3f);
        bytes[at++] = 0x80 | (c & 0x3f);
      }
    }
    bytes[at++] = QUOTE;
    this.length = at;
  }

  /**
   * Bytes [start, end) of `source`, the UTF-8 of a well-formed string (utf8-strings.ts), as a JSON
   * string literal: byte for byte what string() writes for that string. `plain`: the bytes hold
   * nothing JSON escapes (quotes, backslashes, controls), so they are copied as they are.
   */
  utf8String(source: Uint8Array, start: number, end: number, plain: boolean): void {
    this.ensure((end - start) * MAX_BYTES_PER_BYTE + 2);
    const bytes = this.bytes;
    let at = this.length;
    bytes[at++] = QUOTE;
    if (plain && end - start >= NATIVE_COPY_MIN_LENGTH) {
      bytes.set(source.subarray(start, end), at);
      at += end - start;
    } else if (plain) {
      for (let i = start; i < end; i++) bytes[at++] = source[i];
    } else {
      // Every byte of a multi-byte character is 0x80 or above: only ASCII bytes are ever escaped.
      for (let i = start; i < end; i++) {
        const c = source[i];
        if (c >= 0x20 && c !== QUOTE && c !== BACKSLASH) {
          bytes[at++] = c;
          continue;
        }
        bytes[at++] = BACKSLASH;
        const short = SHORT_ESCAPES.get(c);
        if (short !== undefined) bytes[at++] = short;
        else at = writeUnicodeEscape(bytes, at, c);
      }
    }
    bytes[at++] = QUOTE;
    this.length = at;
  }

  /** JSON text made elsewhere (a complex value written by stringifyJson), as UTF-8. */
  text(json: string): void {
    this.ensure(json.length * 3);
    this.length += this.bytes.write(json, this.length, 'utf8');
  }
}

/** `uXXXX` (the backslash is written already), in lowercase hex as JSON.stringify writes it. */
function writeUnicodeEscape(bytes: Uint8Array, at: number, c: number): number {
  bytes[at++] = 0x75;
  for (let shift = 12; shift >= 0; shift -= 4) bytes[at++] = HEX.charCodeAt((c >> shift) & 0xf);
  return at;
}
