// Whether a filter's conjunct drops every row whose given symbols are all NULL: a comparison whose
// operands are built only of symbols, constants, arithmetic and casts (each NULL when an input is
// NULL), over at least one of those symbols. Above a LEFT join such a conjunct on the build side's
// symbols drops the probe rows that had no match, so the join is an inner join (Trino's
// outer-to-inner simplification), which may then be reordered and make dynamic filters.

import { COMPARISON_NAMES } from '../../../functions/scalar/operator-names.js';
import type { RowExpression } from '../row-expression.js';

const STRICT_ARITHMETIC = new Set(['add', 'subtract', 'multiply', 'divide', 'modulus', 'negate']);

export function rejectsNulls(conjunct: RowExpression, symbols: ReadonlySet<number>): boolean {
  return conjunct.kind === 'call' && COMPARISON_NAMES.has(conjunct.name) && nullWhenNull(conjunct, symbols);
}

/**
 * Whether `e` is NULL on every row whose given symbols are all NULL: it is built only of symbols,
 * constants, casts, arithmetic and comparisons, and reads at least one of those symbols.
 */
export function nullWhenNull(e: RowExpression, symbols: ReadonlySet<number>): boolean {
  let reads = false;
  const strict = (e: RowExpression): boolean => {
    switch (e.kind) {
      case 'symbol':
        if (symbols.has(e.symbol.id)) reads = true;
        return true;
      case 'constant':
        return true;
      case 'cast':
        return strict(e.arg);
      case 'call':
        return (STRICT_ARITHMETIC.has(e.name) || COMPARISON_NAMES.has(e.name)) && e.args.every(strict);
      default:
        return false;
    }
  };
  return strict(e) && reads;
}
