// The tables of `information_schema`, computed live from the catalog's own metadata calls.

import type { Session } from '../../spi/session.js';
import type { Scalar } from '../../types/scalar.js';
import { BIGINT, VARCHAR, typeName } from '../../types/types.js';
import type { ColumnMetadata, Connector, SchemaTableName } from '../../spi/connector.js';
import type { RowTable } from '../row-table.js';

export const INFORMATION_SCHEMA = 'information_schema';

function varcharColumns(...names: string[]): ColumnMetadata[] {
  return names.map((name) => ({ name, type: VARCHAR }));
}

/** Everything the information_schema tables describe: the wrapped connector plus information_schema itself. */
export interface CatalogView {
  catalog: string;
  schemas(session: Session): Promise<string[]>;
  tables(session: Session): Promise<SchemaTableName[]>;
  /** The catalog's views, with their query's SQL. */
  views(session: Session): Promise<(SchemaTableName & { sql: string })[]>;
  /** A table's or a view's columns. */
  columns(session: Session, table: SchemaTableName): Promise<ColumnMetadata[]>;
}

/** Tables and views, sorted by schema and name, with their table_type. */
async function relations(view: CatalogView, session: Session): Promise<(SchemaTableName & { type: string })[]> {
  const tables = (await view.tables(session)).map((t) => ({ ...t, type: 'BASE TABLE' }));
  const views = (await view.views(session)).map((v) => ({ schema: v.schema, table: v.table, type: 'VIEW' }));
  return [...tables, ...views].sort(compareSchemaTable);
}

export function informationSchemaTables(view: CatalogView): RowTable[] {
  return [
    {
      name: 'schemata',
      columns: varcharColumns('catalog_name', 'schema_name'),
      rows: async (session) => (await view.schemas(session)).map((schema) => [view.catalog, schema]),
    },
    {
      name: 'tables',
      columns: varcharColumns('table_catalog', 'table_schema', 'table_name', 'table_type'),
      rows: async (session) => (await relations(view, session)).map((t) => [view.catalog, t.schema, t.table, t.type]),
    },
    {
      name: 'views',
      columns: varcharColumns('table_catalog', 'table_schema', 'table_name', 'view_definition'),
      rows: async (session) => (await view.views(session)).map((v) => [view.catalog, v.schema, v.table, v.sql]),
    },
    {
      name: 'columns',
      columns: [
        ...varcharColumns('table_catalog', 'table_schema', 'table_name', 'column_name'),
        { name: 'ordinal_position', type: BIGINT },
        ...varcharColumns('column_default', 'is_nullable', 'data_type', 'comment'),
      ],
      rows: async (session) => {
        const rows: Scalar[][] = [];
        for (const t of await relations(view, session)) rows.push(...(await columnRows(view, session, t)));
        return rows;
      },
    },
  ];
}

async function columnRows(view: CatalogView, session: Session, table: SchemaTableName): Promise<Scalar[][]> {
  return (await view.columns(session, table)).map((c, i) => [
    view.catalog,
    table.schema,
    table.table,
    c.name,
    BigInt(i + 1),
    c.defaultValue ?? null,
    c.nullable === false ? 'NO' : 'YES',
    typeName(c.type),
    c.comment ?? null,
  ]);
}

/** A CatalogView over `inner` with information_schema's own schema and tables added, sorted by name. */
export function catalogView(catalog: string, inner: Connector, ownTables: () => RowTable[]): CatalogView {
  const own = (): SchemaTableName[] => ownTables().map((t) => ({ schema: INFORMATION_SCHEMA, table: t.name }));
  return {
    catalog,
    schemas: async (session) => [...new Set([...(await inner.listSchemas(session)), INFORMATION_SCHEMA])].sort(),
    tables: async (session) =>
      [...(await inner.listTables(session)).filter((t) => t.schema !== INFORMATION_SCHEMA), ...own()].sort(compareSchemaTable),
    views: async (session) => {
      const names = (await inner.listViews?.(session)) ?? [];
      const views = await Promise.all(
        names.map(async (v) => ({ ...v, sql: (await inner.getView!(session, v.schema, v.table))?.originalSql })),
      );
      return views.filter((v): v is SchemaTableName & { sql: string } => v.sql !== undefined);
    },
    columns: async (session, t) => {
      if (t.schema === INFORMATION_SCHEMA) return ownTables().find((o) => o.name === t.table)?.columns ?? [];
      const table = await inner.getTable(session, t.schema, t.table);
      return table?.columns ?? (await inner.getView?.(session, t.schema, t.table))?.columns ?? [];
    },
  };
}

function compareSchemaTable(a: SchemaTableName, b: SchemaTableName): number {
  return a.schema < b.schema ? -1 : a.schema > b.schema ? 1 : a.table < b.table ? -1 : a.table > b.table ? 1 : 0;
}
