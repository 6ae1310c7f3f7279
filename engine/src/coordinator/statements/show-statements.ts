// SHOW CATALOGS / SCHEMAS / TABLES / COLUMNS / FUNCTIONS / SESSION / CREATE TABLE, with Trino's
// column names and ordering.

import type { CatalogManager } from '../../connectors/catalog-manager.js';
import { EngineError, locatedAsync } from '../../errors/engine-error.js';
import { listAggregateFunctions } from '../../functions/aggregate/registry.js';
import type { FunctionInfo } from '../../functions/function-info.js';
import { listScalarFunctions } from '../../functions/scalar/registry.js';
import { listWindowFunctions } from '../../functions/window/registry.js';
import type * as ast from '../../sql/parser/ast.js';
import { formatStringLiteral } from '../../sql/parser/expression-formatter.js';
import type { PropertyValue } from '../../spi/connector.js';
import { qualifiedObjectName } from '../../sql/metadata/qualified-name.js';
import { schemaExists, type StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import { BOOLEAN, typeName, VARCHAR } from '../../types/types.js';
import type { Session } from '../../spi/session.js';
import type { StatementResult } from '../../spi/statement-result.js';
import type { SessionPropertyManager } from '../session-property-manager.js';
import { likeMatcher } from './like-pattern.js';
import { column, rowsResult, varcharColumns } from './results.js';

export function showCatalogs(s: ast.ShowCatalogs, catalogs: CatalogManager, user: string): StatementResult {
  const matches = likeMatcher(s.like, s.escape);
  const names = catalogs.accessControl?.filterCatalogs(user, catalogs.names()) ?? catalogs.names();
  return rowsResult(
    varcharColumns('Catalog'),
    names.filter(matches).map((c) => [c]),
  );
}

export async function showSchemas(s: ast.ShowSchemas, metadata: StatementMetadata): Promise<StatementResult> {
  const session = metadata.session;
  const catalog = s.catalog?.value ?? session.catalog;
  if (!catalog) throw new EngineError('MISSING_CATALOG_NAME', 'Catalog must be specified when session catalog is not set', s.location);
  const connector = metadata.connector(catalog, s.catalog?.location ?? s.location);
  const matches = likeMatcher(s.like, s.escape);
  const listed = await locatedAsync(s.catalog?.location ?? s.location, () => connector.listSchemas(session));
  const schemas = [...(metadata.catalogs.accessControl?.filterSchemas(session.user, catalog, listed) ?? listed)].sort().filter(matches);
  return rowsResult(
    varcharColumns('Schema'),
    schemas.map((x) => [x]),
  );
}

export async function showTables(s: ast.ShowTables, metadata: StatementMetadata): Promise<StatementResult> {
  const session = metadata.session;
  const parts = s.schema?.parts.map((p) => p.value) ?? [];
  const catalog = parts.length === 2 ? parts[0] : session.catalog;
  const schema = parts.length >= 1 ? parts[parts.length - 1] : session.schema;
  if (!catalog) throw new EngineError('MISSING_CATALOG_NAME', 'Catalog must be specified when session catalog is not set', s.location);
  if (!schema) throw new EngineError('MISSING_SCHEMA_NAME', 'Schema must be specified when session schema is not set', s.location);
  const connector = metadata.connector(catalog, s.location);
  const location = s.schema?.location ?? s.location;
  if (!(await locatedAsync(location, () => schemaExists(connector, session, schema))))
    throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${schema}' does not exist`, location);
  const matches = likeMatcher(s.like, s.escape);
  const views = connector.listViews === undefined ? [] : await locatedAsync(location, () => connector.listViews!(session, schema));
  const listed = [...(await locatedAsync(location, () => connector.listTables(session, schema))), ...views];
  const tables = (metadata.catalogs.accessControl?.filterTables(session.user, catalog, listed) ?? listed)
    .map((t) => t.table)
    .sort()
    .filter(matches);
  return rowsResult(
    varcharColumns('Table'),
    tables.map((t) => [t]),
  );
}

export async function showColumns(s: ast.ShowColumns, metadata: StatementMetadata): Promise<StatementResult> {
  const columns =
    (await metadata.table(s.table))?.columns ?? (await metadata.view(s.table))?.columns ?? metadata.resolveTableOrFail(s.table).columns;
  const matches = likeMatcher(s.like, s.escape);
  const access = metadata.catalogs.accessControl;
  const visible =
    access === undefined
      ? undefined
      : new Set(
          access.filterColumns(
            metadata.session.user,
            qualifiedObjectName(s.table, metadata.session),
            columns.map((c) => c.name),
          ),
        );
  const rows = columns
    .filter((c) => matches(c.name) && (visible === undefined || visible.has(c.name)))
    .map((c) => [c.name, typeName(c.type), '', c.comment ?? '']);
  return rowsResult(varcharColumns('Column', 'Type', 'Extra', 'Comment'), rows);
}

/** One row of SHOW FUNCTIONS: name, return type, argument types, function type, deterministic, description. */
export type FunctionRow = [string, string, string, string, boolean, string];

/**
 * SHOW FUNCTIONS: the built-in functions (without FROM, or FROM system.builtin) and the SQL routines
 * `routines` (those of sql.path's schemas, or of the schema named), ordered as Trino orders them:
 * by lower-case name, then return type, argument types and function type.
 */
export function showFunctions(s: ast.ShowFunctions, session: Session, routines: readonly FunctionRow[] = []): StatementResult {
  const matches = likeMatcher(s.like, s.escape);
  const all: FunctionInfo[] =
    s.schema === undefined || holdsBuiltins(s.schema, session)
      ? [...listScalarFunctions(), ...listAggregateFunctions(), ...listWindowFunctions()]
      : [];
  const builtins = all.map(
    (f): FunctionRow => [f.name, f.returnType, f.argumentTypes.join(', '), f.functionType, f.deterministic, f.description],
  );
  const rows = [...builtins, ...routines].filter((row) => matches(row[0])).sort(compareFunctionRows);
  const columns = [
    ...varcharColumns('Function', 'Return Type', 'Argument Types', 'Function Type'),
    column('Deterministic', BOOLEAN),
    column('Description', VARCHAR),
  ];
  return rowsResult(columns, rows);
}

/** ORDER BY lower(name), return type, argument types, function type, comparing as Trino's varchar does (by code point). */
function compareFunctionRows(a: FunctionRow, b: FunctionRow): number {
  const keys = (row: FunctionRow) => [row[0].toLowerCase(), row[1], row[2], row[3]];
  const [x, y] = [keys(a), keys(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/**
 * Whether SHOW FUNCTIONS FROM `schema` lists the built-in functions: they are system.builtin's, as
 * in Trino. Any other schema holds only the routines its catalog stores (function-statements.ts).
 */
function holdsBuiltins(schema: ast.QualifiedName, session: Session): boolean {
  const parts = schema.parts.map((p) => p.value.toLowerCase());
  if (parts.length > 2) throw new EngineError('SYNTAX_ERROR', `Too many parts in schema name: ${parts.join('.')}`, schema.location);
  const catalog = parts.length === 2 ? parts[0] : session.catalog;
  if (catalog === undefined)
    throw new EngineError('MISSING_CATALOG_NAME', 'Catalog must be specified when session catalog is not set', schema.location);
  return catalog === 'system' && parts[parts.length - 1] === 'builtin';
}

export function showSession(s: ast.ShowSession, session: Session, properties: SessionPropertyManager): StatementResult {
  const matches = likeMatcher(s.like, s.escape);
  const rows = properties
    .values(session)
    .filter((p) => matches(p.name))
    .map((p) => [p.name, p.value, p.defaultValue, p.type, p.description]);
  return rowsResult(varcharColumns('Name', 'Value', 'Default', 'Type', 'Description'), rows);
}

/** The table as its connector keeps it, in Trino's layout: columns with NOT NULL and comments, then the table's comment and properties. */
export async function showCreateTable(s: ast.ShowCreateTable, metadata: StatementMetadata): Promise<StatementResult> {
  const table = await metadata.table(s.table);
  if (table === undefined) {
    if ((await metadata.view(s.table)) === undefined) metadata.resolveTableOrFail(s.table);
    const q = qualifiedObjectName(s.table, metadata.session);
    throw new EngineError('NOT_SUPPORTED', `Relation '${q.catalog}.${q.schema}.${q.name}' is a view, not a table`, s.location);
  }
  const comment = (text: string | undefined) => (text === undefined ? '' : ` COMMENT ${formatStringLiteral(text)}`);
  const columns = table.columns.map(
    (c) =>
      `   ${quoteIdentifier(c.name)} ${typeName(c.type)}${c.defaultValue === undefined ? '' : ` DEFAULT ${c.defaultValue}`}${c.nullable === false ? ' NOT NULL' : ''}${comment(c.comment)}`,
  );
  let text = `CREATE TABLE ${table.catalog}.${table.schema}.${quoteIdentifier(table.name)} (\n${columns.join(',\n')}\n)`;
  if (table.comment !== undefined) text += `\nCOMMENT ${formatStringLiteral(table.comment)}`;
  const properties = Object.entries(table.properties ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  if (properties.length > 0)
    text += `\nWITH (\n${properties.map(([name, value]) => `   ${quoteIdentifier(name)} = ${propertyLiteral(value)}`).join(',\n')}\n)`;
  return rowsResult(varcharColumns('Create Table'), [[text]]);
}

function propertyLiteral(value: PropertyValue): string {
  if (Array.isArray(value)) return `ARRAY[${value.map(propertyLiteral).join(', ')}]`;
  return typeof value === 'string' ? formatStringLiteral(value) : String(value);
}

export function quoteIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}
