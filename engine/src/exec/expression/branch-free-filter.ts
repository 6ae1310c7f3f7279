// Filters whose every row can be tested without a branch: a comparison or BETWEEN, or an AND of them,
// of non-NULL 32-bit integer columns (integer, smallint, tinyint, date) and constants. The generated
// AND stops at its first FALSE operand, a branch taken at random on most data (q21's receipt date
// after the commit date is true for about half of lineitem's rows, q15's shipping quarter true for
// one row in 27 after a first test true for more than half of them): each mispredicted branch costs
// more than the comparisons it skips, ~20 ns a row against ~3 ns with every comparison evaluated
// and the row's position stored unconditionally. Such comparisons cannot throw and read nothing
// but typed arrays, so evaluating them all gives the same rows.

import type { RowExpression } from '../../sql/planner/row-expression.js';
import type { SqlType } from '../../types/types.js';
import type { CodeGenerator } from './code-generator.js';

const COMPARISONS = new Set(['equal', 'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal']);
const INT32_KINDS = new Set<SqlType['kind']>(['integer', 'smallint', 'tinyint', 'date']);

/** The comparisons (and BETWEENs) the filter ANDs when all of them can be tested without a branch, else undefined. */
export function branchFreeComparisons(filter: RowExpression, nullableChannels: ReadonlySet<number>): RowExpression[] | undefined {
  const operands = filter.kind === 'special' && filter.form === 'and' ? filter.args : [filter];
  return operands.every((e) => isBranchFreeComparison(e, nullableChannels)) ? operands : undefined;
}

function isBranchFreeComparison(e: RowExpression, nullableChannels: ReadonlySet<number>): boolean {
  const operands =
    e.kind === 'call' && COMPARISONS.has(e.name) && e.args.length === 2
      ? e.args
      : e.kind === 'special' && e.form === 'between' && e.args.length === 3
        ? e.args
        : undefined;
  return operands !== undefined && operands.every((a) => a.type.kind === operands[0].type.kind && isNonNullInt32(a, nullableChannels));
}

/** The generated test of one of the filter's comparisons, 1 or 0 as a number, its reads emitted into `g`'s body. */
export function branchFreeTest(g: CodeGenerator, comparison: RowExpression): string {
  if (comparison.kind !== 'special') return `(${g.generate(comparison).value} | 0)`;
  // BETWEEN: the same types, nothing to coerce.
  const [value, low, high] = comparison.args.map((a) => g.generate(a).value);
  return `((${low} <= ${value}) | 0) & ((${value} <= ${high}) | 0)`;
}

function isNonNullInt32(e: RowExpression, nullableChannels: ReadonlySet<number>): boolean {
  if (!INT32_KINDS.has(e.type.kind)) return false;
  if (e.kind === 'input') return !nullableChannels.has(e.channel);
  return e.kind === 'constant' && typeof e.value === 'number';
}
