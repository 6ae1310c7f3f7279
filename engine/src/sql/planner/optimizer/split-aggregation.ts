// Partial and final aggregation: an Aggregate(single) over a source that can run on worker threads
// becomes Aggregate(final) over Aggregate(partial), so that each worker aggregates its own splits
// and the main thread only merges their intermediate states. DISTINCT aggregates stay single (their
// operator needs every row in one place).
//
// A partial node outputs its grouping keys and then, per call in order, one symbol per intermediate
// type of its function; a partial call's `symbol` is the first of them. The final call takes them
// as its arguments. When the source turns out to be too small for workers, the executor runs the
// pair as the single aggregation it came from (mergePartialFinal).

import type { PlannerContext } from '../../analyzer/planner-context.js';
import { aggregateRef } from '../../../exec/parallel/aggregate-refs.js';
import { parallelSettings } from '../../../exec/parallel/parallel-settings.js';
import { fragmentScan } from '../../../exec/parallel/source-fragment.js';
import { workerSplitPreparer } from '../../../exec/parallel/worker-splits.js';
import type { AggregateNode, PlanNode } from '../plan.js';
import type { PlanFactory } from '../plan-factory.js';
import { rewriteBottomUp } from './rewrite-plan.js';

export function splitAggregation(root: PlanNode, context: PlannerContext): PlanNode {
  if (parallelSettings(context.session).minSplits === 0) return root;
  return rewriteBottomUp(root, (node) => (node.kind === 'Aggregate' && splittable(node, context) ? split(node, context.factory) : node));
}

function splittable(node: AggregateNode, context: PlannerContext): boolean {
  if (node.step !== 'single' || node.aggregations.some((a) => a.distinct)) return false;
  const scan = fragmentScan(node.source);
  if (scan === undefined) return false;
  if (workerSplitPreparer(context.catalogs.get(scan.table.catalog), scan.table) === undefined) return false;
  return node.aggregations.every((a) => aggregateRef(a.function) !== undefined);
}

function split(node: AggregateNode, factory: PlanFactory): AggregateNode {
  const intermediates = node.aggregations.map((a) => a.function.intermediateTypes.map((t) => factory.newSymbol(`${a.symbol.name}_partial`, t)));
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
    aggregations: node.aggregations.map((a, i) => ({ symbol: a.symbol, function: a.function, arguments: intermediates[i], distinct: false })),
    step: 'final',
  };
}

/** The single aggregation a final/partial pair was split from. */
export function mergePartialFinal(final: AggregateNode, partial: AggregateNode): AggregateNode {
  return {
    ...final,
    source: partial.source,
    aggregations: partial.aggregations.map((p, i) => ({ ...p, symbol: final.aggregations[i].symbol })),
    step: 'single',
  };
}

/** The partial aggregation under a final one (the pair this rule makes), if `node` is such a final. */
export function partialUnderFinal(node: PlanNode): AggregateNode | undefined {
  if (node.kind !== 'Aggregate' || node.step !== 'final') return undefined;
  return node.source.kind === 'Aggregate' && node.source.step === 'partial' ? node.source : undefined;
}
