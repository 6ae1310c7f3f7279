// DuckDB as a correctness oracle: loads the same rows and normalises its results for comparison.

import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

export async function openDuckDb(threads?: number): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(':memory:', threads ? { threads: String(threads) } : {});
  return instance.connect();
}

/** Loads a `|`-separated .tbl file (trailing `|`) into a table declared with `columns`. */
export async function loadTbl(db: DuckDBConnection, table: string, columns: [string, string][], file: string): Promise<void> {
  await db.run(`CREATE TABLE ${table} (${columns.map(([n, t]) => `${n} ${t}`).join(', ')})`);
  const cols = `{${columns.map(([n, t]) => `'${n}': '${t}'`).join(', ')}}`;
  await db.run(`INSERT INTO ${table} SELECT * FROM read_csv('${file}', delim='|', header=false, columns=${cols}, quote='', escape='')`);
}

export async function duckRows(db: DuckDBConnection, sql: string): Promise<unknown[][]> {
  const reader = await db.runAndReadAll(sql);
  return reader.getRows() as unknown[][];
}
