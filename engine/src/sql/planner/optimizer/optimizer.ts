// The optimizer: a fixed sequence of rewrites over the logical plan. Each rule is one file.

import type { PlannerContext } from '../planner-context.js';
import type { PlanNode } from '../plan.js';
import { assignDynamicFilters } from './dynamic-filters.js';
import { foldConstants } from './fold-constants.js';
import { pruneColumns } from './prune-columns.js';
import { markParallelProbes } from './parallel-probes.js';
import { pushIntoConnectors } from './push-into-connectors.js';
import { pushFilteringSemiJoins } from './push-filtering-semi-joins.js';
import { pushPredicates } from './push-predicates.js';
import { reduceGroupedJoins } from './reduce-grouped-joins.js';
import { reorderJoins } from './reorder-joins.js';
import { pushConstraintsIntoScans } from './scan-constraints.js';
import { splitAggregation } from './split-aggregation.js';
import { planDistinctAggregations } from './distinct-aggregations.js';

export type Rule = (root: PlanNode, context: PlannerContext) => PlanNode;

// pushIntoConnectors runs on pruned scans, and columns only its pushed filters read are pruned after.
// splitAggregation comes last: pruning recomputes an aggregation's outputs from its calls, which a
// partial aggregation (several intermediate columns per call) does not follow. markParallelProbes
// comes before it: an aggregation over joins probed in parallel splits like one over a scan.
// assignDynamicFilters needs the final shape (a scan beyond an exchange gets none).
const RULES: Rule[] = [
  foldConstants,
  pushPredicates,
  pushFilteringSemiJoins,
  reduceGroupedJoins,
  reorderJoins,
  planDistinctAggregations,
  pruneColumns,
  pushIntoConnectors,
  pruneColumns,
  pushConstraintsIntoScans,
  markParallelProbes,
  splitAggregation,
  assignDynamicFilters,
];

/** Rules that need the plan's final shape: in a distributed plan they run after AddExchanges. */
const AFTER_EXCHANGES: readonly Rule[] = [markParallelProbes, splitAggregation, assignDynamicFilters];

/**
 * `distributed`: the plan is for the cluster: AddExchanges (run after this) splits the aggregations
 * into partial and final steps itself, around the exchanges, and the rules of AFTER_EXCHANGES run
 * after it (afterExchanges).
 */
export function optimize(root: PlanNode, context: PlannerContext, distributed = false): PlanNode {
  const rules = distributed ? RULES.filter((r) => !AFTER_EXCHANGES.includes(r)) : RULES;
  return rules.reduce((plan, rule) => rule(plan, context), root);
}

/** The rules a distributed plan gets once its exchanges are in place. */
export function afterExchanges(root: PlanNode, context: PlannerContext): PlanNode {
  return AFTER_EXCHANGES.reduce((plan, rule) => rule(plan, context), root);
}
