// The catalog routines a statement may call, loaded before it is analyzed (connectors answer
// asynchronously, analysis is synchronous): each call named `catalog.schema.name(...)`, and those
// the loaded routines' bodies name in turn. Invocation uses the full name, as Trino's does without
// a configured SQL path.

import type { CatalogManager } from '../../connectors/catalog-manager.js';
import type { LanguageFunction } from '../../spi/language-function.js';
import type { Session } from '../../spi/session.js';
import type * as ast from '../parser/ast.js';
import { parseStatement } from '../parser/parser.js';
import { forEachAstObject } from '../analyzer/ast-utils.js';
import { analyzeRoutine } from './routine-analyzer.js';
import { RoutineScope } from './routine-scope.js';

/** A scope of the catalog routines `root` calls (transitively), or undefined when it calls none. */
export async function loadCatalogRoutines(root: object, catalogs: CatalogManager, session: Session): Promise<RoutineScope | undefined> {
  const scope = new RoutineScope();
  const seen = new Set<string>();
  const pending = qualifiedCalls(root);
  while (pending.length > 0) {
    const [catalog, schema, name] = pending.pop()!;
    const key = `${catalog}.${schema}.${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const storage = catalogs.get(catalog)?.languageFunctions;
    if (storage === undefined) continue; // the call fails as an unknown function
    for (const fn of await storage.get(schema, name)) {
      const specification = parseStoredRoutine(fn);
      scope.add({ names: [key], specification, analyze: () => analyzeRoutine(specification, session) });
      pending.push(...qualifiedCalls(specification.body));
    }
  }
  return scope.isEmpty ? undefined : scope;
}

/** A stored routine's specification (its SQL is what CREATE FUNCTION formatted: it parses). */
export function parseStoredRoutine(fn: LanguageFunction): ast.FunctionSpecification {
  const statement = parseStatement(`WITH ${fn.sql} SELECT 1`);
  if (statement.kind !== 'QueryStatement' || statement.query.functions?.length !== 1) throw new Error(`stored routine is not one function: ${fn.sql}`);
  return statement.query.functions[0];
}

/** `[catalog, schema, name]` of every call with a three-part name under `root`. */
function qualifiedCalls(root: object): [string, string, string][] {
  const calls: [string, string, string][] = [];
  forEachAstObject(root, (node) => {
    if (node.kind !== 'FunctionCall') return;
    const parts = (node as unknown as ast.FunctionCall).name.parts.map((p) => p.value.toLowerCase());
    if (parts.length === 3) calls.push([parts[0], parts[1], parts[2]]);
  });
  return calls;
}
