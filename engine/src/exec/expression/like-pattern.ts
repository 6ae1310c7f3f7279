// SQL LIKE patterns as anchored RegExps: % is any sequence, _ any one character, the escape
// character makes the next %, _ or itself literal. Matching is over code points and across newlines.

import { EngineError } from '../../errors/engine-error.js';

const REGEXP_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

function invalid(message: string): EngineError {
  return new EngineError('INVALID_FUNCTION_ARGUMENT', message);
}

export function likePatternToRegExp(pattern: string, escape?: string): RegExp {
  if (escape !== undefined && [...escape].length !== 1) throw invalid('Escape string must be a single character');
  let source = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (escape !== undefined && c === escape) {
      const next = chars[i + 1];
      if (next !== '%' && next !== '_' && next !== escape) {
        throw invalid("Escape character must be followed by '%', '_' or the escape character itself");
      }
      source += next.replace(REGEXP_SPECIAL, '\\$&');
      i++;
    } else if (c === '%') {
      source += '.*';
    } else if (c === '_') {
      source += '.';
    } else {
      source += c.replace(REGEXP_SPECIAL, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, 'su');
}

const cache = new Map<string, RegExp>();

/** likePatternToRegExp, cached for patterns that vary per row. */
export function cachedLikeRegExp(pattern: string, escape?: string): RegExp {
  const key = escape === undefined ? pattern : `${escape}\u0000${pattern}`;
  let re = cache.get(key);
  if (re === undefined) {
    re = likePatternToRegExp(pattern, escape);
    if (cache.size >= 1000) cache.clear();
    cache.set(key, re);
  }
  return re;
}
