// SQL text of statements: queries, EXPLAIN, SHOW / DESCRIBE, session and prepared-statement
// commands, access control and transactions; definitions and DML are in definition-formatter.ts.

import type { AccessStatement, GrantObject, Grantor, Principal, Privileges, Statement } from './ast.js';
import { formatDefinitionStatement } from './definition-formatter.js';
import { formatIdentifier, formatQualifiedName, formatStringLiteral } from './expression-formatter.js';
import { formatExpression, formatQuery, list } from './formatter.js';

export function formatStatement(s: Statement): string {
  switch (s.kind) {
    case 'QueryStatement': {
      const session = s.session
        ? `WITH SESSION ${s.session.properties.map((p) => `${formatQualifiedName(p.name)} = ${formatExpression(p.value)}`).join(', ')} `
        : '';
      return `${session}${formatQuery(s.query)}`;
    }
    case 'Explain': {
      const options = [s.type && `TYPE ${s.type}`, s.format && `FORMAT ${s.format}`].filter(Boolean);
      return [
        'EXPLAIN',
        s.analyze && 'ANALYZE',
        s.verbose && 'VERBOSE',
        options.length > 0 && `(${options.join(', ')})`,
        formatStatement(s.statement),
      ]
        .filter(Boolean)
        .join(' ');
    }
    case 'ShowCatalogs':
      return `SHOW CATALOGS${like(s)}`;
    case 'ShowSchemas':
      return `SHOW SCHEMAS${s.catalog ? ` FROM ${formatIdentifier(s.catalog)}` : ''}${like(s)}`;
    case 'ShowTables':
      return `SHOW TABLES${s.schema ? ` FROM ${formatQualifiedName(s.schema)}` : ''}${like(s)}`;
    case 'ShowColumns':
      return `SHOW COLUMNS FROM ${formatQualifiedName(s.table)}${like(s)}`;
    case 'ShowFunctions':
      return `SHOW FUNCTIONS${s.schema ? ` FROM ${formatQualifiedName(s.schema)}` : ''}${like(s)}`;
    case 'ShowSession':
      return `SHOW SESSION${like(s)}`;
    case 'ShowCreateTable':
      return `SHOW CREATE TABLE ${formatQualifiedName(s.table)}`;
    case 'DescribeInput':
      return `DESCRIBE INPUT ${formatIdentifier(s.name)}`;
    case 'DescribeOutput':
      return `DESCRIBE OUTPUT ${'name' in s ? formatIdentifier(s.name) : `(${formatQuery(s.query)})`}`;
    case 'Use':
      return `USE ${s.catalog ? `${formatIdentifier(s.catalog)}.` : ''}${formatIdentifier(s.schema)}`;
    case 'SetSession':
      return `SET SESSION ${formatQualifiedName(s.name)} = ${formatExpression(s.value)}`;
    case 'ResetSession':
      return `RESET SESSION ${formatQualifiedName(s.name)}`;
    case 'Prepare':
      return `PREPARE ${formatIdentifier(s.name)} FROM ${s.sql}`;
    case 'Execute':
      return `EXECUTE ${formatIdentifier(s.name)}${using(s.parameters)}`;
    case 'Deallocate':
      return `DEALLOCATE PREPARE ${formatIdentifier(s.name)}`;
    case 'CreateRole':
    case 'DropRole':
    case 'GrantRoles':
    case 'RevokeRoles':
    case 'GrantPrivileges':
    case 'RevokePrivileges':
    case 'Deny':
    case 'SetRole':
    case 'ShowGrants':
    case 'ShowRoles':
    case 'ShowRoleGrants':
    case 'SetSessionAuthorization':
    case 'ResetSessionAuthorization':
    case 'StartTransaction':
    case 'Commit':
    case 'Rollback':
    case 'SetPath':
    case 'SetTimeZone':
    case 'ExecuteImmediate':
      return formatAccessStatement(s);
    default:
      return formatDefinitionStatement(s);
  }
}

function formatAccessStatement(s: AccessStatement): string {
  switch (s.kind) {
    case 'CreateRole':
      return `CREATE ROLE ${formatIdentifier(s.name)}${s.grantor ? ` WITH ADMIN ${grantor(s.grantor)}` : ''}${inCatalog(s)}`;
    case 'DropRole':
      return `DROP ROLE ${s.exists ? 'IF EXISTS ' : ''}${formatIdentifier(s.name)}${inCatalog(s)}`;
    case 'GrantRoles':
      return (
        `GRANT ${s.roles.map(formatIdentifier).join(', ')} TO ${s.grantees.map(principal).join(', ')}` +
        `${s.adminOption ? ' WITH ADMIN OPTION' : ''}${s.grantor ? ` GRANTED BY ${grantor(s.grantor)}` : ''}${inCatalog(s)}`
      );
    case 'RevokeRoles':
      return (
        `REVOKE ${s.adminOptionFor ? 'ADMIN OPTION FOR ' : ''}${s.roles.map(formatIdentifier).join(', ')} FROM ${s.grantees.map(principal).join(', ')}` +
        `${s.grantor ? ` GRANTED BY ${grantor(s.grantor)}` : ''}${inCatalog(s)}`
      );
    case 'GrantPrivileges':
      return `GRANT ${privileges(s.privileges)} ON ${grantObject(s.object)} TO ${principal(s.grantee)}${s.grantOption ? ' WITH GRANT OPTION' : ''}`;
    case 'RevokePrivileges':
      return `REVOKE ${s.grantOptionFor ? 'GRANT OPTION FOR ' : ''}${privileges(s.privileges)} ON ${grantObject(s.object)} FROM ${principal(s.grantee)}`;
    case 'Deny':
      return `DENY ${privileges(s.privileges)} ON ${grantObject(s.object)} TO ${principal(s.grantee)}`;
    case 'SetRole':
      return `SET ROLE ${typeof s.role === 'string' ? s.role : formatIdentifier(s.role)}${inCatalog(s)}`;
    case 'ShowGrants':
      return `SHOW GRANTS${s.object ? ` ON ${grantObject(s.object)}` : ''}`;
    case 'ShowRoles':
      return `SHOW ${s.current ? 'CURRENT ' : ''}ROLES${s.catalog ? ` FROM ${formatIdentifier(s.catalog)}` : ''}`;
    case 'ShowRoleGrants':
      return `SHOW ROLE GRANTS${s.catalog ? ` FROM ${formatIdentifier(s.catalog)}` : ''}`;
    case 'SetSessionAuthorization':
      return `SET SESSION AUTHORIZATION ${s.user.kind === 'StringLiteral' ? formatStringLiteral(s.user.value) : formatIdentifier(s.user)}`;
    case 'ResetSessionAuthorization':
      return 'RESET SESSION AUTHORIZATION';
    case 'StartTransaction':
      return `START TRANSACTION${s.modes
        .map((m) => (m.kind === 'AccessMode' ? (m.readOnly ? 'READ ONLY' : 'READ WRITE') : `ISOLATION LEVEL ${m.level}`))
        .map((m, i) => `${i === 0 ? ' ' : ', '}${m}`)
        .join('')}`;
    case 'Commit':
      return 'COMMIT';
    case 'Rollback':
      return 'ROLLBACK';
    case 'SetPath':
      return `SET PATH ${s.path.map((e) => (e.catalog ? `${formatIdentifier(e.catalog)}.${formatIdentifier(e.schema)}` : formatIdentifier(e.schema))).join(', ')}`;
    case 'SetTimeZone':
      return `SET TIME ZONE ${s.value ? formatExpression(s.value) : 'LOCAL'}`;
    case 'ExecuteImmediate':
      return `EXECUTE IMMEDIATE ${formatStringLiteral(s.statement.value)}${using(s.parameters)}`;
  }
}

function using(parameters: Parameters<typeof list>[0]): string {
  return parameters.length ? ` USING ${list(parameters)}` : '';
}

function like(s: { like?: string; escape?: string }): string {
  if (s.like === undefined) return '';
  return ` LIKE ${formatStringLiteral(s.like)}${s.escape !== undefined ? ` ESCAPE ${formatStringLiteral(s.escape)}` : ''}`;
}

function inCatalog(s: { catalog?: Parameters<typeof formatIdentifier>[0] }): string {
  return s.catalog ? ` IN ${formatIdentifier(s.catalog)}` : '';
}

export function principal(p: Principal): string {
  return `${p.type ? `${p.type} ` : ''}${formatIdentifier(p.name)}`;
}

function grantor(g: Grantor): string {
  return g.kind === 'CurrentGrantor' ? g.which : principal(g);
}

function privileges(p: Privileges): string {
  return p === 'ALL' ? 'ALL PRIVILEGES' : p.join(', ');
}

function grantObject(o: GrantObject): string {
  return `${o.branch ? `BRANCH ${formatIdentifier(o.branch)} IN ` : ''}${o.entityKind ? `${o.entityKind} ` : ''}${formatQualifiedName(o.name)}`;
}
