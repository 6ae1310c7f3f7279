// What PostgreSQL's catalog says of schemas, tables and columns: the queries and their rows.

import type { SchemaTableName } from '../../spi/connector.js';
import type { CatalogColumn } from './column-mapping.js';
import type { PostgresClient } from './postgresql-client.js';

/** Schemas PostgreSQL keeps for itself; `information_schema` is the engine's own in every catalog. */
const HIDDEN_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp\\_%'`;

/** Tables, partitioned tables, views, materialized views and foreign tables, as Trino lists them. */
const TABLE_KINDS = `c.relkind IN ('r', 'p', 'v', 'm', 'f')`;

export async function listSchemas(client: PostgresClient): Promise<string[]> {
  const rows = await client.query<{ name: string }>(`SELECT n.nspname AS name FROM pg_namespace n WHERE ${HIDDEN_SCHEMAS} ORDER BY 1`);
  return rows.map((r) => r.name);
}

export async function schemaExists(client: PostgresClient, schema: string): Promise<boolean> {
  const rows = await client.query(`SELECT 1 FROM pg_namespace n WHERE n.nspname = $1 AND ${HIDDEN_SCHEMAS}`, [schema]);
  return rows.length > 0;
}

export async function listTables(client: PostgresClient, schema?: string): Promise<SchemaTableName[]> {
  const rows = await client.query<{ schema: string; table: string }>(
    `SELECT n.nspname AS schema, c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE ${TABLE_KINDS} AND ${HIDDEN_SCHEMAS} AND ($1::text IS NULL OR n.nspname = $1) ORDER BY 1, 2`,
    [schema ?? null],
  );
  return rows;
}

export interface CatalogTable {
  columns: CatalogColumn[];
  /** The columns of the primary key, in its order (none without one). */
  keyColumns: string[];
  /** pg_class.reltuples: the planner's estimate, -1 before the table was first analyzed. */
  estimatedRows: number;
  /** The database's encoding is UTF8: its text under COLLATE "C" orders by code point. */
  utf8: boolean;
}

interface ColumnRow {
  name: string;
  type_name: string;
  type_type: string;
  typmod: number;
  not_null: boolean;
}

/** The table's columns in order, or undefined when there is no such table (or view). */
export async function describeTable(client: PostgresClient, schema: string, table: string): Promise<CatalogTable | undefined> {
  return client.withConnection(async (connection) => {
    const relation = await connection.query<{ oid: number; reltuples: number; encoding: string }>(
      `SELECT c.oid, c.reltuples, current_setting('server_encoding') AS encoding FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2 AND ${TABLE_KINDS} AND ${HIDDEN_SCHEMAS}`,
      [schema, table],
    );
    if (relation.rows.length === 0) return undefined;
    const { oid, reltuples, encoding } = relation.rows[0];
    // A domain is read as its base type.
    const columns = await connection.query<ColumnRow>(
      `SELECT a.attname AS name,
              COALESCE(bt.typname, t.typname) AS type_name,
              COALESCE(bt.typtype, t.typtype) AS type_type,
              CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END AS typmod,
              a.attnotnull AS not_null
       FROM pg_attribute a
       JOIN pg_type t ON t.oid = a.atttypid
       LEFT JOIN pg_type bt ON t.typtype = 'd' AND bt.oid = t.typbasetype
       WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped
       ORDER BY a.attnum`,
      [oid],
    );
    const key = await connection.query<{ name: string }>(
      `SELECT a.attname AS name FROM pg_index i CROSS JOIN LATERAL unnest(CAST(i.indkey AS int2[])) WITH ORDINALITY AS k(attnum, n)
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
       WHERE i.indrelid = $1 AND i.indisprimary AND k.n <= i.indnkeyatts ORDER BY k.n`,
      [oid],
    );
    return {
      columns: columns.rows.map((r) => ({
        name: r.name,
        typeName: r.type_name,
        typeType: r.type_type,
        typmod: r.typmod,
        notNull: r.not_null,
      })),
      keyColumns: key.rows.map((r) => r.name),
      estimatedRows: Number(reltuples),
      utf8: encoding === 'UTF8',
    };
  });
}

/** What PostgreSQL's ANALYZE sampled of a column (pg_stats); null where it says nothing. */
export interface CatalogColumnStatistics {
  name: string;
  /** float4 values, as PostgreSQL keeps them (widened exactly). */
  nullFraction: number | null;
  /** Distinct values, or when negative minus their number per row. */
  distinct: number | null;
  /** Average bytes of a non-NULL value. */
  averageWidth: number | null;
}

export async function columnStatistics(client: PostgresClient, schema: string, table: string): Promise<CatalogColumnStatistics[]> {
  // A partitioned table's own rows are the `inherited` ones (of all its partitions); a plain table has only others.
  const rows = await client.query<{ name: string; null_frac: number | null; n_distinct: number | null; avg_width: number | null }>(
    'SELECT DISTINCT ON (attname) attname AS name, null_frac, n_distinct, avg_width FROM pg_stats WHERE schemaname = $1 AND tablename = $2 ORDER BY attname, inherited DESC',
    [schema, table],
  );
  const float4 = (v: number | string | null) => (v === null ? null : Math.fround(Number(v)));
  return rows.map((r) => ({
    name: r.name,
    nullFraction: float4(r.null_frac),
    distinct: float4(r.n_distinct),
    averageWidth: r.avg_width === null ? null : Number(r.avg_width),
  }));
}
