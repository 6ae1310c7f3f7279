// Filters whose every row can be tested without a branch: a comparison, or an AND of comparisons, of
// non-NULL 32-bit integer columns (integer, smallint, tinyint, date) and constants. The generated
// AND stops at its first FALSE operand, a branch taken at random on most data (q21's receipt date
// after the commit date is true for about half of lineitem's rows, q15's shipping quarter true for
// one row in 27 after a first test true for more than half of them): each mispredicted branch costs
// more than the comparisons it skips, ~20 ns a row against ~3 ns with every comparison evaluated
// and the row's position stored unconditionally. Such comparisons cannot throw and read nothing
// but typed arrays, so evaluating them all gives the same rows.

import type { RowExpression } from '../../sql/planner/row-expression.js';
import type { SqlType } from '../../types/types.js';

const COMPARISONS = new Set(['equal', 'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal']);
const INT32_KINDS = new Set<SqlType['kind']>(['integer', 'smallint', 'tinyint', 'date']);

/** The comparisons the filter ANDs when all of them can be tested without a branch, else undefined. */
export function branchFreeComparisons(filter: RowExpression, nullableChannels: ReadonlySet<number>): RowExpression[] | undefined {
  const operands = filter.kind === 'special' && filter.form === 'and' ? filter.args : [filter];
  return operands.every((e) => isBranchFreeComparison(e, nullableChannels)) ? operands : undefined;
}

function isBranchFreeComparison(e: RowExpression, nullableChannels: ReadonlySet<number>): boolean {
  if (e.kind !== 'call' || !COMPARISONS.has(e.name) || e.args.length !== 2) return false;
  const [left, right] = e.args;
  return left.type.kind === right.type.kind && e.args.every((a) => isNonNullInt32(a, nullableChannels));
}

function isNonNullInt32(e: RowExpression, nullableChannels: ReadonlySet<number>): boolean {
  if (!INT32_KINDS.has(e.type.kind)) return false;
  if (e.kind === 'input') return !nullableChannels.has(e.channel);
  return e.kind === 'constant' && typeof e.value === 'number';
}
