// The catalog routines a statement may call, loaded before it is analyzed (connectors answer
// asynchronously, analysis is synchronous): each call named `catalog.schema.name(...)`, and those
// the loaded routines' bodies name in turn. Invocation uses the full name, as Trino's does without
// a configured SQL path; with one (sql.path), a call by simple name finds the path's routines.

import type { CatalogManager } from '../../connectors/catalog-manager.js';
import type { LanguageFunction } from '../../spi/language-function.js';
import type { Session } from '../../spi/session.js';
import type * as ast from '../parser/ast.js';
import { parseStatement } from '../parser/parser.js';
import { forEachAstObject } from '../analyzer/ast-utils.js';
import { analyzeRoutine } from './routine-analyzer.js';
import { bindRoutines, RoutineScope, withRoutines } from './routine-scope.js';
import type { SqlEnvironment } from '../../config/sql-environment.js';

/**
 * A scope of the catalog routines `root` calls (transitively), or undefined when it calls none; a
 * simple name is looked up on `path` (the server's sql.path unless a view brings its own).
 */
export async function loadCatalogRoutines(
  root: object,
  catalogs: CatalogManager,
  session: Session,
  path: SqlEnvironment['path'] = catalogs.sqlEnvironment.path,
): Promise<RoutineScope | undefined> {
  const scope = new RoutineScope();
  // The bodies are analyzed in a session of their own that sees only catalog routines: as in Trino, a
  // stored routine does not see the inline routines of the query that calls it.
  const bodies: Session = { ...session };
  bindRoutines(bodies, scope);
  const seen = new Set<string>();
  const pending = calls(root, path);
  while (pending.length > 0) {
    const { catalog, schema, name, simple } = pending.pop()!;
    const key = `${catalog}.${schema}.${name}`;
    if (seen.has(`${key}|${simple}`)) continue;
    seen.add(`${key}|${simple}`);
    const storage = catalogs.get(catalog)?.languageFunctions;
    if (storage === undefined) continue; // the call fails as an unknown function
    for (const fn of await storage.get(schema, name)) {
      const specification = parseStoredRoutine(fn);
      scope.add({
        names: simple ? [key, name] : [key],
        inline: false,
        specification,
        analyze: () => withRoutines(bodies, scope, () => analyzeRoutine(specification, bodies)),
      });
      pending.push(...calls(specification.body, path));
    }
  }
  return scope.isEmpty ? undefined : scope;
}

interface RoutineName {
  catalog: string;
  schema: string;
  name: string;
  /** Called by its simple name, found on the SQL path. */
  simple: boolean;
}

/** The routines the calls under `root` may name: a three-part name itself, a simple name in each schema of the path. */
function calls(root: object, path: SqlEnvironment['path']): RoutineName[] {
  return namedCalls(root).flatMap((parts): RoutineName[] => {
    if (parts.length === 3) return [{ catalog: parts[0], schema: parts[1], name: parts[2], simple: false }];
    return parts.length === 1 ? path.map((p) => ({ ...p, name: parts[0], simple: true })) : [];
  });
}

/** A stored routine's specification (its SQL is what CREATE FUNCTION formatted: it parses). */
export function parseStoredRoutine(fn: LanguageFunction): ast.FunctionSpecification {
  const statement = parseStatement(`WITH ${fn.sql} SELECT 1`);
  if (statement.kind !== 'QueryStatement' || statement.query.functions?.length !== 1)
    throw new Error(`stored routine is not one function: ${fn.sql}`);
  return statement.query.functions[0];
}

/** The name parts, lower case, of every call under `root`. */
function namedCalls(root: object): string[][] {
  const names: string[][] = [];
  forEachAstObject(root, (node) => {
    if (node.kind === 'FunctionCall') names.push((node as unknown as ast.FunctionCall).name.parts.map((p) => p.value.toLowerCase()));
  });
  return names;
}
