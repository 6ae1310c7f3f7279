// Tables computed on demand as rows of scalars: information_schema and the system catalog. They are
// small, so one split per table and rows built when the split is read (always current).

import type { Session } from '../spi/session.js';
import { EngineError } from '../errors/engine-error.js';
import { columnFromScalars, type Page } from '../columnar/page.js';
import type { Scalar } from '../types/scalar.js';
import { MAX_PAGE_ROWS, selectColumnIndexes } from './column-selection.js';
import type { ColumnMetadata, Split, TableMetadata } from '../spi/connector.js';
import { shapeCheck } from '../spi/json-shape.js';

export interface RowTable {
  name: string;
  columns: ColumnMetadata[];
  /** The rows as of now, one scalar per column in `columns` order. */
  rows(session: Session): Scalar[][] | Promise<Scalar[][]>;
}

interface RowTableSplitInfo {
  rowTable: string;
}

const checkInfoShape = shapeCheck({
  type: 'object',
  required: ['rowTable'],
  properties: { rowTable: { type: 'string' } },
  additionalProperties: false,
});

/** The row tables of one schema. */
export class RowTableSet {
  private readonly byName: Map<string, RowTable>;

  constructor(tables: readonly RowTable[]) {
    this.byName = new Map(tables.map((t) => [t.name, t]));
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  metadata(catalog: string, schema: string, name: string): TableMetadata | undefined {
    const table = this.byName.get(name);
    return table === undefined ? undefined : { catalog, schema, name, columns: table.columns };
  }

  split(table: TableMetadata): Split {
    const info: RowTableSplitInfo = { rowTable: table.name };
    return { catalog: table.catalog, schema: table.schema, table: table.name, info };
  }

  /** Connector.checkSplit for a split of this set. */
  checkSplit(split: Split): string | undefined {
    const shape = checkInfoShape(split.info, 'info');
    if (shape !== undefined) return shape;
    const name = (split.info as RowTableSplitInfo).rowTable;
    return name === split.table && this.byName.has(name) ? undefined : `info: '${name}' is not table '${split.schema}.${split.table}'`;
  }

  /** Rows are computed when the first page is asked for, not when the page source is created. */
  async *pages(session: Session, split: Split, columns: readonly string[]): AsyncIterable<Page> {
    const name = (split.info as RowTableSplitInfo).rowTable;
    const table = this.byName.get(name);
    if (table === undefined) {
      throw new EngineError('TABLE_NOT_FOUND', `Table '${split.catalog}.${split.schema}.${name}' does not exist`);
    }
    yield* rowsToPages(table.columns, await table.rows(session), columns);
  }
}

/** Pages of at most MAX_PAGE_ROWS rows holding the `requested` columns of `rows`. */
export function rowsToPages(
  columns: readonly ColumnMetadata[],
  rows: readonly (readonly Scalar[])[],
  requested: readonly string[],
): Page[] {
  const indexes = selectColumnIndexes(columns, requested);
  const pages: Page[] = [];
  for (let start = 0; start < rows.length; start += MAX_PAGE_ROWS) {
    const chunk = rows.slice(start, start + MAX_PAGE_ROWS);
    pages.push({
      rowCount: chunk.length,
      columns: indexes.map((i) =>
        columnFromScalars(
          columns[i].type,
          chunk.map((row) => row[i]),
        ),
      ),
    });
  }
  return pages;
}
