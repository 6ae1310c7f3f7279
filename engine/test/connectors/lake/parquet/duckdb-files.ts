// A table of every type DuckDB writes to Parquet that maps onto ours, with NULLs and extreme values,
// and the types our format reads them as.

import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnMetadata } from '../../../../src/spi/connector.js';
import { typeOfName } from '../../../../scripts/bench/json-rows.js';

/** Column name, DuckDB expression over `i` (0..rows-1), and the type we read it as. */
const COLUMNS: [string, string, string][] = [
  ['id', 'i', 'bigint'],
  ['b', 'CASE WHEN i % 11 = 0 THEN NULL ELSE i % 3 = 0 END', 'boolean'],
  ['ti', 'CASE WHEN i % 13 = 0 THEN NULL ELSE ((i * 37) % 256 - 128)::TINYINT END', 'tinyint'],
  ['si', '((i * 7919) % 65536 - 32768)::SMALLINT', 'smallint'],
  ['i32', 'CASE WHEN i % 5 = 0 THEN NULL ELSE ((i % 30000) * 104729 - 2000000000)::INTEGER END', 'integer'],
  ['bi', '((i % 10000) * 900000000000000 - 4500000000000000000)::BIGINT', 'bigint'],
  ['uti', '(i % 256)::UTINYINT', 'smallint'],
  ['usi', '((i * 7) % 65536)::USMALLINT', 'integer'],
  ['ui', '((i * 429497) % 4294967296)::UINTEGER', 'bigint'],
  ['ubi', '((i % 10000)::UBIGINT * 1844674407370955)::UBIGINT', 'decimal(20,0)'],
  ['r', 'CASE WHEN i % 17 = 0 THEN NULL ELSE (i / 7.0 - 300)::REAL END', 'real'],
  [
    'd',
    "CASE WHEN i % 19 = 0 THEN NULL WHEN i = 1 THEN 'NaN'::DOUBLE WHEN i = 2 THEN '-Infinity'::DOUBLE ELSE i * 1.5e10 / 3.0 - 7e12 END",
    'double',
  ],
  ['dec4', '(((i * 37) % 19999 - 9999) / 100)::DECIMAL(4,2)', 'decimal(4,2)'],
  [
    'dec9',
    "CASE WHEN i % 23 = 0 THEN NULL ELSE ((CASE WHEN i % 2 = 0 THEN '-' ELSE '' END) || ((i * 12347) % 999999)::VARCHAR || '.' || lpad(((i * 7) % 1000)::VARCHAR, 3, '0'))::DECIMAL(9,3) END",
    'decimal(9,3)',
  ],
  [
    'dec18',
    "((CASE WHEN i % 3 = 0 THEN '-' ELSE '' END) || ((i * 98765432109) % 99999999999999)::VARCHAR || '.' || lpad(((i * 13) % 10000)::VARCHAR, 4, '0'))::DECIMAL(18,4)",
    'decimal(18,4)',
  ],
  [
    'dec38',
    "CASE WHEN i % 29 = 0 THEN NULL ELSE ((CASE WHEN i % 2 = 1 THEN '-' ELSE '' END) || i::VARCHAR || '123456789012345678.0123456789')::DECIMAL(38,10) END",
    'decimal(38,10)',
  ],
  ['dec38s', 'CASE WHEN i % 3 = 0 THEN NULL ELSE (((i * 7919) % 20000 - 10000) / 1000)::DECIMAL(38,3) END', 'decimal(38,3)'],
  [
    'v',
    "CASE WHEN i % 31 = 0 THEN NULL WHEN i % 10 = 3 THEN 'ünïcødé 😀 ' || i::VARCHAR ELSE 'str-' || i::VARCHAR || repeat('x', i % 5) END",
    'varchar',
  ],
  ['vlow', "CASE WHEN i % 37 = 0 THEN NULL ELSE ['alpha', 'beta', 'gamma', 'delta', ''][i % 5 + 1] END", 'varchar'],
  ['bl', "CASE WHEN i % 41 = 0 THEN NULL WHEN i % 4 = 0 THEN '\\xFF\\x00\\x80'::BLOB ELSE encode('bin' || i::VARCHAR) END", 'varbinary'],
  ['dt', "CASE WHEN i % 43 = 0 THEN NULL ELSE DATE '1970-01-01' + (i * 37 - 100000)::INTEGER END", 'date'],
  ['ts', 'make_timestamp(946684800000000 + (i % 5000) * 1234567890123 - 5000000000000000)', 'timestamp(6)'],
  ['tsms', 'CASE WHEN i % 47 = 0 THEN NULL ELSE epoch_ms((i % 10000) * 1234567890 - 6000000000000)::TIMESTAMP_MS END', 'timestamp(3)'],
  ['tsns', 'make_timestamp(946684800000000 + i * 987654321)::TIMESTAMP_NS', 'timestamp(6)'],
  ['tstz', 'make_timestamp(946684800000000 + i * 555555555)::TIMESTAMPTZ', 'timestamp(6)'],
  ['tm', "(TIMESTAMP '2000-01-01' + INTERVAL (i * 8639999) MICROSECOND)::TIME", 'time(6)'],
  ['uid', 'md5(i::VARCHAR)::UUID', 'varchar'],
];

export const ALL_TYPES_COLUMNS: ColumnMetadata[] = COLUMNS.map(([name, , type]) => ({ name, type: typeOfName(type) }));

/** Creates DuckDB table `name` with `rows` rows of every column above. */
export async function createAllTypesTable(duck: DuckDBConnection, name: string, rows: number): Promise<void> {
  await duck.run("SET TimeZone = 'UTC'");
  const select = COLUMNS.map(([column, expression]) => `${expression} AS ${column}`).join(',\n  ');
  await duck.run(`CREATE OR REPLACE TABLE ${name} AS SELECT\n  ${select}\nFROM range(${rows}) r(i) ORDER BY i`);
}

/** DuckDB's rows of the table's (or a query's) columns, in canonical text; `i` orders them. */
export function allTypesDuckSelect(): string {
  return COLUMNS.map(([name]) => name).join(', ');
}
