// Column names in statements, as Trino treats them: a new column is stored in lower case (Trino's
// ColumnMetadata keeps every name so), and a statement's name for an existing column finds it
// ignoring case (a PostgreSQL table's "D" included), the exact spelling first.

import type { TableMetadata } from '../../spi/connector.js';
import { sameName } from '../../sql/analyzer/scope.js';

/** The name a new column is stored under: CREATE TABLE t ("D" integer) makes a column d. */
export function newColumnName(name: string): string {
  return name.toLowerCase();
}

/** The table's name of the column a statement names, or undefined when it has none of that name. */
export function storedColumnName(table: TableMetadata, name: string): string | undefined {
  return table.columns.find((c) => c.name === name)?.name ?? table.columns.find((c) => sameName(c.name, name))?.name;
}
