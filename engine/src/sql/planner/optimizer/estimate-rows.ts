// Row count estimates for join ordering and distribution: table statistics from connectors, the
// columns' statistics where they are known (as Trino's StatsCalculator rules use them: filters by
// the columns' ranges and distinct counts, equi-joins by the keys' distinct counts, groups by the
// keys'), and fixed selectivities where nothing is known.

import type { PlannerContext } from '../planner-context.js';
import type { PlanNode } from '../plan.js';
import type { RowExpression, Symbol } from '../row-expression.js';
import { assertNever } from '../assert-never.js';
import type { ColumnStatistics } from '../../../spi/connector.js';
import { columnOrigin } from './column-origin.js';
import { numericRange } from './domain-selectivity.js';
import { DEFAULT_SELECTIVITY, filterSelectivity } from './filter-selectivity.js';
import { innerJoinRows } from './join-rows.js';

const UNKNOWN_TABLE_ROWS = 1000;

/**
 * Estimates by plan node, per planning: a node's never changes (plan nodes are not modified, the
 * statistics are the statement's), and rules ask again and again for the nodes of a long chain of
 * joins, each asking for all below it (select5's joins of dozens of tables: quadratic, and more).
 */
const estimates = new WeakMap<PlannerContext, WeakMap<PlanNode, number>>();

export function estimateRows(node: PlanNode, context: PlannerContext): number {
  let known = estimates.get(context);
  if (known === undefined) {
    known = new WeakMap();
    estimates.set(context, known);
  }
  let rows = known.get(node);
  if (rows === undefined) {
    rows = computeRows(node, context);
    known.set(node, rows);
  }
  return rows;
}

function computeRows(node: PlanNode, context: PlannerContext): number {
  switch (node.kind) {
    case 'TableScan': {
      return context.metadata.tableStatistics(node.table)?.rowCount ?? UNKNOWN_TABLE_ROWS;
    }
    case 'Values':
      return node.rows.length;
    case 'Filter':
      return (
        estimateRows(node.source, context) *
        filterSelectivity(node.predicate, [node.source], context, (c) => semiJoinSelectivity(c, node.source, context))
      );
    case 'Join': {
      const left = estimateRows(node.left, context);
      const right = estimateRows(node.right, context);
      if (node.type === 'mark') return left;
      if (node.criteria.length === 0 && node.type !== 'inner')
        return node.type === 'left' ? left : node.type === 'right' ? right : left * right;
      const matched = node.criteria.length === 0 ? left * right : (innerJoinRows(node, left, right, context) ?? Math.max(left, right));
      // A condition beyond the keys (TPC-H q07's pair of nations) keeps its share of the pairs.
      const inner =
        node.filter === undefined ? matched : matched * filterSelectivity(node.filter, [node.left, node.right], context, () => undefined);
      // An outer join keeps its outer side's rows that match nothing.
      if (node.type === 'left') return Math.max(left, inner);
      if (node.type === 'right') return Math.max(right, inner);
      return node.type === 'full' ? Math.max(left, right, inner) : inner;
    }
    case 'Aggregate':
      if (node.groupingKeys.length === 0) return 1;
      // A final step has the groups its partial step (below, through an exchange) estimated already.
      return node.step === 'final' ? estimateRows(node.source, context) : groups(node.groupingKeys, node.source, context);
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
 * default. Undefined otherwise (then nothing is known of it, nor of its NOT).
 */
function semiJoinSelectivity(c: RowExpression, source: PlanNode, context: PlannerContext): number | undefined {
  if (c.kind !== 'symbol') return undefined;
  let node = source;
  while (node.kind === 'Project' || node.kind === 'Filter') node = node.source;
  if (node.kind !== 'Join' || node.type !== 'mark' || node.mark?.symbol.id !== c.symbol.id) return undefined;
  const share = estimateRows(node.right, context) / Math.max(1, estimateRows(node.left, context));
  return share < DEFAULT_SELECTIVITY ? share : undefined;
}

/**
 * Groups of the keys over `source`: the product of the keys' distinct counts, never more than the
 * rows. A key whose count is not known counts as its table's rows, or as unbounded: an unknown
 * count may be as many as the rows, and a guess below them made TPC-H q20's grouped lineitem sums
 * (about 780,000 groups at sf1, keys without distinct counts in DuckDB's Parquet files) a hash
 * join's build side under partsupp rather than its probe side, whose scan the join then filters.
 */
function groups(keys: readonly Symbol[], source: PlanNode, context: PlannerContext, integerRanges = false): number {
  const rows = estimateRows(source, context);
  const bounds = keys.map((k) => {
    const origin = columnOrigin(source, k, context);
    const inRange = integerRanges && origin !== undefined ? integerValuesInRange(k, origin.statistics) : undefined;
    return origin?.statistics.distinctValuesCount ?? inRange ?? origin?.tableRows ?? Number.POSITIVE_INFINITY;
  });
  return Math.max(1, Math.min(rows, product(bounds)));
}

/**
 * Groups of the keys as above, a key without a distinct count bounded also by the integers between
 * its least and greatest values (Parquet files have those where they lack distinct counts: orders'
 * o_custkey spans 1..149,999 over 1.5M rows at sf1). Only the rules that ask for it use the bound:
 * join ordering keeps the estimates its plans were measured with.
 */
export function estimateGroupsWithIntegerRanges(keys: readonly Symbol[], source: PlanNode, context: PlannerContext): number {
  return keys.length === 0 ? 1 : groups(keys, source, context, true);
}

const INTEGER_KINDS = new Set(['tinyint', 'smallint', 'integer', 'bigint', 'date']);

function integerValuesInRange(key: Symbol, statistics: ColumnStatistics): number | undefined {
  const range = INTEGER_KINDS.has(key.type.kind) ? numericRange(statistics) : undefined;
  return range === undefined ? undefined : range.high - range.low + 1;
}

function product(values: readonly number[]): number {
  return values.reduce((p, v) => p * v, 1);
}
