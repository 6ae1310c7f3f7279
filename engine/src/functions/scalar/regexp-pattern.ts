// User regular expressions on RE2JS, a JavaScript port of RE2/J (the linear-time engine Trino offers
// as regex-library=RE2J): matching never backtracks, so no pattern and text can hold the event loop
// for longer than O(text length × pattern size). RE2 syntax: no backreferences and no lookaround.

import { RE2JS, RE2JSException } from 're2js';
import { EngineError } from '../../errors/engine-error.js';

const CACHE = new Map<string, RE2JS>();
const MAX_CACHED = 1000;

/** The compiled pattern, cached (bounded); an invalid pattern is INVALID_FUNCTION_ARGUMENT. */
export function compileRegexp(pattern: string): RE2JS {
  let re = CACHE.get(pattern);
  if (re !== undefined) return re;
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    if (!(e instanceof RE2JSException)) throw e;
    throw new EngineError('INVALID_FUNCTION_ARGUMENT', `Invalid regular expression: ${e.message}`);
  }
  if (CACHE.size >= MAX_CACHED) CACHE.clear();
  CACHE.set(pattern, re);
  return re;
}
