// PostgreSQL column types onto the engine's (Trino's PostgreSQL type mapping), and how each column
// is read: its value as sent in binary COPY, or its text (`unsupported-type-handling =
// CONVERT_TO_VARCHAR` for the types the engine has no type for yet: timestamptz, money, intervals,
// arrays, ...). json and jsonb are the engine's json, read as their text made canonical (Trino's
// jsonParse: keys sorted, no spaces); like Trino (DISABLE_PUSHDOWN), nothing compares them in PostgreSQL.

import {
  BIGINT,
  BOOLEAN,
  JSON_TYPE,
  DOUBLE,
  INTEGER,
  REAL,
  SMALLINT,
  UUID,
  VARBINARY,
  DATE,
  VARCHAR,
  MAX_DECIMAL_PRECISION,
  decimal,
  varchar,
  type SqlType,
} from '../../types/types.js';

/** How a column is selected: its own value, its text (`::text`), or a bit(1) as a boolean. */
export type ColumnRead = 'value' | 'text' | 'bit';

/** A table column as the connector reads it. */
export interface PostgresColumn {
  name: string;
  type: SqlType;
  read: ColumnRead;
  notNull: boolean;
}

/** What the catalog says of one column (pg_attribute, pg_type). */
export interface CatalogColumn {
  name: string;
  /** pg_type.typname of the column's type (of the base type for a domain). */
  typeName: string;
  /** pg_type.typtype: b(ase), e(num), d(omain), ... */
  typeType: string;
  typmod: number;
  notNull: boolean;
}

export type UnsupportedTypeHandling = 'IGNORE' | 'CONVERT_TO_VARCHAR';

/** The column as the engine sees it, or undefined when it is skipped (a type without a mapping, IGNORE). */
export function mapColumn(column: CatalogColumn, unsupported: UnsupportedTypeHandling): PostgresColumn | undefined {
  const type = mappedType(column);
  const base = { name: column.name, notNull: column.notNull };
  if (type !== undefined) return { ...base, type, read: readOf(column.typeName) };
  return unsupported === 'IGNORE' ? undefined : { ...base, type: VARCHAR, read: 'text' };
}

function readOf(typeName: string): ColumnRead {
  if (typeName === 'bit') return 'bit';
  return typeName === 'json' || typeName === 'jsonb' ? 'text' : 'value';
}

function mappedType(column: CatalogColumn): SqlType | undefined {
  const typmod = column.typmod;
  if (column.typeType === 'e') return VARCHAR;
  if (column.typeType !== 'b') return undefined;
  switch (column.typeName) {
    case 'bool':
      return BOOLEAN;
    case 'bit':
      return typmod === 1 ? BOOLEAN : undefined;
    case 'int2':
      return SMALLINT;
    case 'int4':
      return INTEGER;
    case 'int8':
      return BIGINT;
    case 'float4':
      return REAL;
    case 'float8':
      return DOUBLE;
    case 'numeric': {
      // Unbounded numeric has no decimal type (Trino's decimal-mapping STRICT): unsupported.
      if (typmod < 0) return undefined;
      const precision = ((typmod - 4) >> 16) & 0xffff;
      // The scale is an 11-bit signed field since PostgreSQL 15 (negative scales, scales above the precision).
      const scale = (((typmod - 4) & 0x7ff) << 21) >> 21;
      if (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale < 0 || scale > precision) return undefined;
      return decimal(precision, scale);
    }
    case 'bpchar':
      return typmod < 0 ? VARCHAR : { kind: 'char', length: typmod - 4 };
    case 'varchar':
      return typmod < 0 ? VARCHAR : varchar(typmod - 4);
    case 'text':
      return VARCHAR;
    case 'bytea':
      return VARBINARY;
    case 'uuid':
      return UUID;
    case 'json':
    case 'jsonb':
      return JSON_TYPE;
    case 'date':
      return DATE;
    case 'time':
      return { kind: 'time', precision: typmod < 0 ? 6 : typmod };
    case 'timestamp':
      return { kind: 'timestamp', precision: typmod < 0 ? 6 : typmod };
    default:
      return undefined;
  }
}
