// A name of a table (or view) resolved against the session's catalog and schema, with Trino's errors.

import { EngineError } from '../../errors/engine-error.js';
import type { Session } from '../../spi/session.js';
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

/**
 * The target of a rename (ALTER TABLE|VIEW ... RENAME TO), as Trino resolves it: the parts it leaves
 * out are the source's, not the session's; as a fully qualified name, to look it up.
 */
export function renameTarget(
  source: QualifiedObjectName,
  target: ast.QualifiedName,
): { name: QualifiedObjectName; qualified: ast.QualifiedName } {
  const parts = target.parts.map((p) => p.value);
  if (parts.length > 3) throw new EngineError('SYNTAX_ERROR', `Too many dots in name: ${parts.join('.')}`, target.location);
  const name: QualifiedObjectName = {
    catalog: parts.length === 3 ? parts[0] : source.catalog,
    schema: parts.length >= 2 ? parts[parts.length - 2] : source.schema,
    name: parts[parts.length - 1],
  };
  const identifier = (value: string): ast.Identifier => ({ kind: 'Identifier', value, quoted: true, location: target.location });
  return { name, qualified: { ...target, parts: [name.catalog, name.schema, name.name].map(identifier) } };
}
