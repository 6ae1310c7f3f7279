// Resolves table and schema names against the session's catalog and schema, with Trino's errors.

import type { CatalogManager } from '../../connectors/catalog-manager.js';
import type { Connector, TableMetadata } from '../../spi/connector.js';
import type { Session } from '../../spi/session.js';
import { EngineError, locatedAt, type SourceLocation } from '../../errors/engine-error.js';
import type * as ast from '../parser/ast.js';

export interface QualifiedObjectName {
  catalog: string;
  schema: string;
  name: string;
}

export function qualifiedObjectName(name: ast.QualifiedName, session: Session): QualifiedObjectName {
  const parts = name.parts.map((p) => p.value);
  if (parts.length > 3) throw new EngineError('SYNTAX_ERROR', `Too many dots in table name: ${parts.join('.')}`, name.location);
  const objectName = parts[parts.length - 1];
  const schema = parts.length >= 2 ? parts[parts.length - 2] : session.schema;
  const catalog = parts.length === 3 ? parts[0] : session.catalog;
  if (!catalog) throw new EngineError('MISSING_CATALOG_NAME', 'Catalog must be specified when session catalog is not set', name.location);
  if (!schema) throw new EngineError('MISSING_SCHEMA_NAME', 'Schema must be specified when session schema is not set', name.location);
  return { catalog, schema, name: objectName };
}

export function connectorOrFail(catalogs: CatalogManager, catalog: string, location?: SourceLocation): Connector {
  const connector = catalogs.get(catalog);
  if (!connector) throw new EngineError('CATALOG_NOT_FOUND', `Catalog '${catalog}' not found`, location);
  return connector;
}

export function schemaExists(connector: Connector, session: Session, schema: string): boolean {
  return connector.schemaExists ? connector.schemaExists(session, schema) : connector.listSchemas(session).includes(schema);
}

export function resolveTable(catalogs: CatalogManager, session: Session, name: ast.QualifiedName): TableMetadata | undefined {
  const q = qualifiedObjectName(name, session);
  const connector = connectorOrFail(catalogs, q.catalog, name.location);
  if (!locatedAt(name.location, () => schemaExists(connector, session, q.schema))) {
    throw new EngineError('SCHEMA_NOT_FOUND', `Schema '${q.schema}' does not exist`, name.location);
  }
  return locatedAt(name.location, () => connector.getTable(session, q.schema, q.name));
}

export function resolveTableOrFail(catalogs: CatalogManager, session: Session, name: ast.QualifiedName): TableMetadata {
  const table = resolveTable(catalogs, session, name);
  if (!table) {
    const q = qualifiedObjectName(name, session);
    throw new EngineError('TABLE_NOT_FOUND', `Table '${q.catalog}.${q.schema}.${q.name}' does not exist`, name.location);
  }
  return table;
}
