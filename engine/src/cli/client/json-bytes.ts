// Walking JSON text as UTF-8 bytes without decoding it: skip whitespace, a string, or a whole value.
// For the CLI's large results (response-data.ts, csv-from-json.ts): each returns the index after what
// it skipped, or -1 where the text ends first or is not JSON there (the caller then leaves the text to
// the exact parser, which says what is wrong).

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;

export function skipWhitespace(bytes: Uint8Array, at: number): number {
  // Servers write no whitespace between values: the common case returns at once.
  if (bytes[at]! > 0x20) return at;
  let i = at;
  for (;;) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** `at` is a string's opening quote. */
export function skipString(bytes: Uint8Array, at: number): number {
  let quote = bytes.indexOf(QUOTE, at + 1);
  for (;;) {
    if (quote < 0) return -1;
    // The quote ends the string unless an odd number of backslashes escapes it.
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = bytes.indexOf(QUOTE, quote + 1);
  }
}

/** A string, an array or object (with everything in it), or a scalar (number, true, false, null). */
export function skipValue(bytes: Uint8Array, at: number): number {
  const end = bytes.length;
  const first = bytes[at];
  if (first === QUOTE) return skipString(bytes, at);
  if (first === OPEN_BRACKET || first === OPEN_BRACE) {
    let depth = 0;
    let i = at;
    while (i < end) {
      const c = bytes[i];
      if (c === QUOTE) {
        i = skipString(bytes, i);
        if (i < 0) return -1;
        continue;
      }
      if (c === OPEN_BRACKET || c === OPEN_BRACE) depth++;
      else if ((c === CLOSE_BRACKET || c === CLOSE_BRACE) && --depth === 0) return i + 1;
      i++;
    }
    return -1;
  }
  let i = at;
  while (i < end) {
    const c = bytes[i];
    if (c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) break;
    i++;
  }
  return i === at ? -1 : i;
}
