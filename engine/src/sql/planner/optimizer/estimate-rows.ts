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
      return extractConjuncts(node.predicate).reduce((rows, c) => rows * selectivity(c), estimateRows(node.source, context));
    case 'Join': {
      const left = estimateRows(node.left, context);
      const right = estimateRows(node.right, context);
      if (node.type === 'mark' || node.type === 'left') return left;
      if (node.type === 'right') return right;
      if (node.criteria.length === 0) return left * right;
      return Math.max(left, right);
    }
    case 'Aggregate':
      return node.groupingKeys.length === 0 ? 1 : Math.max(1, estimateRows(node.source, context) * 0.1);
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

function selectivity(c: RowExpression): number {
  if (c.kind === 'call') {
    if (c.name === 'equal') return c.args.some((a) => a.kind === 'constant') ? 0.1 : 0.3;
    if (c.name.startsWith('less') || c.name.startsWith('greater')) return 0.5;
  }
  if (c.kind === 'special') {
    if (c.form === 'between') return 0.3;
    if (c.form === 'in') return Math.min(0.5, 0.1 * (c.args.length - 1));
    if (c.form === 'or') return 0.7;
  }
  return 0.7;
}
