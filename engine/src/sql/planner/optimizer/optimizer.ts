// The optimizer: a fixed sequence of rewrites over the logical plan. Each rule is one file.

import type { PlannerContext } from '../planner-context.js';
import type { PlanNode } from '../plan.js';
import { foldConstants } from './fold-constants.js';
import { pruneColumns } from './prune-columns.js';
import { pushIntoConnectors } from './push-into-connectors.js';
import { pushFilteringSemiJoins } from './push-filtering-semi-joins.js';
import { pushPredicates } from './push-predicates.js';
import { reduceGroupedJoins } from './reduce-grouped-joins.js';
import { reorderJoins } from './reorder-joins.js';
import { pushConstraintsIntoScans } from './scan-constraints.js';
import { splitAggregation } from './split-aggregation.js';

export type Rule = (root: PlanNode, context: PlannerContext) => PlanNode;

// pushIntoConnectors runs on pruned scans, and columns only its pushed filters read are pruned after.
// splitAggregation comes last: pruning recomputes an aggregation's outputs from its calls, which a
// partial aggregation (several intermediate columns per call) does not follow.
const RULES: Rule[] = [foldConstants, pushPredicates, pushFilteringSemiJoins, reduceGroupedJoins, reorderJoins, pruneColumns, pushIntoConnectors, pruneColumns, pushConstraintsIntoScans, splitAggregation];

/**
 * `distributed`: the plan is for the cluster, and AddExchanges (run after this) splits the
 * aggregations into partial and final steps itself, around the exchanges.
 */
export function optimize(root: PlanNode, context: PlannerContext, distributed = false): PlanNode {
  const rules = distributed ? RULES.filter((r) => r !== splitAggregation) : RULES;
  return rules.reduce((plan, rule) => rule(plan, context), root);
}
