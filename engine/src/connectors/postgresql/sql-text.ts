// PostgreSQL SQL text: quoted identifiers, and constants as typed literals that PostgreSQL reads
// back as exactly the engine's value (or undefined where no literal is certain to).

import type { Scalar } from '../../types/scalar.js';
import { formatDecimal } from '../../types/decimal.js';
import { formatDate, formatTimeOfDay, yearOfDays } from '../../types/datetime.js';
import { floorDiv, readPicos } from '../../types/long-plain-temporal.js';
import { formatValueAsText } from '../../types/values.js';
import { PICOS_PER_DAY } from '../../types/zoned-time.js';
import type { SqlType } from '../../types/types.js';

/** `name` as a PostgreSQL identifier: always quoted, so case and reserved words are kept. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function qualifiedTable(schema: string, table: string): string {
  return `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`;
}

/** A string literal (standard_conforming_strings is on for our connections: backslashes are plain). */
export function quoteString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The PostgreSQL type an engine type is written as (CREATE TABLE, casts); undefined where there is none. */
export function postgresTypeName(type: SqlType): string | undefined {
  switch (type.kind) {
    case 'boolean':
      return 'boolean';
    case 'tinyint':
    case 'smallint':
      return 'smallint';
    case 'integer':
      return 'integer';
    case 'bigint':
      return 'bigint';
    case 'real':
      return 'real';
    case 'double':
      return 'double precision';
    case 'decimal':
      return `numeric(${type.precision},${type.scale})`;
    case 'varchar':
      return type.length === undefined ? 'text' : `varchar(${type.length})`;
    case 'char':
      return `char(${type.length})`;
    case 'varbinary':
      return 'bytea';
    case 'uuid':
      return 'uuid';
    case 'json':
      // As Trino's PostgreSQL connector creates json columns.
      return 'jsonb';
    case 'date':
      return 'date';
    case 'time':
      return type.precision <= 6 ? `time(${type.precision})` : undefined;
    case 'timestamp':
      return type.precision <= 6 ? `timestamp(${type.precision})` : undefined;
    default:
      return undefined;
  }
}

/** Years both sides spell alike (PostgreSQL writes years before 1 as BC, and reads 5-digit years only with a sign rule of its own). */
function ordinaryYear(days: number): boolean {
  const year = yearOfDays(days);
  return year >= 1 && year <= 9999;
}

/** `value` of `type` as a typed PostgreSQL literal, or undefined where the literal might not be exact. */
export function literal(value: Scalar, type: SqlType): string | undefined {
  const pgType = postgresTypeName(type);
  if (pgType === undefined) return undefined;
  if (value === null) return `CAST(NULL AS ${pgType})`;
  switch (type.kind) {
    case 'boolean':
      return value === true || value === 1 ? 'TRUE' : 'FALSE';
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
      return `CAST(${quoteString(String(value))} AS ${pgType})`;
    case 'real':
    case 'double':
      // Shortest round-trip text; PostgreSQL reads it to the same bits. NaN compares differently there.
      return Number.isNaN(value) ? undefined : `CAST(${quoteString(String(value))} AS ${pgType})`;
    case 'decimal':
      return `CAST(${quoteString(formatDecimal(value as bigint, type.scale))} AS ${pgType})`;
    case 'varchar':
    case 'char':
      // PostgreSQL text cannot hold NUL.
      return (value as string).includes('\u0000') ? undefined : `CAST(${quoteString(value as string)} AS ${pgType})`;
    case 'varbinary':
      return `CAST('\\x${Buffer.from(value as Uint8Array).toString('hex')}' AS bytea)`;
    case 'uuid':
      return `CAST(${quoteString(value as string)} AS uuid)`;
    case 'date':
      return ordinaryYear(value as number) ? `CAST(${quoteString(formatDate(value as number))} AS date)` : undefined;
    case 'time':
      return `CAST(${quoteString(formatTimeOfDay(value as number, 6))} AS ${pgType})`;
    case 'timestamp':
      return ordinaryYear(Number(floorDiv(readPicos(type)(value), PICOS_PER_DAY)))
        ? `CAST(${quoteString(formatValueAsText(value, type))} AS ${pgType})`
        : undefined;
    default:
      return undefined;
  }
}
