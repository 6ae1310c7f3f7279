// CREATE / DROP SCHEMA, CREATE TABLE [AS], INSERT, DELETE, DROP TABLE against connectors.

import { newColumnName, storedColumnName } from './column-names.js';
import type { ColumnMetadata, Connector, RowPredicate, TableMetadata } from '../../spi/connector.js';
import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { compileFilter } from '../../exec/expression/index.js';
import type { RowExpression, Symbol } from '../../sql/planner/row-expression.js';
import { toChannels } from '../../exec/local-execution-planner.js';
import type * as ast from '../../sql/parser/ast.js';
import { containsSubquery } from '../../sql/analyzer/ast-utils.js';
import { coerceToBoolean, translateExpression } from '../../sql/analyzer/expression-translator.js';
import { Scope } from '../../sql/analyzer/scope.js';
import { qualifiedObjectName, type QualifiedObjectName } from '../../sql/metadata/qualified-name.js';
import { schemaExists, type StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import { SymbolAllocator } from '../../sql/planner/symbols.js';
import { isStoreAssignable } from '../../types/coercion.js';
import { sqlTypeOf } from '../../sql/analyzer/type-spec.js';
import { typeName, typesEqual } from '../../types/types.js';
import type { Session } from '../../spi/session.js';
import type { OutputColumn, StatementResult } from '../../spi/statement-result.js';
import { rowCountResult, updateResult } from './results.js';
import type { QueryRunner } from './merge-statement.js';
import { perRowResults } from './row-subqueries.js';
import { checkedColumnDefault, omittedColumnValue } from './column-defaults.js';
import { isTrue } from '../../exec/operators/join-filter.js';
import { begun, writeLayout, type WriteRunner, type WriteStatement } from './write-statement.js';
import { evaluateProperties } from './property-values.js';
import { deleteWholePartitions } from './partition-delete.js';
import { deleteInPlace, type InPlaceConnector } from './in-place-row-change.js';

export async function createSchema(
  s: ast.CreateSchema,
  metadata: StatementMetadata,
  parameters: readonly RowExpression[],
): Promise<StatementResult> {
  const session = metadata.session;
  const { catalog, schema, connector } = schemaTarget(s.name, metadata);
  if (await schemaExists(connector, session, schema)) {
    if (s.notExists) return updateResult('CREATE SCHEMA');
    throw new EngineError('ALREADY_EXISTS', `Schema '${catalog}.${schema}' already exists`, s.name.location);
  }
  const properties = evaluateProperties(
    s.properties,
    { catalog, object: 'schema', declared: connector.properties?.schema ?? [] },
    session,
    parameters,
  );
  if (!connector.createSchema) throw new EngineError('NOT_SUPPORTED', `This connector does not support creating schemas`, s.location);
  await connector.createSchema(session, schema, properties);
  return updateResult('CREATE SCHEMA');
}

export async function dropSchema(s: ast.DropSchema, metadata: StatementMetadata): Promise<StatementResult> {
  const session = metadata.session;
  const { catalog, schema, connector } = schemaTarget(s.name, metadata);
  if (!(await schemaExists(connector, session, schema))) {
    if (s.exists) return updateResult('DROP SCHEMA');
    throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${catalog}.${schema}' does not exist`, s.name.location);
  }
  if (!connector.dropSchema) throw new EngineError('NOT_SUPPORTED', `This connector does not support dropping schemas`, s.location);
  await connector.dropSchema(session, schema, s.cascade);
  return updateResult('DROP SCHEMA');
}

export function schemaTarget(
  name: ast.QualifiedName,
  metadata: StatementMetadata,
): { catalog: string; schema: string; connector: Connector } {
  const parts = name.parts.map((p) => p.value);
  if (parts.length > 2) throw new EngineError('SYNTAX_ERROR', `Too many parts in schema name: ${parts.join('.')}`, name.location);
  const catalog = parts.length === 2 ? parts[0] : metadata.session.catalog;
  if (!catalog) throw new EngineError('MISSING_CATALOG_NAME', 'Catalog must be specified when session catalog is not set', name.location);
  const schema = parts[parts.length - 1];
  return { catalog, schema, connector: metadata.connector(catalog, name.location) };
}

/** The connector and name of a table to create, checking that it does not exist yet. */
async function newTableTarget(
  name: ast.QualifiedName,
  metadata: StatementMetadata,
): Promise<{ target: QualifiedObjectName; connector: Connector; exists: boolean }> {
  const target = qualifiedObjectName(name, metadata.session);
  const connector = metadata.connector(target.catalog, name.location);
  // A view holds its name too.
  return { target, connector, exists: (await metadata.table(name)) !== undefined || (await metadata.view(name)) !== undefined };
}

function alreadyExists(target: QualifiedObjectName, location: SourceLocation): EngineError {
  return new EngineError('ALREADY_EXISTS', `Table '${target.catalog}.${target.schema}.${target.name}' already exists`, location);
}

/** The table properties of a new table in `target`'s catalog, from its WITH clause. */
function tableProperties(
  s: ast.CreateTable | ast.CreateTableAsSelect,
  target: QualifiedObjectName,
  connector: Connector,
  session: Session,
  parameters: readonly RowExpression[],
) {
  return evaluateProperties(
    s.properties,
    { catalog: target.catalog, object: 'table', declared: connector.properties?.table ?? [] },
    session,
    parameters,
  );
}

export async function createTable(
  s: ast.CreateTable,
  metadata: StatementMetadata,
  parameters: readonly RowExpression[],
): Promise<StatementResult> {
  const session = metadata.session;
  const { target, connector, exists } = await newTableTarget(s.name, metadata);
  if (exists) {
    if (s.notExists) return updateResult('CREATE TABLE');
    throw alreadyExists(target, s.name.location);
  }
  const seen = new Set<string>();
  const columns: ColumnMetadata[] = s.columns.map((c) => {
    if (seen.has(newColumnName(c.name.value)))
      throw new EngineError('DUPLICATE_COLUMN_NAME', `Column name '${c.name.value}' specified more than once`, c.location);
    seen.add(newColumnName(c.name.value));
    return columnMetadata(c, target.catalog, connector, session, parameters);
  });
  const properties = tableProperties(s, target, connector, session, parameters);
  if (!connector.createTable) throw new EngineError('NOT_SUPPORTED', 'This connector does not support creating tables', s.location);
  if (columns.length === 0 && !connector.infersTableColumns)
    throw new EngineError(
      'NOT_SUPPORTED',
      `Catalog '${target.catalog}' cannot read a table's columns from its data: CREATE TABLE needs a column list`,
      s.location,
    );
  await connector.createTable(session, {
    catalog: target.catalog,
    schema: target.schema,
    name: target.name,
    columns,
    comment: s.comment,
    properties,
  });
  return updateResult('CREATE TABLE');
}

/** A column as a statement defines it (CREATE TABLE, ALTER TABLE ... ADD COLUMN), with its properties. */
export function columnMetadata(
  c: ast.ColumnDefinition,
  catalog: string,
  connector: Connector,
  session: Session,
  parameters: readonly RowExpression[],
): ColumnMetadata {
  const type = sqlTypeOf(c.type);
  const defaultValue = checkedColumnDefault(c, type, catalog, connector, session);
  const properties = evaluateProperties(
    c.properties ?? [],
    { catalog, object: 'column', declared: connector.properties?.column ?? [] },
    session,
    parameters,
  );
  return {
    name: newColumnName(c.name.value),
    type,
    nullable: c.nullable,
    comment: c.comment,
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
    ...(defaultValue === undefined ? {} : { defaultValue }),
  };
}

/**
 * CREATE TABLE AS: the table's columns are the query's (or its aliases); its rows are written by the
 * plan's writers and the table appears, whole, when the write commits.
 */
export async function createTableAsSelect(
  s: ast.CreateTableAsSelect,
  metadata: StatementMetadata,
  parameters: readonly RowExpression[],
  runWrite: WriteRunner,
): Promise<StatementResult> {
  const { target, exists } = await newTableTarget(s.name, metadata);
  if (exists) {
    if (s.notExists) return rowCountResult('CREATE TABLE', 0);
    throw alreadyExists(target, s.name.location);
  }
  return rowCountResult('CREATE TABLE', await runWrite(await createTableAsSelectWrite(s, metadata, parameters)));
}

/** The write of a CREATE TABLE AS (also for EXPLAIN, which begins none). */
export async function createTableAsSelectWrite(
  s: ast.CreateTableAsSelect,
  metadata: StatementMetadata,
  parameters: readonly RowExpression[],
): Promise<WriteStatement> {
  const session = metadata.session;
  const { target, connector, exists } = await newTableTarget(s.name, metadata);
  if (exists) throw alreadyExists(target, s.name.location);
  const properties = tableProperties(s, target, connector, session, parameters);
  if (!connector.createTable || !connector.beginCreateTable || !connector.finishCreateTable) {
    throw new EngineError('NOT_SUPPORTED', 'This connector does not support creating tables with data', s.location);
  }
  const aliases = s.columnAliases?.map((a) => a.value);
  const tableOf = (columns: readonly OutputColumn[]): TableMetadata => {
    if (aliases && aliases.length !== columns.length) {
      throw new EngineError('MISMATCHED_COLUMN_ALIASES', 'Column alias list has different number of entries than the query', s.location);
    }
    const tableColumns: ColumnMetadata[] = columns.map((c, i) => {
      const name = newColumnName(aliases ? aliases[i] : c.name);
      if (/^_col\d+$/.test(name) && !aliases)
        throw new EngineError('MISSING_COLUMN_NAME', `Column name not specified at position ${i + 1}`, s.query.location);
      if (c.type.kind === 'unknown')
        throw new EngineError('COLUMN_TYPE_UNKNOWN', `Column type is unknown at position ${i + 1}`, s.query.location);
      return { name, type: c.type };
    });
    const names = new Set<string>();
    for (const m of tableColumns) {
      if (names.has(m.name)) throw new EngineError('DUPLICATE_COLUMN_NAME', `Column name '${m.name}' specified more than once`, s.location);
      names.add(m.name);
    }
    return { catalog: target.catalog, schema: target.schema, name: target.name, columns: tableColumns, comment: s.comment, properties };
  };
  return {
    query: s.query,
    withData: s.withData,
    layout: (columns) =>
      writeLayout(
        'create',
        connector,
        tableOf(columns),
        columns.map((_, i) => i),
        columns,
      ),
    begin: async (layout) => begun(connector, session, layout, await connector.beginCreateTable!(session, tableOf(layout.queryColumns))),
  };
}

export async function insert(s: ast.InsertStatement, metadata: StatementMetadata, runWrite: WriteRunner): Promise<StatementResult> {
  return rowCountResult('INSERT', await runWrite(await insertWrite(s, metadata)));
}

/** The write of an INSERT (also for EXPLAIN, which begins none). */
export async function insertWrite(s: ast.InsertStatement, metadata: StatementMetadata): Promise<WriteStatement> {
  const session = metadata.session;
  const table = await modifiedTable(s.target, metadata, 'Inserting into', s.location, s.branch);
  const connector = metadata.connector(table.catalog);
  if (!connector.beginInsert || !connector.finishInsert)
    throw new EngineError('NOT_SUPPORTED', 'This connector does not support inserts', s.location);
  const targetColumns = s.columns
    ? s.columns.map((c) => {
        const stored = storedColumnName(table, c.value);
        const column = table.columns.find((tc) => tc.name === stored);
        if (!column)
          throw new EngineError(
            'COLUMN_NOT_FOUND',
            `Insert column name does not exist in target table: ${newColumnName(c.value)}`,
            c.location,
          );
        return column;
      })
    : table.columns;
  if (new Set(targetColumns.map((c) => c.name)).size !== targetColumns.length) {
    throw new EngineError('DUPLICATE_COLUMN_NAME', 'Insert column name is specified more than once', s.location);
  }
  const unusable = table.columns.find((c) => c.type.kind === 'unsupported');
  if (unusable !== undefined) {
    throw new EngineError(
      'NOT_SUPPORTED',
      `Cannot insert into a table with column '${unusable.name}' of type ${typeName(unusable.type)}, which is not supported yet`,
      s.location,
    );
  }
  return {
    query: s.query,
    coerceTo: targetColumns,
    withData: true,
    layout: (columns) => {
      if (
        columns.length !== targetColumns.length ||
        columns.some((c, i) => !typesEqual(c.type, targetColumns[i].type) && !isStoreAssignable(c.type, targetColumns[i].type))
      ) {
        throw new EngineError(
          'TYPE_MISMATCH',
          `Insert query has mismatched column types: Table: [${targetColumns.map((c) => typeName(c.type)).join(', ')}], Query: [${columns.map((c) => typeName(c.type)).join(', ')}]`,
          s.query.location,
        );
      }
      // Columns the statement does not name get their default, else NULL.
      const sources = table.columns.map((c) => targetColumns.findIndex((t) => t.name === c.name));
      const omitted = table.columns.map((c, i) => (sources[i] === -1 ? omittedColumnValue(c, session) : undefined));
      return { ...writeLayout('insert', connector, table, sources, columns), omitted };
    },
    begin: async (layout) => begun(connector, session, layout, await connector.beginInsert!(session, table)),
  };
}

export async function deleteRows(
  s: ast.DeleteStatement,
  metadata: StatementMetadata,
  parameters: readonly RowExpression[],
  runQuery: QueryRunner,
): Promise<StatementResult> {
  const session = metadata.session;
  const table = await modifiedTable(s.table, metadata, 'Deleting from', s.location, s.branch);
  const connector = metadata.connector(table.catalog);
  if (connector.deletePartitions) return deleteWholePartitions(s, table, connector, session, parameters);
  if (connector.applyRowChange) {
    const made = await deleteInPlace(s, { table, connector: connector as InPlaceConnector, session, parameters });
    if (made !== undefined) return made;
  }
  if (!connector.deleteRows) throw cannotChangeRows(connector, s.location);
  const predicate =
    s.where !== undefined && containsSubquery(s.where)
      ? await selectedRows(s.table, s.where, table, runQuery)
      : rowPredicate(s.where, table, session, parameters, 'DELETE');
  const count = await connector.deleteRows(session, table.schema, table.name, predicate);
  return rowCountResult('DELETE', count);
}

/**
 * The table an INSERT, DELETE, UPDATE or MERGE changes: one that exists, not a view (`verb` says what
 * Trino refuses for one). No connector here has table branches (`t @ branch`, an Iceberg feature):
 * Trino's error for a connector without them is that the branch does not exist.
 */
export async function modifiedTable(
  name: ast.QualifiedName,
  metadata: StatementMetadata,
  verb: string,
  statement: SourceLocation,
  branch?: ast.Identifier,
): Promise<TableMetadata> {
  const table = await metadata.table(name);
  if (table === undefined && (await metadata.view(name)) !== undefined)
    throw new EngineError('NOT_SUPPORTED', `${verb} views is not supported`, statement);
  if (branch !== undefined) throw new EngineError('BRANCH_NOT_FOUND', `Branch '${branch.value}' does not exist`, statement);
  return table ?? metadata.resolveTableOrFail(name);
}

/** The error of a statement that changes rows of a table whose catalog cannot. */
export function cannotChangeRows(connector: Connector, location: SourceLocation): EngineError {
  return new EngineError('NOT_SUPPORTED', connector.rowChangeRefusal ?? 'This connector does not support modifying table rows', location);
}

/** The rows a WHERE selects (all rows without one), over pages of the table's columns. */
export function rowPredicate(
  where: ast.Expression | undefined,
  table: TableMetadata,
  session: Session,
  parameters: readonly RowExpression[],
  statement: string,
): RowPredicate {
  if (!where) return (page) => new Uint8Array(page.rowCount).fill(1);
  const { expression, symbols } = deleteCondition(where, table, session, parameters, statement);
  return compiledPredicate(expression, symbols);
}

/** A boolean expression over `symbols` as a predicate over pages whose columns are those symbols' values, in order. */
export function compiledPredicate(expression: RowExpression, symbols: readonly Symbol[]): RowPredicate {
  const filter = compileFilter(
    toChannels(expression, symbols, new Map()),
    symbols.map((s) => s.type),
  );
  return (page) => {
    const mask = new Uint8Array(page.rowCount);
    const { positions, count } = filter(page);
    for (let i = 0; i < count; i++) mask[positions[i]] = 1;
    return mask;
  };
}

/** The rows a WHERE with subqueries selects, found by a query over the table (row-subqueries.ts). */
export async function selectedRows(
  tableName: ast.QualifiedName,
  where: ast.Expression,
  table: TableMetadata,
  runQuery: QueryRunner,
): Promise<RowPredicate> {
  const perRow = await perRowResults(tableName, table, [where], runQuery);
  const selected = table.columns.length;
  const type = perRow.types[selected];
  if (type.kind === 'unknown') return (page) => new Uint8Array(page.rowCount);
  if (type.kind !== 'boolean')
    throw new EngineError('TYPE_MISMATCH', `WHERE clause must evaluate to a boolean: actual type ${typeName(type)}`, where.location);
  return (page) => {
    const results = perRow.rowsOf(page).columns[selected];
    const mask = new Uint8Array(page.rowCount);
    for (let row = 0; row < page.rowCount; row++) mask[row] = isTrue(results, row) ? 1 : 0;
    return mask;
  };
}

/** The table's columns as the fields of a statement's expressions (`symbols`, in table order). */
export function tableFields(table: TableMetadata): { scope: Scope; symbols: Symbol[] } {
  const allocator = new SymbolAllocator();
  const fields = table.columns.map((c) => ({
    name: c.name,
    qualifier: [table.catalog, table.schema, table.name],
    symbol: allocator.newSymbol(c.name, c.type),
  }));
  return { scope: new Scope(fields), symbols: fields.map((f) => f.symbol) };
}

/** A DELETE's or UPDATE's WHERE over the table's columns (`symbols`, in table order), as a boolean expression. */
export function deleteCondition(
  where: ast.Expression,
  table: TableMetadata,
  session: Session,
  parameters: readonly RowExpression[],
  statement = 'DELETE',
): { expression: RowExpression; symbols: Symbol[] } {
  if (containsSubquery(where)) throw new EngineError('NOT_SUPPORTED', `Subqueries in ${statement} are not supported`, where.location);
  const { scope, symbols } = tableFields(table);
  const expression = coerceToBoolean(translateExpression(where, { scope, session, parameters }), 'WHERE clause', where.location);
  return { expression, symbols };
}

export async function dropTable(s: ast.DropTable, metadata: StatementMetadata): Promise<StatementResult> {
  const session = metadata.session;
  const table = await metadata.table(s.name);
  if (!table) {
    const q = qualifiedObjectName(s.name, session);
    if ((await metadata.view(s.name)) !== undefined) {
      const name = `${q.catalog}.${q.schema}.${q.name}`;
      throw new EngineError(
        'GENERIC_USER_ERROR',
        `Table '${name}' does not exist, but a view with that name exists. Did you mean DROP VIEW ${name}?`,
        s.location,
      );
    }
    if (s.exists) return updateResult('DROP TABLE');
    throw new EngineError('TABLE_NOT_FOUND', `Table '${q.catalog}.${q.schema}.${q.name}' does not exist`, s.name.location);
  }
  const connector = metadata.connector(table.catalog);
  if (!connector.dropTable) throw new EngineError('NOT_SUPPORTED', 'This connector does not support dropping tables', s.location);
  await connector.dropTable(session, table.schema, table.name);
  return updateResult('DROP TABLE');
}

export async function truncateTable(s: ast.TruncateTable, metadata: StatementMetadata): Promise<StatementResult> {
  const table = await metadata.table(s.table);
  if (table === undefined && (await metadata.view(s.table)) !== undefined)
    throw new EngineError('NOT_SUPPORTED', 'Cannot truncate a view', s.location);
  const target = table ?? metadata.resolveTableOrFail(s.table);
  const connector = metadata.connector(target.catalog);
  if (connector.truncateTable) {
    await connector.truncateTable(metadata.session, target.schema, target.name);
    return updateResult('TRUNCATE TABLE');
  }
  if (!connector.deleteRows) throw new EngineError('NOT_SUPPORTED', 'This connector does not support truncating tables', s.location);
  await connector.deleteRows(metadata.session, target.schema, target.name, (page) => new Uint8Array(page.rowCount).fill(1));
  return updateResult('TRUNCATE TABLE');
}
