// State shared by the planning of one statement: session, catalogs, symbols, parameters, and the
// evaluator of expressions at planning time.

import type { CatalogManager } from '../../connectors/catalog-manager.js';
import type { Session } from '../../spi/session.js';
import type { ExpressionEvaluator } from './expression-evaluator.js';
import { PlanFactory } from './plan-factory.js';
import type { RowExpression } from './row-expression.js';
import { SymbolAllocator } from './symbols.js';

export class PlannerContext {
  readonly factory: PlanFactory;

  constructor(
    readonly session: Session,
    readonly catalogs: CatalogManager,
    readonly evaluator: ExpressionEvaluator,
    readonly parameters: readonly RowExpression[] = [],
    symbols: SymbolAllocator = new SymbolAllocator(),
  ) {
    this.factory = new PlanFactory(symbols);
  }
}
