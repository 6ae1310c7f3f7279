// Row count estimates for join ordering: table statistics from connectors and fixed selectivities
// for filters, in the spirit of Trino's estimates when column statistics are missing.

import type { PlannerContext } from '../planner-context.js';
import type { PlanNode } from '../plan.js';
import { extractConjuncts } from '../plan-factory.js';
import type { RowExpression } from '../row-expression.js';
import { assertNever } from '../assert-never.js';

const UNKNOWN_TABLE_ROWS = 1000;

export function estimateRows(node: PlanNode, context: PlannerContext): number {
  switch (node.kind) {
    case 'TableScan': {
      return context.metadata.tableStatistics(node.table)?.rowCount ?? UNKNOWN_TABLE_ROWS;
    }
    case 'Values':
      return node.rows.length;
    case 'Filter':
      return extractConjuncts(node.predicate).reduce(
        (rows, c) => rows * (semiJoinSelectivity(c, node.source, context) ?? selectivity(c)),
        estimateRows(node.source, context),
      );
    case 'Join': {
      const left = estimateRows(node.left, context);
      const right = estimateRows(node.right, context);
      if (node.type === 'mark' || node.type === 'left') return left;
      if (node.type === 'right') return right;
      if (node.criteria.length === 0) return left * right;
      return Math.max(left, right);
    }
    case 'Aggregate':
      if (node.groupingKeys.length === 0) return 1;
      // A final step has the groups its partial step (below, through an exchange) estimated already.
      return node.step === 'final' ? estimateRows(node.source, context) : Math.max(1, estimateRows(node.source, context) * 0.1);
    case 'Limit':
    case 'TopN':
      return Math.min(node.count, estimateRows(node.source, context));
    case 'EnforceSingleRow':
      return 1;
    case 'SetOperation':
      return node.sources.reduce((sum, s) => sum + estimateRows(s, context), 0);
    case 'Apply':
      return estimateRows(node.input, context);
    case 'RecursiveUnion':
      return estimateRows(node.anchor, context);
    case 'RemoteSource':
      return UNKNOWN_TABLE_ROWS;
    case 'Project':
    case 'Sort':
    case 'Window':
    case 'GroupId':
    case 'AssignUniqueId':
    case 'MarkDistinct':
    case 'Unnest':
    case 'Exchange':
    case 'TableWriter':
    case 'TableFinish':
      return estimateRows(node.source, context);
    default:
      return assertNever(node);
  }
}

/**
 * A filter on the mark of a semi join below it (IN, EXISTS) keeps the probe rows that have a match:
 * at most one per build row when the build keys are unique (an IN over a grouped subquery, such as
 * TPC-H q18's), so the share of probe rows the build side's rows make, when that is below the
 * default. Undefined for any other conjunct.
 */
function semiJoinSelectivity(c: RowExpression, source: PlanNode, context: PlannerContext): number | undefined {
  if (c.kind !== 'symbol') return undefined;
  let node = source;
  while (node.kind === 'Project' || node.kind === 'Filter') node = node.source;
  if (node.kind !== 'Join' || node.type !== 'mark' || node.mark?.symbol.id !== c.symbol.id) return undefined;
  return Math.min(DEFAULT_SELECTIVITY, estimateRows(node.right, context) / Math.max(1, estimateRows(node.left, context)));
}

const DEFAULT_SELECTIVITY = 0.7;

function selectivity(c: RowExpression): number {
  if (c.kind === 'call') {
    if (c.name === 'equal') return c.args.some((a) => a.kind === 'constant') ? 0.1 : 0.3;
    if (c.name.startsWith('less') || c.name.startsWith('greater')) return 0.5;
  }
  if (c.kind === 'special') {
    if (c.form === 'between') return 0.3;
    if (c.form === 'in') return Math.min(0.5, 0.1 * (c.args.length - 1));
    if (c.form === 'or') return DEFAULT_SELECTIVITY;
  }
  return DEFAULT_SELECTIVITY;
}
