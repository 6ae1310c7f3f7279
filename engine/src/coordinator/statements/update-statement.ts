// UPDATE t SET c = e, ... [WHERE ...]: the connector replaces the rows the WHERE selects by their
// updated values in one atomic step (all or nothing), and the statement reports the rows updated.

import { EngineError } from '../../errors/engine-error.js';
import { compileProjection } from '../../exec/expression/index.js';
import { toChannels } from '../../exec/local-execution-planner.js';
import type { RowUpdate, TableMetadata } from '../../spi/connector.js';
import type { Page } from '../../spi/page.js';
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
import { cannotChangeRows, modifiedTable, rowPredicate, tableFields } from './ddl-statements.js';
import { rowCountResult } from './results.js';

export async function updateRows(s: ast.Update, metadata: StatementMetadata, parameters: readonly RowExpression[]): Promise<StatementResult> {
  const session = metadata.session;
  const table = await modifiedTable(s.table, metadata, 'Updating', s.location, s.branch);
  const update = rowUpdate(s, table, session, parameters);
  const predicate = rowPredicate(s.where, table, session, parameters, 'UPDATE');
  const connector = metadata.connector(table.catalog);
  if (!connector.updateRows) throw cannotChangeRows(connector, s.location);
  return rowCountResult('UPDATE', await connector.updateRows(session, table.schema, table.name, predicate, update));
}

/** The new values of selected rows: each column's SET expression (cast to its type), or the column as it was. */
export function rowUpdate(s: ast.Update, table: TableMetadata, session: Session, parameters: readonly RowExpression[]): RowUpdate {
  const { scope, symbols } = tableFields(table);
  const assigned = new Map<string, ast.UpdateAssignment>();
  for (const assignment of s.assignments) {
    const name = assignment.column.value;
    if (!table.columns.some((c) => c.name === name)) throw new EngineError('COLUMN_NOT_FOUND', `The UPDATE SET target column ${name} doesn't exist`, assignment.column.location);
    if (assigned.has(name)) throw new EngineError('DUPLICATE_COLUMN_NAME', `UPDATE SET column name is specified more than once: ${name}`, assignment.column.location);
    if (containsSubquery(assignment.value)) throw new EngineError('NOT_SUPPORTED', 'Subqueries in UPDATE are not supported', assignment.value.location);
    assigned.set(name, assignment);
  }
  const values = table.columns.map((column, i) => {
    const assignment = assigned.get(column.name);
    if (assignment === undefined) return symbolRef(symbols[i]);
    return translateExpression(assignment.value, { scope, session, parameters });
  });
  const targets = table.columns.filter((c) => assigned.has(c.name));
  const sources = values.filter((_, i) => assigned.has(table.columns[i].name));
  if (sources.some((e, i) => !typesEqual(e.type, targets[i].type) && e.type.kind !== 'unknown' && !isStoreAssignable(e.type, targets[i].type))) {
    throw new EngineError(
      'TYPE_MISMATCH',
      `UPDATE table column types don't match SET expressions: Table: [${targets.map((c) => typeName(c.type)).join(', ')}], Expressions: [${sources.map((e) => typeName(e.type)).join(', ')}]`,
      s.location,
    );
  }
  const project = compileProjection(
    values.map((e, i) => toChannels(assignmentCast(e, table.columns[i].type, session), symbols, new Map())),
    table.columns.map((c) => c.type),
  );
  return (rows: Page) => checkNotNull(project(rows), table);
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
