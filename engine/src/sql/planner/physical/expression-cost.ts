// Whether an expression costs enough per row to be worth evaluating on a worker thread when its
// rows then travel back to the main thread. Moving a row between threads costs about as much as a
// few comparisons or integer operations; functions, LIKE, text casts and BigInt arithmetic (long
// decimals) cost far more, so a stage that has them gains from running in parallel.

import { OPERATOR_NAMES } from '../../../functions/scalar/operator-names.js';
import type { RowExpression } from '../row-expression.js';
import { SHORT_DECIMAL_PRECISION, holdsStrings, type SqlType } from '../../../types/types.js';

/** Operators that compile to a few machine instructions on typed arrays (for types of those): all but `||`. */
const CHEAP_OPERATORS = new Set<string>(OPERATOR_NAMES.filter((name) => name !== 'concat'));

export function isCostly(e: RowExpression): boolean {
  switch (e.kind) {
    case 'input':
    case 'constant':
    case 'symbol':
      return false;
    case 'call':
      return !CHEAP_OPERATORS.has(e.name) || [e.type, ...e.args.map((a) => a.type)].some(longDecimal) || e.args.some(isCostly);
    case 'cast':
      return textual(e.type) || textual(e.arg.type) || longDecimal(e.type) || isCostly(e.arg);
    case 'special':
      return e.form === 'like' || e.args.some(isCostly);
    case 'lambda':
    case 'routine':
      return true;
    case 'variable':
      return false;
  }
}

function textual(t: SqlType): boolean {
  return holdsStrings(t) || t.kind === 'varbinary';
}

/** Values computed with BigInt. */
function longDecimal(t: SqlType): boolean {
  return t.kind === 'decimal' && t.precision > SHORT_DECIMAL_PRECISION;
}
