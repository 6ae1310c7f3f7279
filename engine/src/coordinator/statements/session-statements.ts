// USE, SET / RESET SESSION, PREPARE, DEALLOCATE PREPARE: statements that change the client's
// session. The server sends the changes back as response headers; the client applies them.

import type { CatalogManager } from '../../connectors/catalog-manager.js';
import { EngineError } from '../../errors/engine-error.js';
import { evaluateConstant } from '../../exec/expression/index.js';
import type * as ast from '../../sql/parser/ast.js';
import { translateExpression } from '../../sql/analyzer/expression-translator.js';
import { Scope } from '../../sql/analyzer/scope.js';
import { connectorOrFail, schemaExists } from '../../sql/analyzer/table-resolver.js';
import { formatValueAsText } from '../../types/values.js';
import { sessionPropertyDefinition, validateSessionProperty } from '../../spi/session-properties.js';
import { noSessionChanges, type Session } from '../../spi/session.js';
import type { StatementResult } from '../../spi/statement-result.js';
import { updateResult } from './results.js';

export function use(s: ast.UseStatement, session: Session, catalogs: CatalogManager): StatementResult {
  const catalog = s.catalog?.value ?? session.catalog;
  if (!catalog) throw new EngineError('MISSING_CATALOG_NAME', 'Catalog must be specified when session catalog is not set', s.location);
  const connector = connectorOrFail(catalogs, catalog, s.catalog?.location ?? s.location);
  if (!schemaExists(connector, session, s.schema.value)) {
    throw new EngineError('SCHEMA_NOT_FOUND', `Schema does not exist: ${catalog}.${s.schema.value}`, s.schema.location);
  }
  const changes = noSessionChanges();
  changes.setCatalog = catalog;
  changes.setSchema = s.schema.value;
  return updateResult('USE', changes);
}

export function setSession(s: ast.SetSession, session: Session): StatementResult {
  const name = s.name.parts.map((p) => p.value).join('.');
  sessionPropertyDefinition(name, s.name.location);
  const value = evaluateConstant(translateExpression(s.value, { scope: new Scope([]), session, parameters: [] }));
  if (value === null) throw new EngineError('INVALID_SESSION_PROPERTY', `Session property '${name}' cannot be set to NULL`, s.value.location);
  const text = typeof value === 'string' ? value : formatValueAsText(value, typeOfScalar(value));
  const changes = noSessionChanges();
  changes.setSessionProperties.set(name, validateSessionProperty(name, text, s.value.location));
  return updateResult('SET SESSION', changes);
}

function typeOfScalar(value: unknown) {
  if (typeof value === 'boolean') return { kind: 'boolean' } as const;
  if (typeof value === 'bigint') return { kind: 'bigint' } as const;
  return { kind: 'double' } as const;
}

export function resetSession(s: ast.ResetSession): StatementResult {
  const name = s.name.parts.map((p) => p.value).join('.');
  sessionPropertyDefinition(name, s.name.location);
  const changes = noSessionChanges();
  changes.resetSessionProperties.push(name);
  return updateResult('RESET SESSION', changes);
}

export function prepare(s: ast.PrepareStatement): StatementResult {
  const changes = noSessionChanges();
  changes.addedPreparedStatements.set(s.name.value, s.sql);
  return updateResult('PREPARE', changes);
}

export function deallocate(s: ast.DeallocateStatement, session: Session): StatementResult {
  preparedSql(session, s.name);
  const changes = noSessionChanges();
  changes.deallocatedPreparedStatements.push(s.name.value);
  return updateResult('DEALLOCATE', changes);
}

/** The SQL text of a prepared statement, or Trino's error when there is none. */
export function preparedSql(session: Session, name: ast.Identifier): string {
  const sql = session.preparedStatements.get(name.value) ?? [...session.preparedStatements].find(([k]) => k.toLowerCase() === name.value)?.[1];
  if (sql === undefined) throw new EngineError('NOT_FOUND', `Prepared statement not found: ${name.value}`, name.location);
  return sql;
}
