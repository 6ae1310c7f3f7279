// SQL LIKE patterns compiled to matchers that never backtrack: % is any sequence, _ any one code
// point (newlines included), the escape character makes the next %, _ or itself literal.
//
// The pattern is split at % into segments of fixed length in code points. The first segment must
// match at the start, the last at the end, and each middle segment at its leftmost position after
// the previous one: a fixed-length segment that starts earliest also ends earliest, so the greedy
// choice never has to be undone. Matching costs at most O(text length × pattern length).

import { EngineError } from '../../errors/engine-error.js';

export type LikeMatcher = (text: string) => boolean;

/** A run of literal code points, or of `count` single-code-point wildcards. */
type Part = { literal: string } | { any: number };
type Segment = readonly Part[];

function invalid(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

/** The %-separated segments of a pattern, each a list of literal and wildcard runs. */
function parseSegments(pattern: string, escape: string | undefined): Segment[] {
  if (escape !== undefined && [...escape].length !== 1) throw invalid('Escape string must be a single character');
  const segments: Part[][] = [[]];
  const current = () => segments[segments.length - 1];
  const addLiteral = (c: string) => {
    const parts = current();
    const last = parts[parts.length - 1];
    if (last !== undefined && 'literal' in last) last.literal += c;
    else parts.push({ literal: c });
  };
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (escape !== undefined && c === escape) {
      const next = chars[i + 1];
      if (next !== '%' && next !== '_' && next !== escape) {
        throw invalid("Escape character must be followed by '%', '_' or the escape character itself");
      }
      addLiteral(next);
      i++;
    } else if (c === '%') {
      if (current().length > 0 || segments.length === 1) segments.push([]);
    } else if (c === '_') {
      const parts = current();
      const last = parts[parts.length - 1];
      if (last !== undefined && 'any' in last) last.any++;
      else parts.push({ any: 1 });
    } else {
      addLiteral(c);
    }
  }
  return segments;
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** True when UTF-16 offset `i` of `text` falls inside a surrogate pair (not a code point boundary). */
function splitsPair(text: string, i: number): boolean {
  return i > 0 && i < text.length && isHigh(text.charCodeAt(i - 1)) && isLow(text.charCodeAt(i));
}

/** The offset `count` code points after `i`, or -1 when the text ends first. */
function skipForward(text: string, i: number, count: number): number {
  for (let k = 0; k < count; k++) {
    if (i >= text.length) return -1;
    i += isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1)) ? 2 : 1;
  }
  return i;
}

/** The offset `count` code points before `i`, or -1 when the text starts first. */
function skipBackward(text: string, i: number, count: number): number {
  for (let k = 0; k < count; k++) {
    if (i <= 0) return -1;
    i -= i >= 2 && isLow(text.charCodeAt(i - 1)) && isHigh(text.charCodeAt(i - 2)) ? 2 : 1;
  }
  return i;
}

/** Where `literal` occurs at code point boundaries of `text` from offset `from` on, or -1. */
function indexOfLiteral(text: string, literal: string, from: number): number {
  for (let i = text.indexOf(literal, from); i !== -1; i = text.indexOf(literal, i + 1)) {
    if (!splitsPair(text, i) && !splitsPair(text, i + literal.length)) return i;
  }
  return -1;
}

/** The end offset of `segment` matched at offset `start` (a code point boundary), or -1. */
function matchAt(text: string, start: number, segment: Segment): number {
  let i = start;
  for (const part of segment) {
    if ('any' in part) {
      i = skipForward(text, i, part.any);
      if (i === -1) return -1;
    } else {
      if (!text.startsWith(part.literal, i) || splitsPair(text, i + part.literal.length)) return -1;
      i += part.literal.length;
    }
  }
  return i;
}

function codePointLength(segment: Segment): number {
  return segment.reduce((n, part) => n + ('any' in part ? part.any : [...part.literal].length), 0);
}

/** The end of the leftmost match of `segment` starting at or after `from` and ending by `limit`, or -1. */
function findLeftmost(text: string, segment: Segment, from: number, limit: number): number {
  const first = segment[0];
  for (let start = from; start <= limit; ) {
    if ('literal' in first) {
      start = indexOfLiteral(text, first.literal, start);
      if (start === -1 || start > limit) return -1;
    }
    const end = matchAt(text, start, segment);
    // fixed-length segments: a later start cannot end earlier
    if (end !== -1) return end <= limit ? end : -1;
    start = skipForward(text, start, 1);
    if (start === -1) return -1;
  }
  return -1;
}

function literalOnly(segment: Segment): string | undefined {
  if (segment.length === 0) return '';
  return segment.length === 1 && 'literal' in segment[0] ? segment[0].literal : undefined;
}

/** Lone surrogates at the edges of a literal need the general path's code point boundary checks. */
function hasEdgeSurrogate(literal: string): boolean {
  return literal !== '' && (isLow(literal.charCodeAt(0)) || isHigh(literal.charCodeAt(literal.length - 1)));
}

/**
 * Specialized matchers for patterns of literals only (exact, `abc%`, `%abc`, `%abc%`, and
 * `head%a%b%tail` such as TPC-H q13's `%special%requests%`), or undefined. A literal without a
 * surrogate at its edges cannot match across a code point boundary, so plain string search does.
 */
function fastPath(segments: readonly Segment[]): LikeMatcher | undefined {
  const literals = segments.map(literalOnly);
  if (literals.some((l) => l === undefined || hasEdgeSurrogate(l))) return undefined;
  const [first, ...rest] = literals as string[];
  if (rest.length === 0) return (text) => text === first;
  if (rest.length === 1 && rest[0] === '') return (text) => text.startsWith(first);
  if (rest.length === 1 && first === '') return (text) => text.endsWith(rest[0]);
  if (rest.length === 2 && first === '' && rest[1] === '') return (text) => text.includes(rest[0]);
  return literalChain(first, rest.slice(0, -1), rest[rest.length - 1]);
}

/** `head%m1%m2%...%tail` over literals: each middle literal at its leftmost place after the one before. */
function literalChain(head: string, middle: readonly string[], tail: string): LikeMatcher {
  return (text) => {
    const tailStart = text.length - tail.length;
    if (tailStart < head.length || !text.startsWith(head) || !text.endsWith(tail)) return false;
    let position = head.length;
    for (let m = 0; m < middle.length; m++) {
      const literal = middle[m];
      const at = text.indexOf(literal, position);
      if (at === -1) return false;
      position = at + literal.length;
      // The leftmost occurrence ends earliest: one that ends inside the tail means none fits.
      if (position > tailStart) return false;
    }
    return true;
  };
}

/** A matcher for a LIKE pattern; throws INVALID_FUNCTION_ARGUMENT for a bad escape. */
export function compileLikePattern(pattern: string, escape?: string): LikeMatcher {
  const segments = parseSegments(pattern, escape);
  const fast = fastPath(segments);
  if (fast !== undefined) return fast;
  if (segments.length === 1) return (text) => matchAt(text, 0, segments[0]) === text.length;
  const head = segments[0];
  const middle = segments.slice(1, -1);
  const tail = segments[segments.length - 1];
  const tailLength = codePointLength(tail);
  return (text) => {
    let position = matchAt(text, 0, head);
    if (position === -1) return false;
    const tailStart = skipBackward(text, text.length, tailLength);
    if (tailStart < position || matchAt(text, tailStart, tail) !== text.length) return false;
    for (const segment of middle) {
      position = findLeftmost(text, segment, position, tailStart);
      if (position === -1) return false;
    }
    return true;
  };
}

const cache = new Map<string, LikeMatcher>();

/** compileLikePattern, cached (bounded) for patterns that vary per row. */
export function cachedLikeMatcher(pattern: string, escape?: string): LikeMatcher {
  const key = escape === undefined ? pattern : `${escape}\u0000${pattern}`;
  let matcher = cache.get(key);
  if (matcher === undefined) {
    matcher = compileLikePattern(pattern, escape);
    if (cache.size >= 1000) cache.clear();
    cache.set(key, matcher);
  }
  return matcher;
}
