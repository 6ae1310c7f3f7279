// A final aggregation over its partial (the pair split-aggregation makes) and the single
// aggregation it came from: the physical planner runs the pair as one (SingleStepAggregation) when
// its source stays in the main thread.

import type { AggregateNode, PlanNode } from './plan.js';

/** The single aggregation a final/partial pair was split from. */
export function mergePartialFinal(final: AggregateNode, partial: AggregateNode): AggregateNode {
  return {
    ...final,
    source: partial.source,
    aggregations: partial.aggregations.map((p, i) => ({ ...p, symbol: final.aggregations[i].symbol })),
    step: 'single',
  };
}

/** The partial aggregation under a final one, if `node` is such a final. */
export function partialUnderFinal(node: PlanNode): AggregateNode | undefined {
  if (node.kind !== 'Aggregate' || node.step !== 'final') return undefined;
  return node.source.kind === 'Aggregate' && node.source.step === 'partial' ? node.source : undefined;
}
