// SQL text of the statements that define or change schemas, tables, views, materialized views,
// branches, functions and catalogs, and of INSERT, DELETE, UPDATE, MERGE, TRUNCATE and CALL.

import type {
  ColumnDefinition,
  CreateIndex,
  CreateSchema,
  CreateTable,
  CreateTableAsSelect,
  DeleteStatement,
  DropSchema,
  DropTable,
  Identifier,
  InsertStatement,
  ManagementStatement,
  MergeCase,
  RoutineStatement,
  UpdateAssignment,
} from './ast.js';
import { formatIdentifier, formatIntervalLiteral, formatQualifiedName, formatStringLiteral, formatType } from './expression-formatter.js';
import {
  expressions,
  formatExpression,
  formatProperties,
  formatPropertyAssignments,
  formatQuery,
  formatRelation,
  list,
} from './formatter.js';
import { formatFunctionDeclaration, formatFunctionSpecification } from './routine-formatter.js';
import { principal } from './statement-formatter.js';

export type DefinitionStatement =
  | CreateSchema
  | DropSchema
  | CreateTable
  | CreateTableAsSelect
  | InsertStatement
  | DeleteStatement
  | DropTable
  | CreateIndex
  | ManagementStatement
  | RoutineStatement;

export function formatDefinitionStatement(s: DefinitionStatement): string {
  switch (s.kind) {
    case 'CreateSchema':
      return `CREATE SCHEMA ${ifNotExists(s.notExists)}${formatQualifiedName(s.name)}${s.authorization ? ` AUTHORIZATION ${principal(s.authorization)}` : ''}${formatProperties(s.properties)}`;
    case 'DropSchema':
      return `DROP SCHEMA ${ifExists(s.exists)}${formatQualifiedName(s.name)}${s.cascade ? ' CASCADE' : ''}`;
    case 'CreateTable': {
      const elements = [
        ...s.columns.map(columnDefinition),
        ...(s.likeClauses ?? []).map((l) => `LIKE ${formatQualifiedName(l.table)}${l.properties ? ` ${l.properties} PROPERTIES` : ''}`),
      ];
      return `${create(s.replace)}TABLE ${ifNotExists(s.notExists)}${formatQualifiedName(s.name)} (${elements.join(', ')})${comment(s.comment)}${formatProperties(s.properties)}`;
    }
    case 'CreateTableAsSelect': {
      const aliases = s.columnAliases ? ` (${identifiers(s.columnAliases)})` : '';
      return (
        `${create(s.replace)}TABLE ${ifNotExists(s.notExists)}${formatQualifiedName(s.name)}${aliases}` +
        `${comment(s.comment)}${formatProperties(s.properties)} AS ${formatQuery(s.query)}${s.withData ? '' : ' WITH NO DATA'}`
      );
    }
    case 'Insert': {
      const columns = s.columns ? ` (${identifiers(s.columns)})` : '';
      return `INSERT INTO ${formatQualifiedName(s.target)}${branch(s.branch)}${columns} ${formatQuery(s.query)}`;
    }
    case 'Delete':
      return `DELETE FROM ${formatQualifiedName(s.table)}${branch(s.branch)}${where(s.where)}`;
    case 'DropTable':
      return `DROP TABLE ${ifExists(s.exists)}${formatQualifiedName(s.name)}`;
    case 'CreateIndex':
      return `CREATE ${s.unique ? 'UNIQUE ' : ''}INDEX ${ifNotExists(s.notExists)}${formatQualifiedName(s.name)} ON ${formatQualifiedName(s.table)} (${identifiers(s.columns)})`;
    case 'CreateCatalog':
      return (
        `CREATE CATALOG ${ifNotExists(s.notExists)}${formatIdentifier(s.name)} USING ${formatIdentifier(s.connector)}` +
        `${comment(s.comment)}${s.authorization ? ` AUTHORIZATION ${principal(s.authorization)}` : ''}${formatProperties(s.properties)}`
      );
    case 'DropCatalog':
      return `DROP CATALOG ${ifExists(s.exists)}${formatIdentifier(s.name)}${s.cascade ? ' CASCADE' : ''}`;
    case 'RenameSchema':
      return `ALTER SCHEMA ${formatQualifiedName(s.source)} RENAME TO ${formatIdentifier(s.target)}`;
    case 'SetAuthorization':
      return `ALTER ${s.entityKind} ${formatQualifiedName(s.name)} SET AUTHORIZATION ${principal(s.principal)}`;
    case 'Comment':
      return `COMMENT ON ${s.target} ${formatQualifiedName(s.name)} IS ${s.comment === null ? 'NULL' : formatStringLiteral(s.comment)}`;
    case 'RenameTable':
      return `ALTER TABLE ${ifExists(s.tableExists)}${formatQualifiedName(s.source)} RENAME TO ${formatQualifiedName(s.target)}`;
    case 'AddColumn': {
      const position = s.position
        ? ` ${s.position.kind}${s.position.kind === 'AFTER' ? ` ${formatIdentifier(s.position.column)}` : ''}`
        : '';
      return `${alterTable(s)}ADD COLUMN ${ifNotExists(s.columnNotExists)}${columnDefinition(s.column)}${position}`;
    }
    case 'RenameColumn':
      return `${alterTable(s)}RENAME COLUMN ${ifExists(s.columnExists)}${formatQualifiedName(s.source)} TO ${formatIdentifier(s.target)}`;
    case 'DropColumn':
      return `${alterTable(s)}DROP COLUMN ${ifExists(s.columnExists)}${formatQualifiedName(s.column)}`;
    case 'SetColumnDefault':
      return `${alterTable(s)}ALTER COLUMN ${formatQualifiedName(s.column)} SET DEFAULT ${expressions.value(s.defaultValue)}`;
    case 'DropColumnDefault':
      return `${alterTable(s)}ALTER COLUMN ${formatQualifiedName(s.column)} DROP DEFAULT`;
    case 'SetColumnType':
      return `${alterTable(s)}ALTER COLUMN ${formatQualifiedName(s.column)} SET DATA TYPE ${formatType(s.type)}`;
    case 'DropNotNullConstraint':
      return `${alterTable(s)}ALTER COLUMN ${formatIdentifier(s.column)} DROP NOT NULL`;
    case 'SetProperties':
      return `ALTER ${s.target} ${formatQualifiedName(s.name)} SET PROPERTIES ${formatPropertyAssignments(s.properties)}`;
    case 'TableExecute':
      return `ALTER TABLE ${formatQualifiedName(s.table)} EXECUTE ${formatIdentifier(s.procedure)}(${list(s.arguments)})${where(s.where)}`;
    case 'Analyze':
      return `ANALYZE ${formatQualifiedName(s.table)}${formatProperties(s.properties)}`;
    case 'CreateView':
      return (
        `${create(s.replace)}VIEW ${formatQualifiedName(s.name)}${comment(s.comment)}${s.security ? ` SECURITY ${s.security}` : ''}` +
        `${formatProperties(s.properties)} AS ${formatQuery(s.query)}`
      );
    case 'DropView':
      return `DROP VIEW ${ifExists(s.exists)}${formatQualifiedName(s.name)}`;
    case 'RenameView':
      return `ALTER VIEW ${formatQualifiedName(s.source)} RENAME TO ${formatQualifiedName(s.target)}`;
    case 'RefreshView':
      return `ALTER VIEW ${formatQualifiedName(s.name)} REFRESH`;
    case 'CreateMaterializedView':
      return (
        `${create(s.replace)}MATERIALIZED VIEW ${ifNotExists(s.notExists)}${formatQualifiedName(s.name)}` +
        `${s.gracePeriod ? ` GRACE PERIOD ${formatIntervalLiteral(s.gracePeriod)}` : ''}${s.whenStale ? ` WHEN STALE ${s.whenStale}` : ''}` +
        `${comment(s.comment)}${formatProperties(s.properties)} AS ${formatQuery(s.query)}`
      );
    case 'DropMaterializedView':
      return `DROP MATERIALIZED VIEW ${ifExists(s.exists)}${formatQualifiedName(s.name)}`;
    case 'RenameMaterializedView':
      return `ALTER MATERIALIZED VIEW ${ifExists(s.exists)}${formatQualifiedName(s.source)} RENAME TO ${formatQualifiedName(s.target)}`;
    case 'RefreshMaterializedView':
      return `REFRESH MATERIALIZED VIEW ${formatQualifiedName(s.name)}`;
    case 'CreateBranch':
      return (
        `${create(s.replace)}BRANCH ${ifNotExists(s.notExists)}${formatIdentifier(s.name)}${formatProperties(s.properties)}` +
        ` IN TABLE ${formatQualifiedName(s.table)}${s.from ? ` FROM ${formatIdentifier(s.from)}` : ''}`
      );
    case 'DropBranch':
      return `DROP BRANCH ${ifExists(s.exists)}${formatIdentifier(s.name)} IN TABLE ${formatQualifiedName(s.table)}`;
    case 'FastForwardBranch':
      return `ALTER BRANCH ${formatIdentifier(s.source)} IN TABLE ${formatQualifiedName(s.table)} FAST FORWARD TO ${formatIdentifier(s.target)}`;
    case 'ShowBranches':
      return `SHOW BRANCHES FROM TABLE ${formatQualifiedName(s.table)}`;
    case 'ShowCreate':
      return `SHOW CREATE ${s.target} ${formatQualifiedName(s.name)}`;
    case 'ShowStats':
      return `SHOW STATS FOR ${s.target.kind === 'Query' ? `(${formatQuery(s.target)})` : formatQualifiedName(s.target)}`;
    case 'Update':
      return `UPDATE ${formatQualifiedName(s.table)}${branch(s.branch)} SET ${assignments(s.assignments)}${where(s.where)}`;
    case 'Merge':
      return (
        `MERGE INTO ${formatQualifiedName(s.target)}${branch(s.branch)}${s.alias ? ` AS ${formatIdentifier(s.alias)}` : ''}` +
        ` USING ${formatRelation(s.source)} ON ${formatExpression(s.on)} ${s.cases.map(mergeCase).join(' ')}`
      );
    case 'TruncateTable':
      return `TRUNCATE TABLE ${formatQualifiedName(s.table)}`;
    case 'Call':
      return `CALL ${formatQualifiedName(s.name)}(${list(s.arguments)})`;
    case 'CreateFunction':
      return `${create(s.replace)}${formatFunctionSpecification(s.specification)}`;
    case 'DropFunction':
      return `DROP FUNCTION ${ifExists(s.exists)}${formatFunctionDeclaration(s.declaration)}`;
  }
}

function create(replace: boolean | undefined): string {
  return replace ? 'CREATE OR REPLACE ' : 'CREATE ';
}

function ifExists(exists: boolean): string {
  return exists ? 'IF EXISTS ' : '';
}

function ifNotExists(notExists: boolean): string {
  return notExists ? 'IF NOT EXISTS ' : '';
}

function alterTable(s: { tableExists: boolean; table: Parameters<typeof formatQualifiedName>[0] }): string {
  return `ALTER TABLE ${ifExists(s.tableExists)}${formatQualifiedName(s.table)} `;
}

function identifiers(ids: Identifier[]): string {
  return ids.map(formatIdentifier).join(', ');
}

function branch(b: Identifier | undefined): string {
  return b ? ` @ ${formatIdentifier(b)}` : '';
}

function where(e: Parameters<typeof formatExpression>[0] | undefined): string {
  return e ? ` WHERE ${formatExpression(e)}` : '';
}

function comment(text: string | undefined): string {
  return text === undefined ? '' : ` COMMENT ${formatStringLiteral(text)}`;
}

function assignments(list: UpdateAssignment[]): string {
  return list.map((a) => `${formatIdentifier(a.column)} = ${formatExpression(a.value)}`).join(', ');
}

function mergeCase(c: MergeCase): string {
  const condition = c.condition ? ` AND ${formatExpression(c.condition)}` : '';
  switch (c.kind) {
    case 'MergeUpdate':
      return `WHEN MATCHED${condition} THEN UPDATE SET ${assignments(c.assignments)}`;
    case 'MergeDelete':
      return `WHEN MATCHED${condition} THEN DELETE`;
    case 'MergeInsert':
      return `WHEN NOT MATCHED${condition} THEN INSERT${c.columns ? ` (${identifiers(c.columns)})` : ''} VALUES (${list(c.values)})`;
  }
}

function columnDefinition(column: ColumnDefinition): string {
  const name = [...(column.fieldPath ?? []), column.name].map(formatIdentifier).join('.');
  const defaultValue = column.defaultValue ? ` DEFAULT ${expressions.value(column.defaultValue)}` : '';
  const constraint = column.constraint ? ` ${column.constraint}` : '';
  const properties = column.properties ? formatProperties(column.properties) : '';
  return `${name} ${formatType(column.type)}${defaultValue}${column.nullable ? '' : ' NOT NULL'}${constraint}${comment(column.comment)}${properties}`;
}
