// ALTER TABLE ... ADD / DROP / RENAME COLUMN, RENAME TO, SET PROPERTIES and COMMENT ON TABLE /
// VIEW / COLUMN, with Trino's checks and messages; the connector makes the change (table-change.ts).

import { EngineError, locatedAsync, type SourceLocation } from '../../errors/engine-error.js';
import type { Connector, TableMetadata } from '../../spi/connector.js';
import type { StatementResult } from '../../spi/statement-result.js';
import { TABLE_CHANGE_NAMES, type TableChange } from '../../spi/table-change.js';
import { qualifiedObjectName, renameTarget } from '../../sql/metadata/qualified-name.js';
import type { StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import type * as ast from '../../sql/parser/ast.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { newColumnName, storedColumnName } from './column-names.js';
import { columnMetadata } from './ddl-statements.js';
import { evaluateProperties } from './property-values.js';
import { updateResult } from './results.js';

type AlterStatement = ast.AddColumn | ast.DropColumn | ast.RenameColumn | ast.RenameTable | ast.SetProperties | ast.DropNotNullConstraint;

/** The update type each statement reports, as Trino's. */
const UPDATE_TYPES: Readonly<Record<AlterStatement['kind'], string>> = {
  AddColumn: 'ADD COLUMN',
  DropColumn: 'DROP COLUMN',
  RenameColumn: 'RENAME COLUMN',
  RenameTable: 'RENAME TABLE',
  SetProperties: 'SET PROPERTIES',
  DropNotNullConstraint: 'DROP NOT NULL',
};

export async function alterTable(
  s: AlterStatement,
  metadata: StatementMetadata,
  parameters: readonly RowExpression[],
): Promise<StatementResult> {
  const name = s.kind === 'RenameTable' ? s.source : s.kind === 'SetProperties' ? s.name : s.table;
  const updateType = UPDATE_TYPES[s.kind];
  const table = await metadata.table(name);
  if (table === undefined) {
    if (s.kind === 'SetProperties') {
      if ((await metadata.view(name)) !== undefined)
        throw new EngineError('NOT_SUPPORTED', 'Cannot set properties to a view in ALTER TABLE', s.location);
      const q = qualifiedObjectName(name, metadata.session);
      throw new EngineError('TABLE_NOT_FOUND', `Table does not exist: ${q.catalog}.${q.schema}.${q.name}`, s.location);
    }
    if (s.tableExists) return updateResult(updateType);
    const q = qualifiedObjectName(name, metadata.session);
    throw new EngineError('TABLE_NOT_FOUND', `Table '${q.catalog}.${q.schema}.${q.name}' does not exist`, s.location);
  }
  const connector = metadata.connector(table.catalog);
  const change = await tableChange(s, table, connector, metadata, parameters);
  if (change !== undefined) await alter(connector, metadata, table, change, s.location);
  return updateResult(updateType);
}

/** The change the statement asks for; undefined when there is nothing to do (IF [NOT] EXISTS). */
async function tableChange(
  s: AlterStatement,
  table: TableMetadata,
  connector: Connector,
  metadata: StatementMetadata,
  parameters: readonly RowExpression[],
): Promise<TableChange | undefined> {
  const stored = (column: string) => storedColumnName(table, column);
  const has = (column: string) => stored(column) !== undefined;
  switch (s.kind) {
    case 'AddColumn': {
      const definition = s.column;
      if (definition.fieldPath !== undefined && definition.fieldPath.length > 0)
        throw new EngineError('NOT_SUPPORTED', 'Adding fields of row columns is not supported', s.location);
      // Trino's order: the name, the column's definition, the AFTER column, then the connector (which places columns last only).
      if (has(definition.name.value)) {
        if (s.columnNotExists) return undefined;
        throw new EngineError('COLUMN_ALREADY_EXISTS', `Column '${definition.name.value}' already exists`, s.location);
      }
      const column = columnMetadata(definition, table.catalog, connector, metadata.session, parameters);
      // (Trino's message, its missing word included.)
      if (s.position?.kind === 'AFTER' && !has(s.position.column.value))
        throw new EngineError('COLUMN_NOT_FOUND', `Column '${s.position.column.value}' does not`, s.location);
      if (s.position !== undefined && s.position.kind !== 'LAST')
        throw new EngineError('NOT_SUPPORTED', `This connector does not support adding columns with ${s.position.kind} clause`, s.location);
      return { kind: 'addColumn', column };
    }
    case 'DropColumn': {
      const named = simpleColumn(s.column, s.location);
      const column = stored(named);
      if (column === undefined) {
        if (s.columnExists) return undefined;
        throw new EngineError('COLUMN_NOT_FOUND', `Column '${named}' does not exist`, s.location);
      }
      if (table.columns.length === 1) throw new EngineError('NOT_SUPPORTED', 'Cannot drop the only column in a table', s.location);
      return { kind: 'dropColumn', column };
    }
    case 'RenameColumn': {
      const named = simpleColumn(s.source, s.location);
      const column = stored(named);
      const to = newColumnName(s.target.value);
      if (column === undefined) {
        if (s.columnExists) return undefined;
        throw new EngineError('COLUMN_NOT_FOUND', `Column '${named}' does not exist`, s.location);
      }
      if (has(to)) throw new EngineError('COLUMN_ALREADY_EXISTS', `Column '${to}' already exists`, s.location);
      return { kind: 'renameColumn', column, to };
    }
    case 'RenameTable': {
      const { name: target, qualified: targetName } = renameTarget(table, s.target);
      const qualified = `${target.catalog}.${target.schema}.${target.name}`;
      if (metadata.catalogs.get(target.catalog) === undefined)
        throw new EngineError('CATALOG_NOT_FOUND', `Target catalog '${target.catalog}' not found`, s.location);
      if (target.catalog !== table.catalog)
        throw new EngineError('NOT_SUPPORTED', 'Table rename across catalogs is not supported', s.location);
      if ((await metadata.table(targetName)) !== undefined)
        throw new EngineError('TABLE_ALREADY_EXISTS', `Target table '${qualified}' already exists`, s.location);
      if ((await metadata.view(targetName)) !== undefined)
        throw new EngineError(
          'GENERIC_USER_ERROR',
          `Target table '${qualified}' does not exist, but a view with that name exists.`,
          s.location,
        );
      return { kind: 'rename', schema: target.schema, name: target.name };
    }
    case 'DropNotNullConstraint': {
      const column = table.columns.find((c) => c.name === s.column.value);
      if (column === undefined) throw new EngineError('COLUMN_NOT_FOUND', `Column '${s.column.value}' does not exist`, s.location);
      if (column.nullable !== false) throw new EngineError('NOT_SUPPORTED', 'Column is already nullable', s.location);
      return { kind: 'dropNotNull', column: column.name };
    }
    case 'SetProperties': {
      evaluateProperties(
        s.properties,
        { catalog: table.catalog, object: 'table', declared: connector.properties?.table ?? [] },
        metadata.session,
        parameters,
      );
      throw new EngineError('NOT_SUPPORTED', 'This connector does not support setting table properties', s.location);
    }
  }
}

/** A column of the table, not a field of a row column. */
function simpleColumn(name: ast.QualifiedName, location: SourceLocation): string {
  if (name.parts.length > 1) throw new EngineError('NOT_SUPPORTED', 'Changing fields of row columns is not supported', location);
  return name.parts[0].value;
}

async function alter(
  connector: Connector,
  metadata: StatementMetadata,
  table: TableMetadata,
  change: TableChange,
  location: SourceLocation,
): Promise<void> {
  if (!connector.alterTable)
    throw new EngineError('NOT_SUPPORTED', `This connector does not support ${TABLE_CHANGE_NAMES[change.kind]}`, location);
  await locatedAsync(location, () => connector.alterTable!(metadata.session, table.schema, table.name, change));
}

/** COMMENT ON TABLE / VIEW / COLUMN ... IS 'text' | NULL. */
export async function comment(s: ast.CommentStatement, metadata: StatementMetadata): Promise<StatementResult> {
  const text = s.comment ?? undefined;
  if (s.target === 'COLUMN') return commentOnColumn(s, metadata, text);
  const q = qualifiedObjectName(s.name, metadata.session);
  const qualified = `${q.catalog}.${q.schema}.${q.name}`;
  const table = await metadata.table(s.name);
  const view = table === undefined ? await metadata.view(s.name) : undefined;
  if (s.target === 'TABLE') {
    if (view !== undefined)
      throw new EngineError(
        'TABLE_NOT_FOUND',
        `Table '${qualified}' does not exist, but a view with that name exists. Did you mean COMMENT ON VIEW ${qualified} IS ...?`,
        s.location,
      );
    if (table === undefined) throw new EngineError('TABLE_NOT_FOUND', `Table does not exist: ${qualified}`, s.location);
    await alter(metadata.connector(table.catalog), metadata, table, { kind: 'setComment', comment: text }, s.location);
    return updateResult('COMMENT');
  }
  if (view === undefined) {
    const more = table === undefined ? '' : `, but a table with that name exists. Did you mean COMMENT ON TABLE ${qualified} IS ...?`;
    throw new EngineError('TABLE_NOT_FOUND', `View '${qualified}' does not exist${more}`, s.location);
  }
  const { comment: _old, ...rest } = view;
  await replaceView(metadata, q, text === undefined ? rest : { ...rest, comment: text }, s.location);
  return updateResult('COMMENT');
}

async function commentOnColumn(s: ast.CommentStatement, metadata: StatementMetadata, text: string | undefined): Promise<StatementResult> {
  if (s.name.parts.length < 2) throw new EngineError('MISSING_TABLE', 'Table must be specified', s.location);
  const prefix: ast.QualifiedName = { ...s.name, parts: s.name.parts.slice(0, -1) };
  const column = s.name.parts[s.name.parts.length - 1].value;
  const q = qualifiedObjectName(prefix, metadata.session);
  const table = await metadata.table(prefix);
  if (table === undefined) {
    const view = await metadata.view(prefix);
    if (view === undefined)
      throw new EngineError('TABLE_NOT_FOUND', `Table does not exist: ${q.catalog}.${q.schema}.${q.name}`, s.location);
    const index = view.columns.findIndex((c) => c.name.toLowerCase() === column.toLowerCase());
    if (index === -1) throw new EngineError('COLUMN_NOT_FOUND', `Column does not exist: ${column}`, s.location);
    const columns = view.columns.map((c, i) => {
      if (i !== index) return c;
      const { comment: _old, ...rest } = c;
      return text === undefined ? rest : { ...rest, comment: text };
    });
    await replaceView(metadata, q, { ...view, columns }, s.location);
    return updateResult('COMMENT');
  }
  if (!table.columns.some((c) => c.name === column))
    throw new EngineError('COLUMN_NOT_FOUND', `Column does not exist: ${column}`, s.location);
  await alter(metadata.connector(table.catalog), metadata, table, { kind: 'setColumnComment', column, comment: text }, s.location);
  return updateResult('COMMENT');
}

/** A view's changed definition, stored over the old one. */
async function replaceView(
  metadata: StatementMetadata,
  q: { catalog: string; schema: string; name: string },
  view: Parameters<NonNullable<Connector['createView']>>[3],
  location: SourceLocation,
): Promise<void> {
  const connector = metadata.connector(q.catalog);
  if (!connector.createView) throw new EngineError('NOT_SUPPORTED', 'This connector does not support setting view comments', location);
  await connector.createView(metadata.session, q.schema, q.name, view, true);
}
