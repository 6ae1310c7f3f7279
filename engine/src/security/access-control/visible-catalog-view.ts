// information_schema as a user may see it: only the schemas, tables, views and columns the access
// rules let them see (Trino's filterSchemas / filterTables / filterColumns), read when the
// information_schema table is scanned, by the session's user.

import type { CatalogView } from '../../connectors/information-schema/information-schema-tables.js';
import type { FileAccessControl } from './file-access-control.js';

export function visibleCatalogView(view: CatalogView, accessControl: () => FileAccessControl | undefined): CatalogView {
  const catalog = view.catalog;
  return {
    catalog,
    schemas: async (session) => {
      const access = accessControl();
      const schemas = await view.schemas(session);
      return access === undefined ? schemas : access.filterSchemas(session.user, catalog, schemas);
    },
    tables: async (session) => {
      const access = accessControl();
      const tables = await view.tables(session);
      return access === undefined ? tables : access.filterTables(session.user, catalog, tables);
    },
    views: async (session) => {
      const access = accessControl();
      const views = await view.views(session);
      return access === undefined ? views : access.filterTables(session.user, catalog, views);
    },
    columns: async (session, table) => {
      const access = accessControl();
      const columns = await view.columns(session, table);
      if (access === undefined) return columns;
      const visible = new Set(
        access.filterColumns(
          session.user,
          { catalog, schema: table.schema, name: table.table },
          columns.map((c) => c.name),
        ),
      );
      return columns.filter((c) => visible.has(c.name));
    },
  };
}
