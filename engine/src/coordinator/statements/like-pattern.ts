// LIKE patterns of SHOW ... LIKE 'pattern' [ESCAPE 'c'], on the same non-backtracking matcher as SQL LIKE.

import { compileLikePattern } from '../../exec/expression/like-pattern.js';

export function likeMatcher(pattern: string | undefined, escape?: string): (value: string) => boolean {
  return pattern === undefined ? () => true : compileLikePattern(pattern, escape);
}
