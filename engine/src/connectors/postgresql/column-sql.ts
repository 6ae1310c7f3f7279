// How pushed-down SQL names a table's columns: the column itself where its value is what the engine
// reads, never the text of a column read as text (its comparisons would be of that text).

import type { PostgresColumn } from './column-mapping.js';
import { quoteIdentifier } from './sql-text.js';

/** The columns of the table a query reads, and whether its text orders as the engine's under COLLATE "C" (a UTF8 database). */
export interface ColumnLookup {
  columns: ReadonlyMap<string, PostgresColumn>;
  orderedText: boolean;
}

/**
 * `value`: the column as a value of its engine type (a bit(1) as a boolean), undefined for a column
 * read as text; `any`: the column itself, whatever it holds (for IS NULL).
 */
export function columnReference(name: string, lookup: ColumnLookup, mode: 'value' | 'any'): string | undefined {
  const column = lookup.columns.get(name);
  if (column === undefined) return undefined;
  if (mode === 'any') return quoteIdentifier(name);
  if (column.read === 'text') return undefined;
  return column.read === 'bit' ? `(${quoteIdentifier(name)} = B'1')` : quoteIdentifier(name);
}

/** What a scan selects for a column: its value, or its text. */
export function selectExpression(column: PostgresColumn): string {
  if (column.read === 'text') return `CAST(${quoteIdentifier(column.name)} AS text)`;
  return columnReference(column.name, { columns: new Map([[column.name, column]]), orderedText: false }, 'value')!;
}
