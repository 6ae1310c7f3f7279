// CREATE [OR REPLACE] VIEW, DROP VIEW and SHOW CREATE VIEW, with Trino's checks and messages.

import { EngineError, locatedAsync } from '../../errors/engine-error.js';
import type { StatementResult, OutputColumn } from '../../spi/statement-result.js';
import type { ViewDefinition } from '../../spi/view.js';
import { qualifiedObjectName, renameTarget, type QualifiedObjectName } from '../../sql/metadata/qualified-name.js';
import type { StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import { tableReferences } from '../../sql/metadata/table-references.js';
import { countParameters } from '../../sql/analyzer/ast-utils.js';
import type * as ast from '../../sql/parser/ast.js';
import { formatStringLiteral } from '../../sql/parser/expression-formatter.js';
import { formatQuery } from '../../sql/parser/formatter.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { evaluateProperties } from './property-values.js';
import { rowsResult, updateResult, varcharColumns } from './results.js';
import { quoteIdentifier } from './show-statements.js';
import { rejectInlineRoutinesInView } from '../../sql/routines/inline-routines.js';

/** Analyzes a query in the statement's session: its output columns. */
export type QueryAnalyzer = (query: ast.Query) => Promise<readonly OutputColumn[]>;

export async function createView(
  s: ast.CreateView,
  metadata: StatementMetadata,
  parameters: readonly RowExpression[],
  analyze: QueryAnalyzer,
): Promise<StatementResult> {
  const session = metadata.session;
  const target = qualifiedObjectName(s.name, session);
  const connector = metadata.connector(target.catalog, s.name.location);
  const qualified = formatName(target);
  // The view keeps its SQL text: a parameter would be a `?` that no later query binds.
  if (countParameters(s.query) > 0) throw new EngineError('NOT_SUPPORTED', 'Parameters are not allowed in views', s.location);
  rejectInlineRoutinesInView(s.query);
  if (s.replace && tableReferences(s.query).some((name) => sameName(name, target, metadata))) {
    throw new EngineError('VIEW_IS_RECURSIVE', 'Statement would create a recursive view', s.location);
  }
  const columns = viewColumns(await analyze(s.query), s);
  if ((await metadata.table(s.name)) !== undefined)
    throw new EngineError('TABLE_ALREADY_EXISTS', `Table already exists: '${qualified}'`, s.location);
  if (!s.replace && (await metadata.view(s.name)) !== undefined)
    throw new EngineError('TABLE_ALREADY_EXISTS', `View already exists: '${qualified}'`, s.location);
  evaluateProperties(s.properties, { catalog: target.catalog, object: 'view', declared: [] }, session, parameters);
  if (!connector.createView) throw new EngineError('NOT_SUPPORTED', 'This connector does not support creating views', s.location);
  const definition: ViewDefinition = {
    originalSql: formatQuery(s.query),
    ...(session.catalog === undefined ? {} : { catalog: session.catalog }),
    ...(session.schema === undefined ? {} : { schema: session.schema }),
    columns,
    ...(s.comment === undefined ? {} : { comment: s.comment }),
    owner: session.user,
    runAsInvoker: s.security === 'INVOKER',
    path: metadata.catalogs.sqlEnvironment.path.map((p) => ({ ...p })),
  };
  await locatedAsync(s.location, () => connector.createView!(session, target.schema, target.name, definition, s.replace));
  return updateResult('CREATE VIEW');
}

/** The query's columns as the view's, checked as Trino checks them. */
function viewColumns(columns: readonly OutputColumn[], s: ast.CreateView): ViewDefinition['columns'] {
  const names = new Set<string>();
  return columns.map((c, i) => {
    if (/^_col\d+$/.test(c.name))
      throw new EngineError('MISSING_COLUMN_NAME', `Column name not specified at position ${i + 1}`, s.location);
    if (names.has(c.name)) throw new EngineError('DUPLICATE_COLUMN_NAME', `Column name '${c.name}' specified more than once`, s.location);
    names.add(c.name);
    if (c.type.kind === 'unknown') throw new EngineError('COLUMN_TYPE_UNKNOWN', `Column type is unknown: ${c.name}`, s.location);
    return { name: c.name, type: c.type };
  });
}

function sameName(name: ast.QualifiedName, target: QualifiedObjectName, metadata: StatementMetadata): boolean {
  try {
    const q = qualifiedObjectName(name, metadata.session);
    return q.catalog === target.catalog && q.schema === target.schema && q.name === target.name;
  } catch {
    return false;
  }
}

export async function dropView(s: ast.DropView, metadata: StatementMetadata): Promise<StatementResult> {
  const target = qualifiedObjectName(s.name, metadata.session);
  const connector = metadata.connector(target.catalog, s.name.location);
  const qualified = formatName(target);
  if ((await metadata.table(s.name)) !== undefined) {
    throw new EngineError(
      'GENERIC_USER_ERROR',
      `View '${qualified}' does not exist, but a table with that name exists. Did you mean DROP TABLE ${qualified}?`,
      s.location,
    );
  }
  if ((await metadata.view(s.name)) === undefined) {
    if (s.exists) return updateResult('DROP VIEW');
    throw new EngineError('GENERIC_USER_ERROR', `View '${qualified}' does not exist`, s.location);
  }
  if (!connector.dropView) throw new EngineError('NOT_SUPPORTED', 'This connector does not support dropping views', s.location);
  await locatedAsync(s.location, () => connector.dropView!(metadata.session, target.schema, target.name));
  return updateResult('DROP VIEW');
}

/** ALTER VIEW ... RENAME TO: the definition stored under the new name, then the old name dropped. */
export async function renameView(s: ast.RenameView, metadata: StatementMetadata): Promise<StatementResult> {
  const source = qualifiedObjectName(s.source, metadata.session);
  const qualifiedSource = formatName(source);
  const view = await metadata.view(s.source);
  if (view === undefined) {
    const more =
      (await metadata.table(s.source)) === undefined
        ? ''
        : `, but a table with that name exists. Did you mean ALTER TABLE ${qualifiedSource} RENAME TO ...?`;
    throw new EngineError('TABLE_NOT_FOUND', `View '${qualifiedSource}' does not exist${more}`, s.location);
  }
  const { name: target, qualified: targetName } = renameTarget(source, s.target);
  const qualifiedTarget = formatName(target);
  if (metadata.catalogs.get(target.catalog) === undefined)
    throw new EngineError('CATALOG_NOT_FOUND', `Target catalog '${target.catalog}' not found`, s.location);
  if ((await metadata.view(targetName)) !== undefined)
    throw new EngineError('GENERIC_USER_ERROR', `Target view '${qualifiedTarget}' already exists`, s.location);
  if ((await metadata.table(targetName)) !== undefined)
    throw new EngineError(
      'TABLE_ALREADY_EXISTS',
      `Target view '${qualifiedTarget}' does not exist, but a table with that name exists.`,
      s.location,
    );
  if (target.catalog !== source.catalog) throw new EngineError('NOT_SUPPORTED', 'View rename across catalogs is not supported', s.location);
  const connector = metadata.connector(source.catalog);
  if (!connector.createView || !connector.dropView)
    throw new EngineError('NOT_SUPPORTED', 'This connector does not support renaming views', s.location);
  await locatedAsync(s.location, async () => {
    await connector.createView!(metadata.session, target.schema, target.name, view, false);
    await connector.dropView!(metadata.session, source.schema, source.name);
  });
  return updateResult('RENAME VIEW');
}

/** Trino's layout: `CREATE VIEW c.s.v [COMMENT '...'] SECURITY DEFINER|INVOKER AS` and the view's query on the next line. */
export async function showCreateView(s: ast.ShowCreate, metadata: StatementMetadata): Promise<StatementResult> {
  const target = qualifiedObjectName(s.name, metadata.session);
  const qualified = formatName(target);
  if ((await metadata.table(s.name)) !== undefined)
    throw new EngineError('NOT_SUPPORTED', `Relation '${qualified}' is a table, not a view`, s.location);
  const view = await metadata.view(s.name);
  if (view === undefined) throw new EngineError('TABLE_NOT_FOUND', `View '${qualified}' does not exist`, s.location);
  const name = [target.catalog, target.schema, target.name].map(quoteIdentifier).join('.');
  const comment = view.comment === undefined ? '' : ` COMMENT ${formatStringLiteral(view.comment)}`;
  const text = `CREATE VIEW ${name}${comment} SECURITY ${view.runAsInvoker ? 'INVOKER' : 'DEFINER'} AS\n${view.originalSql}`;
  return rowsResult(varcharColumns('Create View'), [[text]]);
}

function formatName(q: QualifiedObjectName): string {
  return `${q.catalog}.${q.schema}.${q.name}`;
}
