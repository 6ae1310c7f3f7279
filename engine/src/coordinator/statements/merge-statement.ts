// MERGE INTO target [alias] USING source ON condition WHEN [NOT] MATCHED [AND ...] THEN ...:
// the source's rows are read by a query (over the cluster, as any query), the WHEN clauses are
// analyzed over the target's and the source's columns, and the connector replaces the table's rows
// with the merged ones in one atomic step. The update count is the rows deleted, updated and inserted.

import { storedColumnName } from './column-names.js';
import { EngineError, type SourceLocation } from '../../errors/engine-error.js';
import { compileFilter, compileProjection } from '../../exec/expression/index.js';
import { toChannels } from '../../exec/local-execution-planner.js';
import type { TableMetadata } from '../../spi/connector.js';
import type { Page } from '../../columnar/page.js';
import type { Session } from '../../spi/session.js';
import type { OutputColumn, StatementResult } from '../../spi/statement-result.js';
import { containsSubquery } from '../../sql/analyzer/ast-utils.js';
import { coerceToBoolean, translateExpression } from '../../sql/analyzer/expression-translator.js';
import { Scope, type Field } from '../../sql/analyzer/scope.js';
import type { StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import type * as ast from '../../sql/parser/ast.js';
import { symbolRef, type RowExpression, type Symbol } from '../../sql/planner/row-expression.js';
import { SymbolAllocator } from '../../sql/planner/symbols.js';
import { splitEquiConjuncts } from '../../sql/planner/join-predicates.js';
import { extractConjuncts } from '../../sql/planner/plan-factory.js';
import type { Assignment, EquiJoinClause } from '../../sql/planner/plan.js';
import { isStoreAssignable } from '../../types/coercion.js';
import { typeName, typesEqual } from '../../types/types.js';
import { cannotChangeRows, modifiedTable } from './ddl-statements.js';
import { mergeChanges, mergeRows, type CompiledMerge, type MergeClause } from './merge-rows.js';
import { rowCountResult } from './results.js';
import { omittedColumnValue } from './column-defaults.js';
import { assignmentCast, checkNotNull } from './update-statement.js';

/** Runs a query to its end: its columns and all its pages. */
export type QueryRunner = (query: ast.Query) => Promise<{ columns: readonly OutputColumn[]; pages: Page[] }>;

export async function merge(
  s: ast.Merge,
  metadata: StatementMetadata,
  parameters: readonly RowExpression[],
  runQuery: QueryRunner,
): Promise<StatementResult> {
  const session = metadata.session;
  const table = await modifiedTable(s.target, metadata, 'Merging into', s.location, s.branch);
  const connector = metadata.connector(table.catalog);
  const refusal = await connector.rowLevelChangeRefusal?.(session, table.schema, table.name);
  if (refusal !== undefined) throw new EngineError('NOT_SUPPORTED', refusal, s.location);
  if (!connector.rewriteRows && !connector.mergeRows) throw cannotChangeRows(connector, s.location);
  const source = await runQuery(selectAll(s.source));
  const compiled = compileMerge(s, table, source.columns, session, parameters);
  // A connector that changes single rows (by key) is told which; otherwise it replaces the table's rows.
  const changed = connector.mergeRows
    ? await connector.mergeRows(session, table.schema, table.name, (rows) => mergeChanges(compiled, rows, source.pages))
    : await connector.rewriteRows!(session, table.schema, table.name, (rows) => mergeRows(compiled, rows, source.pages));
  return rowCountResult('MERGE', changed);
}

/** `SELECT * FROM source`, the source relation's rows. */
function selectAll(source: ast.Relation): ast.Query {
  const location = source.location;
  const body: ast.QuerySpecification = {
    kind: 'QuerySpecification',
    select: { kind: 'Select', distinct: false, items: [{ kind: 'AllColumns', location }], location },
    from: source,
    windows: [],
    orderBy: [],
    location,
  };
  return { kind: 'Query', body, orderBy: [], location };
}

/** The name that qualifies the source's columns: its alias, or the table's name. */
function sourceQualifier(source: ast.Relation): string[] | undefined {
  if (source.kind === 'AliasedRelation') return [source.alias.value];
  if (source.kind === 'Table') return source.name.parts.map((p) => p.value);
  return undefined;
}

function compileMerge(
  s: ast.Merge,
  table: TableMetadata,
  sourceColumns: readonly OutputColumn[],
  session: Session,
  parameters: readonly RowExpression[],
): CompiledMerge {
  const allocator = new SymbolAllocator();
  const targetQualifier = s.alias ? [s.alias.value] : [table.catalog, table.schema, table.name];
  const targetFields: Field[] = table.columns.map((c) => ({
    name: c.name,
    qualifier: targetQualifier,
    symbol: allocator.newSymbol(c.name, c.type),
  }));
  const qualifier = sourceQualifier(s.source);
  const sourceFields: Field[] = sourceColumns.map((c) => ({ name: c.name, qualifier, symbol: allocator.newSymbol(c.name, c.type) }));
  const layout: Symbol[] = [...targetFields, ...sourceFields].map((f) => f.symbol);
  const types = layout.map((symbol) => symbol.type);
  const scope = new Scope([...targetFields, ...sourceFields]);
  const translate = (e: ast.Expression) => {
    if (containsSubquery(e)) throw new EngineError('NOT_SUPPORTED', 'Subqueries in MERGE are not supported', e.location);
    return translateExpression(e, { scope, session, parameters });
  };
  const mask = (condition: RowExpression) => {
    const compiled = compileFilter(toChannels(condition, layout, new Map()), types);
    return (page: Page) => {
      const selected = new Uint8Array(page.rowCount);
      const { positions, count } = compiled(page);
      for (let i = 0; i < count; i++) selected[positions[i]] = 1;
      return selected;
    };
  };
  const filter = (e: ast.Expression, what: string) => mask(coerceToBoolean(translate(e), what, e.location));
  const clauses = s.cases.map((clause, index): MergeClause => {
    const condition = clause.condition === undefined ? undefined : filter(clause.condition, 'WHERE clause predicate');
    if (clause.kind === 'MergeDelete') return { matched: true, ...(condition ? { condition } : {}) };
    const names = clause.kind === 'MergeUpdate' ? clause.assignments.map((a) => a.column) : clause.columns;
    const values = clause.kind === 'MergeUpdate' ? clause.assignments.map((a) => a.value) : clause.values;
    const assigned = assignments(table, names, values, clause.location);
    const typed = [...assigned].map(([name, e]) => ({ column: table.columns.find((c) => c.name === name)!, value: translate(e) }));
    if (
      typed.some(
        ({ column, value }) =>
          !typesEqual(value.type, column.type) && value.type.kind !== 'unknown' && !isStoreAssignable(value.type, column.type),
      )
    ) {
      throw new EngineError(
        'TYPE_MISMATCH',
        `MERGE table column types don't match for MERGE case ${index}, SET expressions: Table: [${typed.map((t) => typeName(t.column.type)).join(', ')}], Expressions: [${typed.map((t) => typeName(t.value.type)).join(', ')}]`,
        clause.location,
      );
    }
    const row = table.columns.map((column, i) => {
      const value = typed.find((t) => t.column === column)?.value;
      if (value !== undefined) return assignmentCast(value, column.type, session);
      // A column the clause does not set: as it was (UPDATE), its default or NULL (INSERT).
      return clause.kind === 'MergeUpdate' ? symbolRef(targetFields[i].symbol) : omittedColumnValue(column, session);
    });
    const projection = compileProjection(
      row.map((e) => toChannels(e, layout, new Map())),
      types,
    );
    const project = (page: Page) => checkNotNull(projection(page), table);
    return { matched: clause.kind === 'MergeUpdate', project, ...(condition ? { condition } : {}) };
  });
  const on = coerceToBoolean(translate(s.on), 'The MERGE predicate', s.on.location);
  const targetSymbols = targetFields.map((f) => f.symbol);
  const sourceSymbols = sourceFields.map((f) => f.symbol);
  const keys = mergeKeys(on, targetSymbols, sourceSymbols, allocator);
  return {
    targetTypes: table.columns.map((c) => c.type),
    sourceTypes: sourceColumns.map((c) => c.type),
    on: mask(on),
    clauses,
    ...(keys ? { keys } : {}),
  };
}

/** The `target = source` conjuncts of ON as key projections of each side's rows; undefined when there are none. */
function mergeKeys(on: RowExpression, targetSymbols: Symbol[], sourceSymbols: Symbol[], allocator: SymbolAllocator): CompiledMerge['keys'] {
  const split = splitEquiConjuncts(extractConjuncts(on), targetSymbols, sourceSymbols, (name, type) => allocator.newSymbol(name, type));
  if (split.criteria.length === 0) return undefined;
  const side = (symbols: Symbol[], assignments: Assignment[], key: (c: EquiJoinClause) => Symbol) => {
    const expressions = split.criteria.map((c) => assignments.find((a) => a.symbol.id === key(c).id)?.expression ?? symbolRef(key(c)));
    return compileProjection(
      expressions.map((e) => toChannels(e, symbols, new Map())),
      symbols.map((s) => s.type),
    );
  };
  return {
    target: side(targetSymbols, split.leftAssignments, (c) => c.left),
    source: side(sourceSymbols, split.rightAssignments, (c) => c.right),
  };
}

/** The clause's expressions by the column each sets (an INSERT without a column list sets all, in order). */
function assignments(
  table: TableMetadata,
  names: readonly ast.Identifier[] | undefined,
  values: readonly ast.Expression[],
  location: SourceLocation,
): Map<string, ast.Expression> {
  const columns = names?.map((n) => storedColumnName(table, n.value) ?? n.value.toLowerCase()) ?? table.columns.map((c) => c.name);
  if (columns.length !== values.length)
    throw new EngineError(
      'GENERIC_USER_ERROR',
      `Number of merge columns (${columns.length}) isn't equal to number of expressions (${values.length})`,
      location,
    );
  const assigned = new Map<string, ast.Expression>();
  columns.forEach((name, i) => {
    if (!table.columns.some((c) => c.name === name))
      throw new EngineError('COLUMN_NOT_FOUND', `Merge column name does not exist in target table: ${name}`, location);
    if (assigned.has(name))
      throw new EngineError('DUPLICATE_COLUMN_NAME', `Merge column name is specified more than once: ${name}`, location);
    assigned.set(name, values[i]);
  });
  return assigned;
}
