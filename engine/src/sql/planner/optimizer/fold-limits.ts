// What constant folding may evaluate. Folding runs while a query is planned, in one synchronous
// step that nothing interrupts, so it takes only calls whose result stays small; a bigger one is
// left in the plan to run at execution time, with the query's memory accounting and cancellation.

import type { Scalar } from '../../../types/scalar.js';
import type { Call } from '../row-expression.js';

/** Longest string (UTF-16 units) or byte string a folded constant may hold. */
export const MAX_FOLDED_LENGTH = 64 * 1024;

/**
 * Functions one plan's folding may compile: one per shape of call (a tenth of a millisecond or
 * more each), so a statement of thousands of differently shaped constant expressions would hold
 * the loop for seconds; past this many, the rest are left to execution.
 */
export const MAX_FOLDED_COMPILATIONS = 256;

/**
 * Upper bounds of the result length of the functions whose result can be far longer than their
 * arguments; every other function's result is at most about as long as its arguments together,
 * which folding already bounds.
 */
const RESULT_LENGTH_BOUNDS: Record<string, (args: readonly Scalar[]) => number> = {
  lpad: (args) => Number(args[1] ?? 0) * 2,
  rpad: (args) => Number(args[1] ?? 0) * 2,
  // An empty search string puts the replacement between every two characters.
  replace: (args) => lengthOf(args[0]) + lengthOf(args[2]) * (lengthOf(args[0]) + 1),
  // Each match is replaced by the replacement, whose group references are at most the match.
  regexp_replace: (args) => lengthOf(args[0]) + lengthOf(args[2]) * (2 * lengthOf(args[0]) + 1),
};

/** Whether `call` over these constant arguments is known to give a result too long to fold, before evaluating it. */
export function resultTooLongToFold(call: Call, args: readonly Scalar[]): boolean {
  const bound = RESULT_LENGTH_BOUNDS[call.name];
  return bound !== undefined && bound(args) > MAX_FOLDED_LENGTH;
}

export function smallEnoughToFold(value: Scalar): boolean {
  return lengthOf(value) <= MAX_FOLDED_LENGTH;
}

function lengthOf(value: Scalar): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof Uint8Array) return value.byteLength;
  return 0;
}
