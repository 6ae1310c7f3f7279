// State shared by the planning of one statement: session, catalogs, symbols, parameters, CTEs.

import type { CatalogManager } from '../../connectors/catalog-manager.js';
import type { Session } from '../../spi/session.js';
import type * as ast from '../parser/ast.js';
import { PlanFactory } from '../planner/plan-factory.js';
import type { PlanNode } from '../planner/plan.js';
import type { RowExpression } from '../planner/row-expression.js';
import type { Field, Scope } from './scope.js';
import { SymbolAllocator } from './symbols.js';

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
}

export class PlannerContext {
  readonly factory: PlanFactory;

  constructor(
    readonly session: Session,
    readonly catalogs: CatalogManager,
    readonly parameters: readonly RowExpression[] = [],
    symbols: SymbolAllocator = new SymbolAllocator(),
  ) {
    this.factory = new PlanFactory(symbols);
  }
}
