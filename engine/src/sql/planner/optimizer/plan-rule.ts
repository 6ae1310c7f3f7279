// A rule of the optimizer: one named rewrite of a plan. The names are what EXPLAIN-less diagnosis
// speaks of: the plan validator names the rule that broke a plan, and `disabled_optimizer_rules`
// switches rules off by name.

import type { PlanNode } from '../plan.js';
import type { PlannerContext } from '../planner-context.js';

export interface PlanRule {
  /** snake_case, unique in the rule list (a rule listed twice runs twice under one name). */
  readonly name: string;
  /** Why the plan cannot run, or runs wrong, without this rule: such a rule cannot be disabled. */
  readonly requiredBecause?: string;
  apply(plan: PlanNode, context: PlannerContext): PlanNode;
}

/** A rule that a session may switch off. */
export function rule(name: string, apply: PlanRule['apply']): PlanRule {
  return { name, apply };
}

/** A rule the plan needs to run correctly; `because` says why, in the refusal to disable it. */
export function requiredRule(name: string, apply: PlanRule['apply'], because: string): PlanRule {
  return { name, apply, requiredBecause: because };
}
