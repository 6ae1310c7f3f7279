// DELETE and UPDATE made by PostgreSQL in one statement of its own, as Trino's PostgreSQL connector
// makes them (executeDelete / executeUpdate): only when every WHERE conjunct is a filter the scan
// pushdown takes (filter-sql.ts: the server evaluates it exactly as the engine) and every SET value
// is a constant written exactly. One statement is one PostgreSQL transaction: all rows or none.
// The rest is a change of single rows, made by the table's primary key (keyed-changes.ts).

import type { InPlaceRowChange } from '../../spi/connector.js';
import { typesEqual } from '../../types/types.js';
import type { PostgresColumn } from './column-mapping.js';
import { filterSql } from './filter-sql.js';
import type { PostgresClient } from './postgresql-client.js';
import { columnLookup } from './scan-query.js';
import { literal, qualifiedTable, quoteIdentifier } from './sql-text.js';

/** The DELETE or UPDATE statement for the change, or undefined when PostgreSQL cannot make it whole. */
export function rowChangeSql(
  schema: string,
  table: string,
  columns: readonly PostgresColumn[],
  orderedText: boolean,
  change: InPlaceRowChange,
  filterPushdown: boolean,
): string | undefined {
  if (change.where === undefined || (change.where.length > 0 && !filterPushdown)) return undefined;
  const lookup = columnLookup(columns, orderedText);
  const where: string[] = [];
  for (const conjunct of change.where) {
    const sql = filterSql(conjunct, lookup);
    if (sql === undefined) return undefined;
    where.push(sql);
  }
  const whereClause = where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`;
  if (change.set === undefined) return `DELETE FROM ${qualifiedTable(schema, table)}${whereClause}`;
  const assignments: string[] = [];
  for (const { column: name, value } of change.set) {
    const column = lookup.columns.get(name);
    // A column read as text or as bit(1) holds values the engine's literal would not write as they are.
    if (column === undefined || column.read !== 'value' || value?.kind !== 'constant' || !typesEqual(value.type, column.type))
      return undefined;
    const sql = literal(value.value, column.type);
    if (sql === undefined) return undefined;
    assignments.push(`${quoteIdentifier(name)} = ${sql}`);
  }
  return `UPDATE ${qualifiedTable(schema, table)} SET ${assignments.join(', ')}${whereClause}`;
}

/** Runs the statement (in autocommit: one transaction); the rows it deleted or updated. */
export async function runRowChange(client: PostgresClient, sql: string): Promise<number> {
  return client.withConnection(async (connection) => (await connection.query(sql)).rowCount ?? 0);
}
