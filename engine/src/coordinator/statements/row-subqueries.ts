// DELETE and UPDATE whose WHERE or SET values hold subqueries (`IN (SELECT ...)`, EXISTS, scalar
// subqueries, correlated with the row or not): one query over the table (planned and run as any
// query, on the cluster where there is one) computes each row's WHERE and SET values beside the row's
// columns; the connector's atomic step then finds each of its rows' results by the row's values.
// Rows with the same values get the same results (the statement's expressions see nothing else of a
// row), so matching by value is exact; a row the query did not see (written since) fails the statement.

import { EngineError } from '../../errors/engine-error.js';
import type { TableMetadata } from '../../spi/connector.js';
import { concatPages, getScalar, takePage, type Page } from '../../columnar/page.js';
import type { OutputColumn } from '../../spi/statement-result.js';
import type * as ast from '../../sql/parser/ast.js';
import type { SqlType } from '../../types/types.js';
import type { QueryRunner } from './merge-statement.js';

export interface PerRowResults {
  /** The types of the results page: the table's columns, then one per expression. */
  types: SqlType[];
  /** The results of the rows of `page` (table columns, in table order), in its row order. */
  rowsOf(page: Page): Page;
}

/** Runs `SELECT *, expressions... FROM table` and indexes its rows by the table columns' values. */
export async function perRowResults(
  tableName: ast.QualifiedName,
  table: TableMetadata,
  expressions: readonly ast.Expression[],
  runQuery: QueryRunner,
): Promise<PerRowResults> {
  const { columns, pages } = await runQuery(perRowQuery(tableName, expressions));
  const width = table.columns.length;
  if (columns.length !== width + expressions.length)
    throw new EngineError(
      'GENERIC_INTERNAL_ERROR',
      `The rows of ${table.name} came with ${columns.length} columns, not ${width + expressions.length}`,
    );
  const types = columns.map((c: OutputColumn) => c.type);
  const results = concatPages(types, pages);
  const index = new Map<string, number>();
  for (let row = 0; row < results.rowCount; row++) index.set(rowKey(results, row, width), row);
  return {
    types,
    rowsOf(page: Page): Page {
      const positions = new Int32Array(page.rowCount);
      for (let row = 0; row < page.rowCount; row++) {
        const found = index.get(rowKey(page, row, width));
        if (found === undefined)
          throw new EngineError(
            'AUTOCOMMIT_WRITE_CONFLICT',
            `Rows of table ${table.name} changed while the statement read them; run it again`,
          );
        positions[row] = found;
      }
      return takePage(results, positions);
    },
  };
}

/** `SELECT *, expressions... FROM table`. */
export function perRowQuery(tableName: ast.QualifiedName, expressions: readonly ast.Expression[]): ast.Query {
  const location = tableName.location;
  const items: ast.SelectItem[] = [
    { kind: 'AllColumns', location },
    ...expressions.map((expression): ast.SelectItem => ({ kind: 'SelectExpression', expression, location: expression.location })),
  ];
  const body: ast.QuerySpecification = {
    kind: 'QuerySpecification',
    select: { kind: 'Select', distinct: false, items, location },
    from: { kind: 'Table', name: tableName, location },
    windows: [],
    orderBy: [],
    location,
  };
  return { kind: 'Query', body, orderBy: [], location };
}

/** The values of the first `width` columns of a row as text, NULL distinct from every value (maps as their toJSON). */
function rowKey(page: Page, row: number, width: number): string {
  const values = [];
  for (let c = 0; c < width; c++) values.push(getScalar(page.columns[c], row));
  return JSON.stringify(values, keyPart);
}

function keyPart(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return `n${value}`;
  if (typeof value === 'number' && !Number.isFinite(value)) return `d${value}`;
  if (value instanceof Uint8Array) return `b${Buffer.from(value).toString('hex')}`;
  return value;
}
