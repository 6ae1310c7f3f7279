// The one way from an analyzed query's logical plan to the plan that runs: the optimizer's rules
// (optimizer/optimizer.ts) in order, less those the session disabled, each followed by the plan
// validator when validation is on; then, for the cluster, the fragments.

import type { PlanNode, TableScanNode } from './plan.js';
import type { PlannerContext } from './planner-context.js';
import { optimizerRules } from './optimizer/optimizer.js';
import { disabledOptimizerRules } from './optimizer/disabled-rules.js';
import { fragmentPlan, type PlanFragment } from './distributed/fragmenter.js';
import { validatePlan } from './validator/plan-validator.js';

export interface PlanQueryOptions {
  /** The plan runs as fragments (on a cluster, or a single node running its fragments as tasks). */
  distributed: boolean;
  /** Whether a scan's table is read where its splits are, on any node (see the fragmenter). */
  isRemoteScan?: (scan: TableScanNode) => boolean;
  /** Puts a write's writers over the optimized plan (before it is fragmented). */
  addWriter?: (plan: PlanNode) => PlanNode;
  /** How many nodes take the tasks of partitioned stages (default 1): it weighs broadcast against partitioned joins. */
  nodes?: number;
  /** The plan runs on a single-node server: every stage one task, on this node (single-node-aggregation.ts). */
  singleNode?: boolean;
  /** Checks the plan after every rule (plan-validator.ts); by default when ENGINE_VALIDATE_PLANS=1. */
  validate?: boolean;
}

export interface QueryPlan {
  /** The optimized plan (with its writers); for the cluster, before it is cut into fragments. */
  root: PlanNode;
  fragments?: PlanFragment;
}

/** The environment variable that turns plan validation on (tests set it): "1". */
export const VALIDATE_PLANS_ENV = 'ENGINE_VALIDATE_PLANS';

export function planQuery(logical: PlanNode, context: PlannerContext, options: PlanQueryOptions): QueryPlan {
  const validate = options.validate ?? process.env[VALIDATE_PLANS_ENV] === '1';
  const disabled = disabledOptimizerRules(context.session);
  if (validate) validatePlan(logical, 'the planner');
  let plan = logical;
  for (const rule of optimizerRules(options.distributed, options.nodes, options.singleNode)) {
    if (disabled.has(rule.name)) continue;
    plan = rule.apply(plan, context);
    if (validate) validatePlan(plan, `rule ${rule.name}`);
  }
  if (options.addWriter) {
    plan = options.addWriter(plan);
    if (validate) validatePlan(plan, 'the table writers');
  }
  if (!options.distributed) return { root: plan };
  return { root: plan, fragments: fragmentPlan(plan, options.isRemoteScan ?? (() => false)) };
}
