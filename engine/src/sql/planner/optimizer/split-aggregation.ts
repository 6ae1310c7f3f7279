// Partial and final aggregation: an Aggregate(single) over a source that can run on worker threads
// becomes Aggregate(final) over Aggregate(partial), so that each worker aggregates its own splits
// and the main thread only merges their intermediate states. DISTINCT calls are gone by then
// (distinct-aggregations.ts rewrites them into plain calls over distinct or marked rows); one that
// were left would stay single, as its operator needs every row of a group in one place.
//
// A partial node outputs its grouping keys and then, per call in order, one symbol per intermediate
// type of its function; a partial call's `symbol` is the first of them. The final call takes them
// as its arguments. The planner decides this shape; the executor decides how to run it: when the
// source turns out to be too small for workers, it runs the pair as the single aggregation it came
// from (aggregation-steps.ts).

import type { PlannerContext } from '../planner-context.js';
import { aggregateRef } from '../../../functions/aggregate/aggregate-ref.js';
import { aggregateFunctionOf } from '../function-handles.js';
import { integerSessionProperty } from '../../../spi/session-properties.js';
import { fragmentScan } from '../fragment-scan.js';
import type { AggregateNode, PlanNode } from '../plan.js';
import type { PlanFactory } from '../plan-factory.js';
import { rewriteBottomUp } from './rewrite-plan.js';

export function splitAggregation(root: PlanNode, context: PlannerContext): PlanNode {
  if (integerSessionProperty(context.session, 'parallel_min_splits') === 0) return root;
  return rewriteBottomUp(root, (node) => (node.kind === 'Aggregate' && splittable(node, context) ? split(node, context.factory) : node));
}

function splittable(node: AggregateNode, context: PlannerContext): boolean {
  if (!hasPartialForm(node)) return false;
  const scan = fragmentScan(node.source);
  if (scan === undefined) return false;
  return context.catalogs.get(scan.table.catalog)?.workerSplitSource?.(scan.table) !== undefined;
}

/** Whether a single-step aggregation can run as partial + final: no DISTINCT, and every function has intermediate states. */
export function hasPartialForm(node: AggregateNode): boolean {
  if (node.step !== 'single' || node.aggregations.some((a) => a.distinct)) return false;
  return node.aggregations.every((a) => aggregateRef(aggregateFunctionOf(a.function)) !== undefined);
}

/** Aggregate(final) over Aggregate(partial) over the node's source. */
export function split(node: AggregateNode, factory: PlanFactory): AggregateNode {
  const intermediates = node.aggregations.map((a) =>
    a.function.intermediateTypes.map((t) => factory.newSymbol(`${a.symbol.name}_partial`, t)),
  );
  const partial: AggregateNode = {
    kind: 'Aggregate',
    id: factory.nodeId(),
    source: node.source,
    groupingKeys: node.groupingKeys,
    aggregations: node.aggregations.map((a, i) => ({ ...a, symbol: intermediates[i][0] })),
    step: 'partial',
    outputs: [...node.groupingKeys, ...intermediates.flat()],
  };
  return {
    ...node,
    source: partial,
    aggregations: node.aggregations.map((a, i) => ({
      symbol: a.symbol,
      function: a.function,
      arguments: intermediates[i],
      distinct: false,
    })),
    step: 'final',
  };
}
