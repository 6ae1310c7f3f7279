// Strings are JS (UTF-16) strings; SQL counts code points. These helpers take the fast path when a
// string has no surrogate pairs, which is the common case.

function hasSurrogates(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The code points of `s` as strings (one or two UTF-16 units each). */
export function codePoints(s: string): string[] {
  return Array.from(s);
}

/** Code points [start, end) of `s` (0-based, clamped). */
export function sliceCodePoints(s: string, start: number, end: number): string {
  if (!hasSurrogates(s)) return s.substring(start, end);
  return codePoints(s).slice(start, end).join('');
}

/** The 0-based code point index of UTF-16 offset `offset` in `s`. */
export function codePointIndexOf(s: string, offset: number): number {
  return hasSurrogates(s) ? codePointLength(s.substring(0, offset)) : offset;
}

/** Java's Character.isWhitespace (all in the BMP), which Trino's trim functions use. */
function isJavaWhitespace(unit: number): boolean {
  return (
    (unit >= 0x09 && unit <= 0x0d) ||
    (unit >= 0x1c && unit <= 0x20) ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x2006) ||
    (unit >= 0x2008 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x205f ||
    unit === 0x3000
  );
}

// Scans rather than /\s+$/-style RegExps, which retry from every whitespace position (quadratic).
export function trimLeadingWhitespace(s: string): string {
  let start = 0;
  while (start < s.length && isJavaWhitespace(s.charCodeAt(start))) start++;
  return s.substring(start);
}
export function trimTrailingWhitespace(s: string): string {
  let end = s.length;
  while (end > 0 && isJavaWhitespace(s.charCodeAt(end - 1))) end--;
  return s.substring(0, end);
}

/** Removes leading code points that are in `chars`. */
export function trimLeadingChars(s: string, chars: ReadonlySet<string>): string {
  const points = codePoints(s);
  let i = 0;
  while (i < points.length && chars.has(points[i])) i++;
  return points.slice(i).join('');
}
export function trimTrailingChars(s: string, chars: ReadonlySet<string>): string {
  const points = codePoints(s);
  let end = points.length;
  while (end > 0 && chars.has(points[end - 1])) end--;
  return points.slice(0, end).join('');
}

/**
 * Case mapping per code point (Java's Character.toUpperCase/toLowerCase, which Trino uses): no
 * special casing, so 'ß' stays 'ß' in upper case instead of becoming 'SS'.
 */
export function mapCase(s: string, upper: boolean): string {
  const mapped = upper ? s.toUpperCase() : s.toLowerCase();
  if (mapped.length === s.length && !hasSurrogates(s)) return mapped;
  let out = '';
  for (const point of s) {
    const m = upper ? point.toUpperCase() : point.toLowerCase();
    out += codePointLength(m) === 1 ? m : point;
  }
  return out;
}
