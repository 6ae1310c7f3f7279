// The tables and views a statement's query reads, as analysis meets them: the hook the analyzer
// calls for each relation it resolves plans the relation (a table under the row filter and column
// masks the rules give its reader), and records the relation, its columns' symbols, its plan node and
// the views whose queries it sits in, so that access can be checked once the whole plan exists and
// shows which columns the query references.

import type { QualifiedObjectName } from '../../sql/metadata/qualified-name.js';
import type { PlannerContext } from '../../sql/planner/planner-context.js';
import type { PlanNode } from '../../sql/planner/plan.js';
import type { Symbol } from '../../sql/planner/row-expression.js';
import type { RelationPlan } from '../../sql/analyzer/relation-plan.js';
import type { ViewDefinition } from '../../spi/view.js';
import { tableText } from './access-denied.js';
import { restrictedTable } from './restricted-table.js';

export interface RelationRead {
  name: QualifiedObjectName;
  /** The relation's columns as the enclosing query sees them. */
  columns: readonly { name: string; symbol: Symbol }[];
  /** The node producing those columns: the scan (or the filter and masks over it), or the projection over a view's query. */
  node: PlanNode;
  /** The views (catalog.schema.name) whose queries contain this read, outermost first. */
  insideViews: readonly string[];
}

/** Whose rights a read uses: the session user's, or a definer's-rights view owner's (who then also needs GRANT_SELECT). */
export interface Reader {
  user: string;
  asViewOwner: boolean;
}

export class RelationReads {
  private readonly reads: RelationRead[] = [];
  /** The views met, by catalog.schema.name. */
  private readonly views = new Map<string, ViewDefinition>();

  record(read: RelationRead): void {
    this.reads.push(read);
  }

  noteView(name: QualifiedObjectName, view: ViewDefinition): void {
    this.views.set(tableText(name), view);
  }

  /** A new analysis attempt (after loading metadata it missed) starts from nothing. */
  clear(): void {
    this.reads.length = 0;
    this.views.clear();
  }

  all(): readonly RelationRead[] {
    return this.reads;
  }

  /** The session user, or the owner of the innermost definer's-rights view above (when someone else). */
  readerOf(insideViews: readonly string[], user: string): Reader {
    let reader: Reader = { user, asViewOwner: false };
    for (const name of insideViews) {
      const view = this.views.get(name);
      if (view?.owner !== undefined && !view.runAsInvoker && view.owner !== reader.user) reader = { user: view.owner, asViewOwner: true };
    }
    return reader;
  }
}

/** The analyzer's hook for a table (`view` undefined) or a view: plans it with `plan` and records the read. */
export function readRelation(
  context: PlannerContext,
  name: QualifiedObjectName,
  plan: () => RelationPlan,
  view?: ViewDefinition,
): RelationPlan {
  const reads = context.metadata.reads;
  if (view !== undefined) reads.noteView(name, view);
  const planned = view === undefined ? restrictedTable(context, name, plan()) : plan();
  const columns = planned.scope.fields.filter((f) => f.name !== undefined).map((f) => ({ name: f.name!, symbol: f.symbol }));
  reads.record({ name, columns, node: planned.node, insideViews: context.expandingViews });
  return planned;
}
