// (A AND B) OR (A AND C)  ->  A AND (B OR C): conjuncts common to every branch of an OR are
// pulled out, so a join condition repeated in each branch (TPC-H Q19) becomes a hash-join key.

import { BOOLEAN } from '../../../types/types.js';
import { combineConjuncts, extractConjuncts } from '../plan-factory.js';
import { expressionKey, referencedSymbols, special, type RowExpression } from '../row-expression.js';

export function extractCommonPredicates(e: RowExpression): RowExpression[] {
  if (e.kind !== 'special' || e.form !== 'or') return extractConjuncts(e).flatMap((c) => (c === e ? [c] : extractCommonPredicates(c)));
  const branches = extractDisjuncts(e).map((d) => extractConjuncts(d));
  const keysOf = branches.map((b) => new Set(b.map(expressionKey)));
  const common = branches[0].filter((c) => keysOf.every((keys) => keys.has(expressionKey(c))));
  if (common.length === 0) return [e, ...impliedPerSymbolSet(branches)];
  const commonKeys = new Set(common.map(expressionKey));
  const rests = branches.map((b) => b.filter((c) => !commonKeys.has(expressionKey(c))));
  // A branch made only of common conjuncts makes the whole OR true once they hold.
  if (rests.some((r) => r.length === 0)) return common;
  return [...common, special('or', BOOLEAN, ...rests.map((r) => combineConjuncts(r)!))];
}

/**
 * (a = 1 AND b = 2) OR (a = 3 AND b = 4) implies (a = 1 OR a = 3) and (b = 2 OR b = 4): per set of
 * symbols that some conjunct uses, when every branch constrains those symbols alone, the OR of
 * those constraints holds too. Such a predicate over one relation's columns pushes down to it
 * (TPC-H Q7 and Q19 filter nation and part this way); the original OR stays.
 */
function impliedPerSymbolSet(branches: RowExpression[][]): RowExpression[] {
  const refsOf = (c: RowExpression) => [...referencedSymbols(c).keys()].sort((x, y) => x - y);
  const candidates = new Map<string, number[]>();
  for (const branch of branches)
    for (const c of branch) {
      const refs = refsOf(c);
      if (refs.length > 0) candidates.set(refs.join(','), refs);
    }
  const implied: RowExpression[] = [];
  for (const refs of candidates.values()) {
    const within = (c: RowExpression) => refsOf(c).every((id) => refs.includes(id));
    const parts = branches.map((branch) => branch.filter((c) => refsOf(c).length > 0 && within(c)));
    if (parts.some((p) => p.length === 0)) continue;
    implied.push(special('or', BOOLEAN, ...parts.map((p) => combineConjuncts(p)!)));
  }
  return implied;
}

function extractDisjuncts(e: RowExpression): RowExpression[] {
  if (e.kind === 'special' && e.form === 'or') return e.args.flatMap(extractDisjuncts);
  return [e];
}
