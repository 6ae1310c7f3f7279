// The tables and views a statement's query reads, as analysis meets them: the hook the analyzer
// calls for each relation it resolves records the relation, its columns' symbols, its plan node and
// the views whose queries it sits in, so that access can be checked once the whole plan exists and
// shows which columns the query references.

import type { QualifiedObjectName } from '../../sql/metadata/qualified-name.js';
import type { PlannerContext } from '../../sql/planner/planner-context.js';
import type { PlanNode } from '../../sql/planner/plan.js';
import type { Symbol } from '../../sql/planner/row-expression.js';
import type { RelationPlan } from '../../sql/analyzer/relation-plan.js';
import type { ViewDefinition } from '../../spi/view.js';

export interface RelationRead {
  name: QualifiedObjectName;
  /** The relation's columns as the enclosing query sees them. */
  columns: readonly { name: string; symbol: Symbol }[];
  /** The node producing those columns: the scan, or the projection over a view's query. */
  node: PlanNode;
  /** The views (catalog.schema.name) whose queries contain this read, outermost first. */
  insideViews: readonly string[];
  /** Set when the relation is a view. */
  view?: ViewDefinition;
}

export class RelationReads {
  private readonly reads: RelationRead[] = [];

  record(read: RelationRead): void {
    this.reads.push(read);
  }

  /** A new analysis attempt (after loading metadata it missed) starts from nothing. */
  clear(): void {
    this.reads.length = 0;
  }

  all(): readonly RelationRead[] {
    return this.reads;
  }
}

/** The analyzer's hook: records the table or view `plan` reads, and returns the plan unchanged. */
export function recordRelationRead(context: PlannerContext, name: QualifiedObjectName, plan: RelationPlan, view?: ViewDefinition): RelationPlan {
  const columns = plan.scope.fields.filter((f) => f.name !== undefined).map((f) => ({ name: f.name!, symbol: f.symbol }));
  context.metadata.reads.record({ name, columns, node: plan.node, insideViews: context.expandingViews, view });
  return plan;
}
