// A planned relation, and the named queries (WITH) a query can refer to.

import type * as ast from '../parser/ast.js';
import type { PlanNode } from '../planner/plan.js';
import type { Field, Scope } from './scope.js';

/** A planned relation: its plan and the fields by which the enclosing query refers to its columns. */
export interface RelationPlan {
  node: PlanNode;
  scope: Scope;
}

/** Output fields of a relation (the visible ones, in order). */
export function visibleFields(plan: RelationPlan): Field[] {
  return plan.scope.fields.filter((f) => !f.hidden);
}

export interface NamedQuery {
  query: ast.Query;
  columnAliases?: ast.Identifier[];
  /** CTEs visible where this one was defined (a CTE sees only the ones before it). */
  ctes: Map<string, NamedQuery>;
  /** A recursive query (WITH RECURSIVE) and a step's reference to it: its plan, made anew at each reference. */
  expand?: () => RelationPlan;
}
