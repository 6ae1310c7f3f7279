// A view in FROM: its stored query is parsed and planned in the view's own catalog and schema, and
// its columns are checked against those the view was created with (Trino's stale-view check); the
// relation has the stored columns' names and types.

import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import type { ViewDefinition } from '../../spi/view.js';
import { isStoreAssignable } from '../../types/coercion.js';
import { typeName, typesEqual, type SqlType } from '../../types/types.js';
import { MetadataMiss } from '../metadata/statement-metadata.js';
import type { QualifiedObjectName } from '../metadata/qualified-name.js';
import type * as ast from '../parser/ast.js';
import { parseStatement } from '../parser/parser.js';
import { PlannerContext } from '../planner/planner-context.js';
import { symbolRef } from '../planner/row-expression.js';
import { QueryPlanner } from './query-planner.js';
import { visibleFields, type RelationPlan } from './relation-plan.js';
import { Scope } from './scope.js';
import { assertSupported } from './unsupported-features.js';
import { withRoutines } from '../routines/routine-scope.js';

export function planView(
  planner: QueryPlanner,
  relation: ast.TableReference,
  name: QualifiedObjectName,
  view: ViewDefinition,
  outer: Scope | undefined,
): RelationPlan {
  const context = planner.context;
  const qualified = `${name.catalog}.${name.schema}.${name.name}`;
  if (context.expandingViews.includes(qualified)) throw new EngineError('VIEW_IS_RECURSIVE', 'View is recursive', relation.location);
  const query = parseView(view, qualified, relation.location);
  const viewContext = new PlannerContext(
    context.metadata.inContext(view.catalog, view.schema),
    context.evaluator,
    [],
    context.factory.symbols,
    [...context.expandingViews, qualified],
  );
  let plan: RelationPlan;
  try {
    const routines = context.metadata.viewRoutines(name);
    plan = withRoutines(viewContext.metadata.session, routines, () => new QueryPlanner(viewContext).planQuery(query));
  } catch (e) {
    // A miss makes analysis load the name and start again; a view's own errors (stale, recursive) keep their name.
    if (
      !(e instanceof EngineError) ||
      e.errorName === 'VIEW_IS_STALE' ||
      e.errorName === 'VIEW_IS_RECURSIVE' ||
      e.errorName === 'INVALID_VIEW'
    )
      throw e;
    throw new EngineError('INVALID_VIEW', `Failed analyzing stored view '${qualified}': ${e.message}`, relation.location);
  }
  const fields = visibleFields(plan);
  const stale = staleness(
    view,
    fields.map((f) => ({ name: f.name, type: f.symbol.type })),
  );
  if (stale !== undefined)
    throw new EngineError('VIEW_IS_STALE', `View '${qualified}' is stale or in invalid state: ${stale}`, relation.location);
  // The view's columns have the stored types: the query's are cast to them where they differ.
  const factory = context.factory;
  const assignments = fields.map((f, i) => {
    const type = view.columns[i].type;
    if (typesEqual(f.symbol.type, type)) return { symbol: f.symbol, expression: symbolRef(f.symbol) };
    return {
      symbol: factory.newSymbol(view.columns[i].name, type),
      expression: { kind: 'cast' as const, arg: symbolRef(f.symbol), type, safe: false, assignment: true },
    };
  });
  const node = factory.project(plan.node, assignments);
  const qualifier = [name.catalog, name.schema, name.name];
  return {
    node,
    scope: new Scope(
      assignments.map((a, i) => ({ name: view.columns[i].name, qualifier, symbol: a.symbol })),
      outer,
    ),
  };
}

function parseView(view: ViewDefinition, qualified: string, location: SourceLocation): ast.Query {
  let statement: ast.Statement;
  try {
    statement = parseStatement(view.originalSql);
    assertSupported(statement);
  } catch (e) {
    if (e instanceof MetadataMiss || !(e instanceof EngineError)) throw e;
    throw new EngineError('INVALID_VIEW', `Failed parsing stored view '${qualified}': ${e.message}`, location);
  }
  if (statement.kind !== 'QueryStatement')
    throw new EngineError('INVALID_VIEW', `Failed parsing stored view '${qualified}': not a query`, location);
  return statement.query;
}

/** Why the query's columns no longer fit the stored ones (Trino's wording), or undefined when they do. */
function staleness(view: ViewDefinition, fields: readonly { name: string | undefined; type: SqlType }[]): string | undefined {
  const columns = view.columns;
  if (columns.length !== fields.length) {
    return `stored view column count (${columns.length}) does not match column count derived from the view query analysis (${fields.length})`;
  }
  for (let i = 0; i < columns.length; i++) {
    const field = fields[i];
    const stored = `column [${columns[i].name}] of type ${typeName(columns[i].type)} stored in view definition`;
    if (field.name === undefined) return `a column of type ${typeName(field.type)} projected from query view at position ${i} has no name`;
    const projected = `column [${field.name}] of type ${typeName(field.type)} projected from query view at position ${i}`;
    if (field.name.toLowerCase() !== columns[i].name.toLowerCase()) return `${projected} has a different name from ${stored}`;
    if (!typesEqual(field.type, columns[i].type) && !isStoreAssignable(field.type, columns[i].type))
      return `${projected} cannot be coerced to ${stored}`;
  }
  return undefined;
}
