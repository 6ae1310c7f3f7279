// The optimizer's rules, in the order they run: the one list of them. Each rule is one file;
// planQuery (../plan-query.ts) runs them. A new rule is one line here, `rule('snake_case_name', fn)`
// (or requiredRule, saying why the plan cannot run without it); its name is what
// disabled_optimizer_rules and the plan validator's errors speak of.

import { addExchanges } from '../distributed/add-exchanges.js';
import { keepTrueProbeReplicatedMarks } from '../distributed/probe-replicated-true-marks.js';
import { keepFirstProbeReplicatedTrueRows } from '../distributed/probe-replicated-first-rows.js';
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
import { pushPartialAggregationThroughJoin } from './push-partial-aggregation.js';
import { requiredRule, rule, type PlanRule } from './plan-rule.js';

// push_into_connectors runs on pruned scans, and columns only its pushed filters read are pruned after.
const LOGICAL_RULES: readonly PlanRule[] = [
  rule('fold_constants', foldConstants),
  rule('push_predicates', pushPredicates),
  rule('push_filtering_semi_joins', pushFilteringSemiJoins),
  rule('reduce_grouped_joins', reduceGroupedJoins),
  rule('reorder_joins', reorderJoins),
  rule('plan_distinct_aggregations', planDistinctAggregations),
  // After join ordering (it reads which side a join preserves) and DISTINCT's rewrite (it splits plain calls only).
  rule('push_partial_aggregation_through_join', pushPartialAggregationThroughJoin),
  rule('prune_columns', pruneColumns),
  rule('push_into_connectors', pushIntoConnectors),
  rule('prune_columns', pruneColumns),
  rule('push_constraints_into_scans', pushConstraintsIntoScans),
];

// A plan for the cluster: AddExchanges splits the aggregations into partial and final steps itself,
// around the exchanges, and weighs broadcast against partitioned joins by the `nodes` taking tasks.
// Pruning again narrows what crosses each exchange to what the stages above use.
function exchangeRules(nodes: number, singleNode: boolean): readonly PlanRule[] {
  return [
    requiredRule(
      'add_exchanges',
      (plan, context) => addExchanges(plan, context, nodes, singleNode),
      'a plan runs as fragments only with exchanges between them',
    ),
    rule('prune_columns', pruneColumns),
    rule('keep_true_probe_replicated_marks', keepTrueProbeReplicatedMarks),
    rule('keep_first_probe_replicated_true_rows', keepFirstProbeReplicatedTrueRows),
  ];
}

// Rules that need the plan's final shape (after the exchanges). split_aggregation comes last: pruning
// recomputes an aggregation's outputs from its calls, which a partial aggregation (several intermediate
// columns per call) does not follow. mark_parallel_probes comes before it: an aggregation over joins
// probed in parallel splits like one over a scan; one left whole in a task still splits over threads.
// assign_dynamic_filters needs the final shape: a scan beyond an exchange gets no filter.
const FINAL_RULES: readonly PlanRule[] = [
  rule('mark_parallel_probes', markParallelProbes),
  rule('split_aggregation', splitAggregation),
  rule('assign_dynamic_filters', assignDynamicFilters),
];

/**
 * The rules a plan goes through, in order; `distributed`: a plan for fragments (with exchanges),
 * whose partitioned stages run on `nodes` nodes; `singleNode`: on a single-node server.
 */
export function optimizerRules(distributed: boolean, nodes = 1, singleNode = false): readonly PlanRule[] {
  return distributed ? [...LOGICAL_RULES, ...exchangeRules(nodes, singleNode), ...FINAL_RULES] : [...LOGICAL_RULES, ...FINAL_RULES];
}

/** Every rule once, by name. */
export function allOptimizerRules(): ReadonlyMap<string, PlanRule> {
  return new Map(optimizerRules(true).map((r) => [r.name, r]));
}
