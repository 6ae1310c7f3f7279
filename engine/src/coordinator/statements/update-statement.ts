// UPDATE t SET c = e, ... [WHERE ...]: the connector replaces the rows the WHERE selects by their
// updated values in one atomic step (all or nothing), and the statement reports the rows updated.

import { storedColumnName } from './column-names.js';
import { EngineError } from '../../errors/engine-error.js';
import { compileProjection } from '../../exec/expression/index.js';
import { toChannels } from '../../exec/local-execution-planner.js';
import type { RowUpdate, TableMetadata } from '../../spi/connector.js';
import type { Page } from '../../columnar/page.js';
import type { Session } from '../../spi/session.js';
import { castExpression } from '../../sql/analyzer/time-zone-translation.js';
import type { StatementResult } from '../../spi/statement-result.js';
import { containsSubquery } from '../../sql/analyzer/ast-utils.js';
import { coerce, translateExpression } from '../../sql/analyzer/expression-translator.js';
import type { StatementMetadata } from '../../sql/metadata/statement-metadata.js';
import type * as ast from '../../sql/parser/ast.js';
import { symbolRef, type RowExpression } from '../../sql/planner/row-expression.js';
import { isStoreAssignable } from '../../types/coercion.js';
import { typeName, typesEqual } from '../../types/types.js';
import { cannotChangeRows, modifiedTable, rowPredicate, selectedRows, tableFields } from './ddl-statements.js';
import type { QueryRunner } from './merge-statement.js';
import { perRowResults, type PerRowResults } from './row-subqueries.js';
import { rowCountResult } from './results.js';
import { updateInPlace, type InPlaceConnector } from './in-place-row-change.js';

export async function updateRows(
  statement: ast.Update,
  metadata: StatementMetadata,
  parameters: readonly RowExpression[],
  runQuery: QueryRunner,
): Promise<StatementResult> {
  const session = metadata.session;
  const table = await modifiedTable(statement.table, metadata, 'Updating', statement.location, statement.branch);
  const connector = metadata.connector(table.catalog);
  if (connector.applyRowChange) {
    const made = await updateInPlace(checkedUpdate(statement, table), {
      table,
      connector: connector as InPlaceConnector,
      session,
      parameters,
    });
    if (made !== undefined) return made;
  }
  if (!connector.updateRows) throw cannotChangeRows(connector, statement.location);
  const s = checkedUpdate(statement, table);
  // SET values with subqueries come from a query over the table (row-subqueries.ts).
  const perRow = s.assignments.some((a) => containsSubquery(a.value))
    ? await perRowResults(
        s.table,
        table,
        s.assignments.map((a) => a.value),
        runQuery,
      )
    : undefined;
  const update = rowUpdate(s, table, session, parameters, perRow);
  const predicate =
    s.where !== undefined && containsSubquery(s.where)
      ? await selectedRows(s.table, s.where, table, runQuery)
      : rowPredicate(s.where, table, session, parameters, 'UPDATE');
  return rowCountResult('UPDATE', await connector.updateRows(session, table.schema, table.name, predicate, update));
}

/** The statement with each SET target spelled as the table names its column (column-names.ts), each a column of the table, once. */
export function checkedUpdate(statement: ast.Update, table: TableMetadata): ast.Update {
  const s = withStoredNames(statement, table);
  checkAssignments(s, table);
  return s;
}

/** The statement with each SET target spelled as the table names its column (column-names.ts). */
function withStoredNames(s: ast.Update, table: TableMetadata): ast.Update {
  const assignments = s.assignments.map((a) => {
    const value = storedColumnName(table, a.column.value) ?? a.column.value;
    return value === a.column.value ? a : { ...a, column: { ...a.column, value } };
  });
  return { ...s, assignments };
}

/** The SET targets name columns of the table, each once. */
function checkAssignments(s: ast.Update, table: TableMetadata): void {
  const assigned = new Set<string>();
  for (const assignment of s.assignments) {
    const name = assignment.column.value;
    if (!table.columns.some((c) => c.name === name))
      throw new EngineError('COLUMN_NOT_FOUND', `The UPDATE SET target column ${name} doesn't exist`, assignment.column.location);
    if (assigned.has(name))
      throw new EngineError(
        'DUPLICATE_COLUMN_NAME',
        `UPDATE SET column name is specified more than once: ${name}`,
        assignment.column.location,
      );
    assigned.add(name);
  }
}

/**
 * The new values of selected rows: each column's SET expression (cast to its type), or the column as
 * it was; with `perRow`, the SET values are the query's (one column per assignment after the table's).
 */
export function rowUpdate(
  s: ast.Update,
  table: TableMetadata,
  session: Session,
  parameters: readonly RowExpression[],
  perRow?: PerRowResults,
): RowUpdate {
  const { scope, symbols } = tableFields(table);
  // The SET values' symbols follow the table's (ids past theirs).
  const computed = perRow?.types.slice(table.columns.length).map((type, i) => ({ id: symbols.length + i, name: `set_${i}`, type })) ?? [];
  const layout = [...symbols, ...computed];
  const values = table.columns.map((column, i) => {
    const index = s.assignments.findIndex((a) => a.column.value === column.name);
    if (index === -1) return symbolRef(symbols[i]);
    if (perRow !== undefined) return symbolRef(computed[index]);
    return translateExpression(s.assignments[index].value, { scope, session, parameters });
  });
  const assigned = new Set(s.assignments.map((a) => a.column.value));
  checkSetTypes(
    s,
    table.columns.filter((c) => assigned.has(c.name)),
    values.filter((_, i) => assigned.has(table.columns[i].name)),
  );
  const project = compileProjection(
    values.map((e, i) => toChannels(assignmentCast(e, table.columns[i].type, session), layout, new Map())),
    layout.map((s) => s.type),
  );
  if (perRow !== undefined) return (rows: Page) => checkNotNull(project(perRow.rowsOf(rows)), table);
  return (rows: Page) => checkNotNull(project(rows), table);
}

/** Each SET value (`sources`) can be stored in its column (`targets`, in the same order), as Trino's analyzer checks. */
export function checkSetTypes(
  s: ast.Update,
  targets: readonly TableMetadata['columns'][number][],
  sources: readonly RowExpression[],
): void {
  if (
    sources.some((e, i) => !typesEqual(e.type, targets[i].type) && e.type.kind !== 'unknown' && !isStoreAssignable(e.type, targets[i].type))
  ) {
    throw new EngineError(
      'TYPE_MISMATCH',
      `UPDATE table column types don't match SET expressions: Table: [${targets.map((c) => typeName(c.type)).join(', ')}], Expressions: [${sources.map((e) => typeName(e.type)).join(', ')}]`,
      s.location,
    );
  }
}

/** A SET value as the column's type: Trino's assignment coercion (a cast that fails on values out of range; a plain timestamp into a zoned column in the session zone). */
export function assignmentCast(e: RowExpression, type: TableMetadata['columns'][number]['type'], session: Session): RowExpression {
  if (typesEqual(e.type, type)) return e;
  if (e.type.kind === 'unknown') return coerce(e, type);
  return { ...(castExpression(e, type, false, session) as RowExpression & { kind: 'cast' }), assignment: true };
}

/** The page, when no NOT NULL column of the table holds a NULL in it. */
export function checkNotNull(page: Page, table: TableMetadata): Page {
  table.columns.forEach((column, i) => {
    const nulls = page.columns[i].nulls;
    if (column.nullable !== false || nulls === null) return;
    for (let row = 0; row < page.rowCount; row++) {
      if (nulls[row] === 1) throw new EngineError('CONSTRAINT_VIOLATION', `NULL value not allowed for NOT NULL column: ${column.name}`);
    }
  });
  return page;
}
