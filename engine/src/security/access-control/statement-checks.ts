// What a statement needs beyond reading tables (which analysis checks, also for SHOW STATS and
// DESCRIBE OUTPUT, whose queries it analyzes): the privilege on its target table, view or schema,
// with Trino's denial for each statement (its file-based access control's table of "permissions
// required for each SQL command").

import type * as ast from '../../sql/parser/ast.js';
import { qualifiedObjectName, renameTarget, type QualifiedObjectName } from '../../sql/metadata/qualified-name.js';
import type { Session } from '../../spi/session.js';
import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { expressionChildren } from '../../sql/analyzer/ast-utils.js';
import { tableText } from './access-denied.js';
import type { FileAccessControl } from './file-access-control.js';

export function checkStatement(access: FileAccessControl, statement: ast.Statement, session: Session): void {
  const user = session.user;
  const name = (n: ast.QualifiedName) => qualifiedObjectName(n, session);
  const owns = (n: ast.QualifiedName, denial: (t: string) => string) => {
    const table = name(n);
    access.checkTablePrivilege(user, table, 'OWNERSHIP', denial(tableText(table)));
  };
  switch (statement.kind) {
    case 'Explain':
      return checkStatement(access, statement.statement, session);
    case 'Use': {
      const catalog = statement.catalog?.value ?? session.catalog;
      if (catalog !== undefined) access.checkCanAccessCatalog(user, catalog);
      return; // without a catalog, the statement names what is missing
    }
    case 'SetSession': {
      const property = statement.name.parts.map((p) => p.value).join('.');
      if (statement.name.parts.length === 1) access.checkCanSetSystemSessionProperty(user, property);
      return;
    }
    case 'QueryStatement':
      // WITH SESSION sets system properties as SET SESSION does.
      for (const p of statement.session?.properties ?? [])
        if (p.name.parts.length === 1) access.checkCanSetSystemSessionProperty(user, p.name.parts[0].value);
      return;
    case 'ShowSchemas': {
      const catalog = statement.catalog?.value ?? session.catalog;
      if (catalog === undefined) return; // the statement names the missing catalog
      access.checkCanAccessCatalog(user, catalog);
      return access.checkCanShowSchemas(user, catalog);
    }
    case 'ShowTables': {
      const parts = statement.schema?.parts.map((p) => p.value) ?? [];
      const catalog = parts.length === 2 ? parts[0] : session.catalog;
      const schema = parts.length >= 1 ? parts[parts.length - 1] : session.schema;
      if (catalog === undefined || schema === undefined) return;
      access.checkCanAccessCatalog(user, catalog);
      return access.checkCanShowTables(user, catalog, schema);
    }
    case 'ShowColumns': {
      const table = name(statement.table);
      access.checkCanAccessCatalog(user, table.catalog);
      return access.checkCanShowColumns(user, table);
    }
    case 'ShowCreateTable':
      return owns(statement.table, (t) => `Cannot show create table for ${t}`);
    case 'ShowCreate':
      if (statement.target === 'SCHEMA')
        return ownsSchema(access, user, schemaName(statement.name, session), (s) => `Cannot show create schema for ${s}`);
      return owns(statement.name, (t) => `Cannot show create table for ${t}`);
    case 'CreateSchema':
      return ownsSchema(access, user, schemaName(statement.name, session), (s) => `Cannot create schema ${s}`);
    case 'DropSchema':
      return ownsSchema(access, user, schemaName(statement.name, session), (s) => `Cannot drop schema ${s}`);
    case 'CreateTable':
    case 'CreateTableAsSelect':
      return owns(statement.name, (t) => `Cannot create table ${t}`);
    case 'DropTable':
      return owns(statement.name, (t) => `Cannot drop table ${t}`);
    case 'RenameTable':
      return ownsBoth(access, user, name(statement.source), statement.target, (from, to) => `Cannot rename table from ${from} to ${to}`);
    case 'SetProperties':
      return owns(statement.name, (t) => `Cannot set table properties to ${t}`);
    case 'Comment':
      if (statement.target === 'COLUMN') {
        const parts = statement.name.parts;
        return owns({ ...statement.name, parts: parts.slice(0, -1) }, (t) => `Cannot comment column to ${t}`);
      }
      return owns(statement.name, (t) => (statement.target === 'VIEW' ? `Cannot comment view to ${t}` : `Cannot comment table to ${t}`));
    case 'AddColumn':
      return owns(statement.table, (t) => `Cannot add a column to table ${t}`);
    case 'DropColumn':
      return owns(statement.table, (t) => `Cannot drop a column from table ${t}`);
    case 'RenameColumn':
      return owns(statement.table, (t) => `Cannot rename a column in table ${t}`);
    case 'SetColumnType':
      return owns(statement.table, (t) => `Cannot alter a column for table ${t}`);
    case 'CreateView':
      return owns(statement.name, (t) => `Cannot create view ${t}`);
    case 'DropView':
      return owns(statement.name, (t) => `Cannot drop view ${t}`);
    case 'RenameView':
      return ownsBoth(access, user, name(statement.source), statement.target, (from, to) => `Cannot rename view from ${from} to ${to}`);
    case 'Insert':
      return writes(access, user, name(statement.target), 'insert', [], statement.location);
    case 'Delete': {
      const table = name(statement.table);
      writes(access, user, table, 'delete', [], statement.location);
      return checkReadsOf(access, user, table, statement.where === undefined ? [] : [statement.where]);
    }
    case 'TruncateTable': {
      const table = name(statement.table);
      return access.checkTablePrivilege(user, table, 'DELETE', `Cannot truncate table ${tableText(table)}`);
    }
    case 'Update': {
      const table = name(statement.table);
      writes(access, user, table, 'update', statement.assignments, statement.location);
      return checkReadsOf(access, user, table, [
        ...statement.assignments.map((a) => a.value),
        ...(statement.where === undefined ? [] : [statement.where]),
      ]);
    }
    case 'Merge': {
      const table = name(statement.target);
      for (const c of statement.cases) {
        if (c.kind === 'MergeInsert') writes(access, user, table, 'insert');
        else if (c.kind === 'MergeDelete') writes(access, user, table, 'delete');
        else writes(access, user, table, 'update', c.assignments);
      }
      return refuseRestricted(access, user, table, 'merge', statement.location);
    }
    default:
      return;
  }
}

type RowChange = 'insert' | 'delete' | 'update' | 'merge';

/** The privilege a change needs, and (but for a MERGE's cases) no row filter or column mask on the table for the user. */
function writes(
  access: FileAccessControl,
  user: string,
  table: QualifiedObjectName,
  change: Exclude<RowChange, 'merge'>,
  assignments: readonly ast.UpdateAssignment[] = [],
  location?: SourceLocation,
): void {
  const text = tableText(table);
  if (change === 'insert') access.checkTablePrivilege(user, table, 'INSERT', `Cannot insert into table ${text}`);
  else if (change === 'delete') access.checkTablePrivilege(user, table, 'DELETE', `Cannot delete from table ${text}`);
  else if (change === 'update') {
    const columns = [...new Set(assignments.map((a) => a.column.value))];
    access.checkTablePrivilege(user, table, 'UPDATE', `Cannot update columns [${columns.join(', ')}] in table ${text}`);
  }
  if (location !== undefined) refuseRestricted(access, user, table, change, location);
}

function refuseRestricted(
  access: FileAccessControl,
  user: string,
  table: QualifiedObjectName,
  change: RowChange,
  location: SourceLocation,
): void {
  const { filter, masks } = access.restrictions(user, table);
  const refusal = filter !== undefined ? ROW_FILTER_REFUSALS[change] : masks.size > 0 ? COLUMN_MASK_REFUSALS[change] : undefined;
  if (refusal !== undefined) throw new EngineError('NOT_SUPPORTED', refusal, location);
}

/** Changing rows the reader may not see, or writing where they see masks, is refused (Trino's wording where it refuses). */
const ROW_FILTER_REFUSALS = {
  insert: 'Insert into table with a row filter is not supported',
  delete: 'Deleting from a table with a row filter is not supported',
  update: 'Updating a table with a row filter is not supported',
  merge: 'Cannot merge into a table with row filters',
};
const COLUMN_MASK_REFUSALS = {
  insert: 'Insert into table with column masks is not supported',
  delete: 'Deleting from a table with column masks is not supported',
  update: 'Updating a table with column masks is not supported',
  merge: 'Cannot merge into a table with column masks',
};

/**
 * The columns a DELETE's or UPDATE's expressions read need SELECT, as in Trino (else the count of rows
 * changed would tell values of columns the user may not read). Every name the expressions use counts.
 */
function checkReadsOf(access: FileAccessControl, user: string, table: QualifiedObjectName, expressions: readonly ast.Expression[]): void {
  const names = new Set<string>();
  const visit = (e: ast.Expression): void => {
    if (e.kind === 'Identifier') names.add(e.value);
    else if (e.kind === 'Dereference') names.add(e.field.value);
    expressionChildren(e).forEach(visit);
  };
  expressions.forEach(visit);
  if (names.size > 0) access.checkCanSelectFromColumns(user, table, [...names]);
}

function ownsBoth(
  access: FileAccessControl,
  user: string,
  source: QualifiedObjectName,
  target: ast.QualifiedName,
  denial: (from: string, to: string) => string,
): void {
  const to = renameTarget(source, target).name;
  const message = denial(tableText(source), tableText(to));
  access.checkTablePrivilege(user, source, 'OWNERSHIP', message);
  access.checkTablePrivilege(user, to, 'OWNERSHIP', message);
}

function ownsSchema(
  access: FileAccessControl,
  user: string,
  schema: { catalog: string; schema: string },
  denial: (s: string) => string,
): void {
  access.checkCanAccessCatalog(user, schema.catalog);
  access.checkSchemaOwnership(user, schema.catalog, schema.schema, denial(`${schema.catalog}.${schema.schema}`));
}

function schemaName(name: ast.QualifiedName, session: Session): { catalog: string; schema: string } {
  const parts = name.parts.map((p) => p.value);
  const catalog = parts.length >= 2 ? parts[parts.length - 2] : session.catalog;
  if (catalog === undefined)
    throw new EngineError('MISSING_CATALOG_NAME', 'Catalog must be specified when session catalog is not set', name.location);
  return { catalog, schema: parts[parts.length - 1] };
}

/** Before any statement runs: the user may execute queries, and may set the system session properties the client sent. */
export function checkQuerySession(access: FileAccessControl, session: Session): void {
  access.checkCanExecuteQuery(session.user);
  for (const property of session.properties.keys()) {
    if (!property.includes('.')) access.checkCanSetSystemSessionProperty(session.user, property);
  }
}
