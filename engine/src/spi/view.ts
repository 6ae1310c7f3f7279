// A view as a catalog keeps it (Trino's ConnectorViewDefinition): the query's SQL text, the catalog
// and schema its names are resolved in, and the columns (names and types) it had when created, so
// that a query of the view can tell when the tables below it changed (a stale view).

import type { SqlType } from '../types/types.js';

export interface ViewColumn {
  name: string;
  type: SqlType;
  comment?: string;
}

export interface ViewDefinition {
  /** The view's query, as SQL text (the engine formats it when the view is created). */
  originalSql: string;
  /** The session catalog and schema when the view was created: unqualified names in the SQL resolve there. */
  catalog?: string;
  schema?: string;
  columns: ViewColumn[];
  comment?: string;
  owner?: string;
  /** SECURITY INVOKER (true) or DEFINER (false, the default). */
  runAsInvoker: boolean;
  /**
   * The SQL path (sql.path) when the view was created: routines the view calls by simple name are
   * found on it, not on the path of the query reading the view (Trino's view path). None: an empty path.
   */
  path?: { catalog: string; schema: string }[];
}
