// Partial aggregation below a join (after Trino's PushPartialAggregationThroughJoin): an aggregation
// whose arguments and masks all come from one side of an equi-join is split into its final step
// above the join and its partial step over that side, grouped by that side's join keys (and its
// grouping keys and the columns the join filter reads). TPC-H q13 counts each customer's orders: the
// join then matches ~100k per-customer counts instead of 1.5M orders, and a cluster repartitions
// those few rows. Arguments computed right above the join are computed below it, over the side.
//
// Why it is right: every row of the side meets the same rows of the other side as its group's
// state does (the join reads only the partial's keys), and the final step merges the states each
// group gets, as it merges the states of tasks. Through an outer join the side must be the one that
// is not preserved: an unmatched row then carries a NULL state, which the final steps of count, sum,
// min, max and avg skip, as their single step skips the NULL argument the row had (count(x) → 0, the
// others NULL). count(*) would count that row, and an argument computed over the side must be NULL
// there too (nullWhenNull: coalesce is not), else the rewrite is not made.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { PlannerContext } from '../planner-context.js';
import type { AggregateNode, AggregationCall, Assignment, JoinNode, PlanNode } from '../plan.js';
import { referencedSymbols, symbolRef, type Symbol } from '../row-expression.js';
import { isDeterministic } from '../deterministic-expression.js';
import { nullWhenNull } from './null-rejecting.js';
import { estimateGroupsWithIntegerRanges, estimateRows } from './estimate-rows.js';
import { rewriteBottomUp } from './rewrite-plan.js';
import { split } from './split-aggregation.js';

const MODES = ['AUTOMATIC', 'ALWAYS', 'NONE'];

export const PUSH_PARTIAL_AGGREGATION_THROUGH_JOIN_PROPERTY: PropertyMetadata = {
  name: 'push_partial_aggregation_through_join',
  type: { kind: 'varchar' },
  defaultValue: 'AUTOMATIC',
  description:
    "Whether an aggregation over a join whose arguments all come from one side aggregates that side partially by its join keys below the join (EXPLAIN: an Aggregate(PARTIAL) under the join): AUTOMATIC when that is estimated to halve the side's rows, ALWAYS where it is right, NONE",
  validate: (v) => {
    if (!MODES.includes(String(v).toUpperCase())) throw new Error(`must be one of ${MODES.join(', ')}`);
  },
};

/** Functions whose final step over a NULL state gives what their single step gives over a NULL argument. */
const NULL_STATE_SAFE = new Set(['count', 'sum', 'min', 'max', 'avg']);

/** The partial step must be estimated to keep at most this share of its side's rows. */
const MAX_KEPT_SHARE = 0.5;

export function pushPartialAggregationThroughJoin(root: PlanNode, context: PlannerContext): PlanNode {
  const mode = (context.session.properties.get(PUSH_PARTIAL_AGGREGATION_THROUGH_JOIN_PROPERTY.name) ?? 'AUTOMATIC').toUpperCase();
  if (mode === 'NONE') return root;
  return rewriteBottomUp(root, (node) => (node.kind === 'Aggregate' ? (pushed(node, context, mode === 'ALWAYS') ?? node) : node));
}

function pushed(aggregate: AggregateNode, context: PlannerContext, always: boolean): AggregateNode | undefined {
  if (aggregate.step !== 'single' || aggregate.aggregations.length === 0) return undefined;
  // Without grouping keys the partial step above the join already sends one row per task (TPC-H q11's
  // subquery, on the threads probing the join): below it, it would hash by join key for no fewer rows.
  if (!always && aggregate.groupingKeys.length === 0) return undefined;
  const shape = joinBelow(aggregate.source);
  if (shape === undefined) return undefined;
  const { join, computed } = shape;
  if (join.criteria.length === 0 || join.nearest !== undefined) return undefined;
  const side = aggregatedSide(join, aggregate.aggregations, computed);
  if (side === undefined || !mergeable(aggregate.aggregations, join.type === 'inner')) return undefined;
  const original = side === 'left' ? join.left : join.right;
  // The arguments and masks computed above the join are computed below it, over the side's rows.
  const read = new Set(aggregate.aggregations.flatMap(callSymbols).map((s) => s.id));
  const below = computed.filter((a) => read.has(a.symbol.id));
  const above = computed.filter((a) => !read.has(a.symbol.id));
  const source = context.factory.projectExtending(original, below);
  const keys = partialKeys(aggregate, join, above, source);
  if (!always && estimateGroupsWithIntegerRanges(keys, source, context) > MAX_KEPT_SHARE * estimateRows(original, context))
    return undefined;
  const pair = split(
    { ...aggregate, source, groupingKeys: keys, outputs: [...keys, ...aggregate.aggregations.map((a) => a.symbol)] },
    context.factory,
  );
  const partial = pair.source as AggregateNode;
  const left = side === 'left' ? partial : join.left;
  const right = side === 'right' ? partial : join.right;
  const joined: JoinNode = { ...join, left, right, outputs: [...left.outputs, ...right.outputs] };
  return {
    ...pair,
    groupingKeys: aggregate.groupingKeys,
    source: context.factory.projectExtending(joined, above),
    outputs: aggregate.outputs,
  };
}

interface JoinBelow {
  join: JoinNode;
  /** The symbols the projection right above the join computes (not those it passes on). */
  computed: Assignment[];
}

/** The join under `node`, through projections that pass symbols on and one right above it that may compute some. */
function joinBelow(node: PlanNode): JoinBelow | undefined {
  if (node.kind === 'Join') return node.type === 'mark' || node.type === 'full' ? undefined : { join: node, computed: [] };
  if (node.kind !== 'Project') return undefined;
  const computed = node.assignments.filter((a) => a.expression.kind !== 'symbol' || a.expression.symbol.id !== a.symbol.id);
  if (computed.length === 0) return joinBelow(node.source);
  const below = node.source.kind === 'Join' ? joinBelow(node.source) : undefined;
  return below === undefined ? undefined : { join: below.join, computed };
}

function callSymbols(call: AggregationCall): Symbol[] {
  return call.mask === undefined ? call.arguments : [...call.arguments, call.mask];
}

/**
 * The side every argument and mask is read from, when it is one an outer join does not preserve and
 * those computed above the join are right below it: deterministic, and through an outer join NULL
 * when the side's symbols are (as they are on an unmatched row, which then adds nothing).
 */
function aggregatedSide(join: JoinNode, calls: readonly AggregationCall[], computed: readonly Assignment[]): 'left' | 'right' | undefined {
  const used = calls.flatMap(callSymbols);
  if (used.length === 0) return undefined;
  const expressions = used.map((s) => computed.find((a) => a.symbol.id === s.id)?.expression ?? symbolRef(s));
  const reads = [...expressions.reduce((all, e) => referencedSymbols(e, all), new Map<number, Symbol>()).keys()];
  const ids = (node: PlanNode) => new Set(node.outputs.map((o) => o.id));
  const left = ids(join.left);
  const right = ids(join.right);
  const side = reads.every((id) => left.has(id)) ? 'left' : reads.every((id) => right.has(id)) ? 'right' : undefined;
  if (side === undefined || !expressions.every(isDeterministic)) return undefined;
  if (join.type === 'inner') return side;
  // A LEFT join preserves its left side: only the right may be aggregated below it, and conversely.
  const notPreserved = (join.type === 'left' && side === 'right') || (join.type === 'right' && side === 'left');
  const sideIds = side === 'left' ? left : right;
  return notPreserved && expressions.every((e) => e.kind === 'symbol' || nullWhenNull(e, sideIds)) ? side : undefined;
}

/** Calls with a partial form whose merge is right under this join (see the header). */
function mergeable(calls: readonly AggregationCall[], inner: boolean): boolean {
  return calls.every(
    (c) =>
      !c.distinct &&
      NULL_STATE_SAFE.has(c.function.name) &&
      c.arguments.length <= 1 &&
      (inner || c.arguments.length === 1) &&
      c.function.intermediateTypes.length > 0,
  );
}

/**
 * The side's symbols that the join and what is above it read: its join keys, the join filter's
 * columns, the grouping keys and what the projection left above the join computes from.
 */
function partialKeys(aggregate: AggregateNode, join: JoinNode, above: readonly Assignment[], source: PlanNode): Symbol[] {
  const read = new Map<number, Symbol>();
  for (const c of join.criteria) for (const s of [c.left, c.right]) read.set(s.id, s);
  if (join.filter !== undefined) referencedSymbols(join.filter, read);
  for (const a of above) referencedSymbols(a.expression, read);
  for (const s of aggregate.groupingKeys) read.set(s.id, s);
  return source.outputs.filter((s) => read.has(s.id));
}
