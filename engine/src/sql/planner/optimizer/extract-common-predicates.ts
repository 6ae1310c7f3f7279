// (A AND B) OR (A AND C)  ->  A AND (B OR C): conjuncts common to every branch of an OR are
// pulled out, so a join condition repeated in each branch (TPC-H Q19) becomes a hash-join key.

import { BOOLEAN } from '../../../types/types.js';
import { combineConjuncts, extractConjuncts } from '../plan-factory.js';
import { expressionKey, special, type RowExpression } from '../row-expression.js';

export function extractCommonPredicates(e: RowExpression): RowExpression[] {
  if (e.kind !== 'special' || e.form !== 'or') return extractConjuncts(e).flatMap((c) => (c === e ? [c] : extractCommonPredicates(c)));
  const branches = extractDisjuncts(e).map((d) => extractConjuncts(d));
  const keysOf = branches.map((b) => new Set(b.map(expressionKey)));
  const common = branches[0].filter((c) => keysOf.every((keys) => keys.has(expressionKey(c))));
  if (common.length === 0) return [e];
  const commonKeys = new Set(common.map(expressionKey));
  const rests = branches.map((b) => b.filter((c) => !commonKeys.has(expressionKey(c))));
  // A branch made only of common conjuncts makes the whole OR true once they hold.
  if (rests.some((r) => r.length === 0)) return common;
  return [...common, special('or', BOOLEAN, ...rests.map((r) => combineConjuncts(r)!))];
}

function extractDisjuncts(e: RowExpression): RowExpression[] {
  if (e.kind === 'special' && e.form === 'or') return e.args.flatMap(extractDisjuncts);
  return [e];
}
