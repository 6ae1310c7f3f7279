// WITH SESSION name = value[, catalog.name = value] <query>: session properties for that one query.
// Each is named, typed and validated as SET SESSION does it (Trino's SessionPropertyResolver), and the
// query runs in a copy of the session with them set; the client's session is not changed.

import { EngineError } from '../../errors/engine-error.js';
import type * as ast from '../../sql/parser/ast.js';
import type { Session } from '../../spi/session.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import type { SessionPropertyManager } from '../session-property-manager.js';
import { sessionPropertyText } from './session-statements.js';

/** The session `clause` makes of `session` for its query; fails, before anything runs, on a property SET SESSION would refuse. */
export function sessionWith(
  clause: ast.WithSession,
  session: Session,
  properties: SessionPropertyManager,
  parameters: readonly RowExpression[],
): Session {
  const values = new Map(session.properties);
  const seen = new Set<string>();
  for (const property of clause.properties) {
    const name = property.name.parts.map((p) => p.value).join('.');
    if (property.name.parts.length > 2)
      throw new EngineError('INVALID_SESSION_PROPERTY', `Invalid session property '${name}'`, property.location);
    if (seen.has(name)) throw new EngineError('INVALID_SESSION_PROPERTY', `Session property '${name}' already set`, property.location);
    seen.add(name);
    // As Trino, an unknown name is reported at the value.
    values.set(name, sessionPropertyText(name, property.value, properties.metadata(name, property.value.location), session, parameters));
  }
  return { ...session, properties: values };
}
