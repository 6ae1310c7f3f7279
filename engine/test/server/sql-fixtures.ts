// SQL that produces known results without any table: VALUES lists and their cross joins.

/** `(VALUES 0, 1, ..., n - 1) AS alias(column)` */
export function numbers(n: number, alias: string, column: string): string {
  return `(VALUES ${Array.from({ length: n }, (_, i) => i).join(', ')}) AS ${alias}(${column})`;
}

/** 100^3 = 1,000,000 rows with v = 0 .. 999,999, each once. */
export const MILLION_ROWS_SQL = `SELECT a.x * 10000 + b.y * 100 + c.z AS v FROM ${numbers(100, 'a', 'x')} CROSS JOIN ${numbers(100, 'b', 'y')} CROSS JOIN ${numbers(100, 'c', 'z')}`;
