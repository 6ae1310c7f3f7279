// How an INSERT writes each column of an existing table (copy-encoder.ts's targets): bit(1) columns
// take booleans as bits; json columns take a json value as json's text and jsonb columns as jsonb
// (Trino writes both through CAST(? AS json)); any other column read as text may only take NULLs.

import type { PostgresColumn } from './column-mapping.js';
import type { BooleanTarget } from './copy-encoder.js';
import type { PostgresClient } from './postgresql-client.js';

/** The table's columns of PostgreSQL type json (not jsonb): the catalog says, the engine's type does not. */
export async function plainJsonColumns(client: PostgresClient, schema: string, table: string): Promise<Set<string>> {
  const rows = await client.query<{ name: string }>(
    `SELECT a.attname AS name FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped AND a.atttypid = 'json'::regtype`,
    [schema, table],
  );
  return new Set(rows.map((r) => r.name));
}

export function writeTarget(column: PostgresColumn, plainJson: ReadonlySet<string>): BooleanTarget | 'nulls' {
  if (column.type.kind === 'json') return plainJson.has(column.name) ? 'json' : 'boolean';
  if (column.read === 'text') return 'nulls';
  return column.read === 'bit' ? 'bit' : 'boolean';
}
