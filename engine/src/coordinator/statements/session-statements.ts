// USE, SET / RESET SESSION, PREPARE, DEALLOCATE PREPARE: statements that change the client's
// session. The server sends the changes back as response headers; the client applies them.

import { EngineError, locatedAsync } from '../../errors/engine-error.js';
import type * as ast from '../../sql/parser/ast.js';
import { formatExpression } from '../../sql/parser/formatter.js';
import { schemaExists, type StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import { noSessionChanges, type Session } from '../../spi/session.js';
import type { StatementResult } from '../../spi/statement-result.js';
import type { SessionPropertyManager } from '../session-property-manager.js';
import type { PropertyMetadata } from '../../spi/properties.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { constantValue, propertyText } from './property-values.js';
import { updateResult } from './results.js';

export async function use(s: ast.UseStatement, metadata: StatementMetadata): Promise<StatementResult> {
  const session = metadata.session;
  const catalog = s.catalog?.value ?? session.catalog;
  if (!catalog) throw new EngineError('MISSING_CATALOG_NAME', 'Catalog must be specified when session catalog is not set', s.location);
  const connector = metadata.connector(catalog, s.catalog?.location ?? s.location);
  if (!(await locatedAsync(s.schema.location, () => schemaExists(connector, session, s.schema.value)))) {
    throw new EngineError('SCHEMA_NOT_FOUND', `Schema does not exist: ${catalog}.${s.schema.value}`, s.schema.location);
  }
  const changes = noSessionChanges();
  changes.setCatalog = catalog;
  changes.setSchema = s.schema.value;
  return updateResult('USE', changes);
}

/** SET SESSION name = value: the value is a constant of the property's type (Trino's SessionPropertyEvaluator). */
export function setSession(s: ast.SetSession, session: Session, properties: SessionPropertyManager): StatementResult {
  const name = s.name.parts.map((p) => p.value).join('.');
  const changes = noSessionChanges();
  changes.setSessionProperties.set(name, sessionPropertyText(name, s.value, properties.metadata(name, s.name.location), session));
  return updateResult('SET SESSION', changes);
}

/** The value of `expression` as session property `name` keeps it: a constant of the property's type, not NULL. */
export function sessionPropertyText(
  name: string,
  expression: ast.Expression,
  metadata: PropertyMetadata,
  session: Session,
  parameters: readonly RowExpression[] = [],
): string {
  const refused = (reason: string) =>
    new EngineError(
      'INVALID_SESSION_PROPERTY',
      `Unable to set session property '${name}' to '${formatExpression(expression)}': ${reason}`,
      expression.location,
    );
  const value = constantValue(expression, metadata, session, parameters, refused);
  if (value === null) throw refused('Session property value must not be null');
  return propertyText(value, metadata.type);
}

export function resetSession(s: ast.ResetSession, properties: SessionPropertyManager): StatementResult {
  const name = s.name.parts.map((p) => p.value).join('.');
  properties.metadata(name, s.name.location);
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
  const sql =
    session.preparedStatements.get(name.value) ?? [...session.preparedStatements].find(([k]) => k.toLowerCase() === name.value)?.[1];
  if (sql === undefined) throw new EngineError('NOT_FOUND', `Prepared statement not found: ${name.value}`, name.location);
  return sql;
}
