// char(n) values, as Trino's Chars keeps them: stored without trailing spaces, so that `=`, hashing,
// GROUP BY and joins compare the stored strings and get the padded semantics for free. They are
// padded back to n code points only where Trino pads them: in results sent to the client, in
// `length`, `substr`, `reverse`, `lpad`, `to_utf8`, LIKE, the left side of a char concatenation and
// a cast to varbinary. A cast to varchar does not pad (char -> varchar yields the unpadded value).

const SPACE = 0x20;

/** Number of code points of `s` (a surrogate pair counts once). */
export function codePointCount(s: string): number {
  let n = s.length;
  for (let i = 0; i + 1 < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The first `length` code points of `s`. */
export function truncateCodePoints(s: string, length: number): string {
  if (s.length <= length) return s;
  let units = 0;
  for (let n = 0; n < length; n++) {
    const c = s.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && units + 1 < s.length ? 2 : 1;
  }
  return s.substring(0, units);
}

/** `s` without its trailing spaces (U+0020 only, as Trino trims char values). */
export function trimTrailingSpaces(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === SPACE) end--;
  return end === s.length ? s : s.substring(0, end);
}

/** A char(n) value padded with spaces to n code points. */
export function padChar(value: string, length: number): string {
  const missing = length - codePointCount(value);
  return missing > 0 ? value + ' '.repeat(missing) : value;
}

/** A text as a char(n) value: its first n code points, without trailing spaces. */
export function toCharValue(text: string, length: number): string {
  return trimTrailingSpaces(truncateCodePoints(text, length));
}

/** Surrogates (U+D800..DFFF) encode code points above U+FFFF, so they sort after U+E000..FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}

/** Code point order at the first of units [0, n) where `a` and `b` differ; 0 when they agree there. */
function compareCommonUnits(a: string, b: string, n: number): number {
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x < 0xd800 && y < 0xd800 ? x - y : codePointRank(x) - codePointRank(y);
  }
  return 0;
}

/** Strings in code point order, which is the order of their UTF-8 bytes (Trino's varchar order). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return compareCommonUnits(a, b, Math.min(a.length, b.length)) || a.length - b.length;
}

/**
 * char values in Trino's order: as if both were padded with spaces to the same length. So 'a' and
 * 'a  ' are equal, and 'a' sorts after 'a' || chr(9) (a space is above a tab).
 */
export function compareChars(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  const common = compareCommonUnits(a, b, n);
  if (common !== 0) return common;
  // One is a prefix of the other: the rest of the longer compares with the shorter's padding.
  const longer = a.length > b.length ? a : b;
  for (let i = n; i < longer.length; i++) {
    const c = longer.charCodeAt(i);
    if (c !== SPACE) return c < SPACE === (longer === a) ? -1 : 1;
  }
  return 0;
}
