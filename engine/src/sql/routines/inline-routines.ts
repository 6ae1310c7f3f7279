// The routines of a query's WITH FUNCTION clause, as Trino takes them: simple names only, no
// SECURITY clause (that is for catalog routines); each analyzed when first called.

import { EngineError } from '../../errors/engine-error.js';
import type { Session } from '../../spi/session.js';
import type * as ast from '../parser/ast.js';
import { formatQualifiedName } from '../parser/expression-formatter.js';
import { analyzeRoutine, routineName } from './routine-analyzer.js';
import { RoutineScope, withRoutines } from './routine-scope.js';

/** Trino's refusal of inline routines in a view's query (the view's text would call routines no later query declares). */
export function rejectInlineRoutinesInView(query: ast.Query): void {
  const first = query.functions?.[0];
  if (first !== undefined) throw new EngineError('NOT_SUPPORTED', 'Views cannot contain inline functions', first.location);
}

/**
 * A scope with the query's inline routines added to `scope` (or a new one); `scope` itself when the
 * query has none. Each routine's body sees the routines declared before it and itself (so recursion
 * is refused as recursion), not those after it: Trino declares them in order.
 */
export function withInlineRoutines(query: ast.Query, session: Session, scope?: RoutineScope): RoutineScope | undefined {
  if (query.functions === undefined || query.functions.length === 0) return scope;
  let routines = scope;
  for (const specification of query.functions) {
    const name = specification.declaration.name;
    if (name.parts.length > 1)
      throw new EngineError(
        'SYNTAX_ERROR',
        `Inline function names cannot be qualified: ${formatQualifiedName(name)}`,
        specification.location,
      );
    const security = specification.characteristics.find((c) => c.kind === 'Security');
    if (security) throw new EngineError('NOT_SUPPORTED', 'Security mode not supported for inline functions', security.location);
    const declared = new RoutineScope(routines);
    declared.add({
      names: [routineName(specification)],
      inline: true,
      specification,
      analyze: () => withRoutines(session, declared, () => analyzeRoutine(specification, session)),
    });
    routines = declared;
  }
  return routines;
}
