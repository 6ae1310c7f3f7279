// The one way from an analyzed query's logical plan to the plan that runs: the optimizer's rules
// (optimizer/optimizer.ts) in order, less those the session disabled, each followed by the plan
// validator when validation is on; then, for the cluster, the fragments.

import type { PlanNode, TableScanNode } from './plan.js';
import type { PlannerContext } from './planner-context.js';
import { optimizerRules } from './optimizer/optimizer.js';
import { disabledOptimizerRules } from './optimizer/disabled-rules.js';
import { fragmentPlan, type PlanFragment } from './distributed/fragmenter.js';
import { validatePlan } from './validator/plan-validator.js';
import { SLICE_MILLIS, TurnTaker } from './next-turn.js';

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
  const steps = planningSteps(logical, context, options);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * planQuery giving the event loop a turn between rules and validations once a slice of them has run
 * long (next-turn.ts), and at the end: a long plan (a join of 49 tables takes hundreds of
 * milliseconds with validation on) then holds a server's loop, its heartbeats and requests, for a
 * step or so at a time rather than for the whole plan, and the caller's physical planning begins a
 * slice of its own.
 */
export async function planQueryYielding(
  logical: PlanNode,
  context: PlannerContext,
  options: PlanQueryOptions,
  sliceMillis = SLICE_MILLIS,
): Promise<QueryPlan> {
  const steps = planningSteps(logical, context, options);
  const turns = new TurnTaker(sliceMillis);
  for (;;) {
    const step = steps.next();
    await turns.between();
    if (step.done === true) return step.value;
  }
}

/** The planning, as steps (each yield ends one): the rules in order, each followed by its validation. */
function* planningSteps(logical: PlanNode, context: PlannerContext, options: PlanQueryOptions): Generator<void, QueryPlan> {
  const validate = options.validate ?? process.env[VALIDATE_PLANS_ENV] === '1';
  const disabled = disabledOptimizerRules(context.session);
  const validated = function* (plan: PlanNode, after: string): Generator<void, PlanNode> {
    if (validate) {
      yield;
      validatePlan(plan, after);
    }
    return plan;
  };
  let plan = yield* validated(logical, 'the planner');
  for (const rule of optimizerRules(options.distributed, options.nodes, options.singleNode)) {
    if (disabled.has(rule.name)) continue;
    yield;
    plan = yield* validated(rule.apply(plan, context), `rule ${rule.name}`);
  }
  if (options.addWriter) {
    yield;
    plan = yield* validated(options.addWriter(plan), 'the table writers');
  }
  if (!options.distributed) return { root: plan };
  yield;
  return { root: plan, fragments: fragmentPlan(plan, options.isRemoteScan ?? (() => false)) };
}
