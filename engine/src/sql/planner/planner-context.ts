// State shared by the planning of one statement: session, the metadata it reads, symbols,
// parameters, and the evaluator of expressions at planning time.

import type { CatalogManager } from '../../connectors/catalog-manager.js';
import type { Session } from '../../spi/session.js';
import type { StatementMetadata } from '../metadata/statement-metadata.js';
import type { ExpressionEvaluator } from './expression-evaluator.js';
import { PlanFactory } from './plan-factory.js';
import type { RowExpression } from './row-expression.js';
import { SymbolAllocator } from './symbols.js';

export class PlannerContext {
  readonly factory: PlanFactory;
  readonly session: Session;
  /** The connectors themselves, for what a connector can do (not for metadata: that is `metadata`). */
  readonly catalogs: CatalogManager;

  constructor(
    readonly metadata: StatementMetadata,
    readonly evaluator: ExpressionEvaluator,
    readonly parameters: readonly RowExpression[] = [],
    symbols: SymbolAllocator = new SymbolAllocator(),
    /** The views whose queries are being planned, outermost first (`catalog.schema.view`): one met again is recursive. */
    readonly expandingViews: readonly string[] = [],
  ) {
    this.factory = new PlanFactory(symbols);
    this.session = metadata.session;
    this.catalogs = metadata.catalogs;
  }
}
