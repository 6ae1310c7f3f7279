// The catalog routines a view's query calls, loaded with the view (analysis is synchronous): the
// view is planned with these in sight and not the routines of the query that reads it, as Trino
// analyzes a view on a path of its own without the query's inline routines. A routine dropped after
// the view was created is then an unknown function in the view, which fails as INVALID_VIEW. A call
// by simple name finds the routines on the path the view was created with (as Trino's view session
// has the view's path), not on the server's sql.path now.

import type { CatalogManager } from '../../connectors/catalog-manager.js';
import type { Session } from '../../spi/session.js';
import type { ViewDefinition } from '../../spi/view.js';
import { parseStatement } from '../parser/parser.js';
import { loadCatalogRoutines } from './catalog-routines.js';
import type { RoutineScope } from './routine-scope.js';

/** The routines `view` calls, or undefined when it calls none (or its text does not parse: planning the view reports that). */
export async function loadViewRoutines(
  view: ViewDefinition,
  catalogs: CatalogManager,
  session: Session,
): Promise<RoutineScope | undefined> {
  let statement: object;
  try {
    statement = parseStatement(view.originalSql);
  } catch {
    return undefined;
  }
  return loadCatalogRoutines(statement, catalogs, session, view.path ?? []);
}
