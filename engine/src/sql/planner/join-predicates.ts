// Join predicates: which conjuncts of a join condition are hash keys (left = right) and which stay a
// residual filter. Planning a join and reordering joins both split conditions this way.

import type { SqlType } from '../../types/types.js';
import type { Assignment, EquiJoinClause } from './plan.js';
import { referencedSymbols, type RowExpression, type Symbol } from './row-expression.js';

export interface EquiSplit {
  criteria: EquiJoinClause[];
  residual: RowExpression[];
  leftAssignments: Assignment[];
  rightAssignments: Assignment[];
}

/** Splits conjuncts into `left = right` hash keys and the residual; non-symbol key sides get projected. */
export function splitEquiConjuncts(
  conjuncts: RowExpression[],
  leftSymbols: readonly Symbol[],
  rightSymbols: readonly Symbol[],
  newSymbol: (name: string, type: SqlType) => Symbol,
): EquiSplit {
  const leftIds = new Set(leftSymbols.map((s) => s.id));
  const rightIds = new Set(rightSymbols.map((s) => s.id));
  const result: EquiSplit = { criteria: [], residual: [], leftAssignments: [], rightAssignments: [] };
  const only = (e: RowExpression, ids: Set<number>) => {
    const refs = [...referencedSymbols(e).keys()];
    return refs.length > 0 && refs.every((id) => ids.has(id));
  };
  const asSymbol = (e: RowExpression, assignments: Assignment[]): Symbol => {
    if (e.kind === 'symbol') return e.symbol;
    const symbol = newSymbol('joinkey', e.type);
    assignments.push({ symbol, expression: e });
    return symbol;
  };
  for (const c of conjuncts) {
    if (c.kind === 'call' && c.name === 'equal') {
      const [a, b] = c.args;
      if (only(a, leftIds) && only(b, rightIds)) {
        result.criteria.push({ left: asSymbol(a, result.leftAssignments), right: asSymbol(b, result.rightAssignments) });
        continue;
      }
      if (only(b, leftIds) && only(a, rightIds)) {
        result.criteria.push({ left: asSymbol(b, result.leftAssignments), right: asSymbol(a, result.rightAssignments) });
        continue;
      }
    }
    result.residual.push(c);
  }
  return result;
}
