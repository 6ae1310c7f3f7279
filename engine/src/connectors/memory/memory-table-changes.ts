// ALTER TABLE and COMMENT ON of a memory table: its new definition, and for a change of columns how
// its stored rows change (a NULL column added, a column left out). Renaming the table is the
// connector's (it moves the table between names).

import { EngineError } from '../../errors/engine-error.js';
import type { ColumnMetadata, TableMetadata } from '../../spi/connector.js';
import { constantColumn, type Page } from '../../columnar/page.js';
import type { TableChange } from '../../spi/table-change.js';
import type { MemoryTable } from './memory-table.js';

export function applyColumnChange(table: MemoryTable, change: Exclude<TableChange, { kind: 'rename' }>): void {
  const metadata = table.metadata;
  const columns = metadata.columns;
  const index = 'column' in change && typeof change.column === 'string' ? columns.findIndex((c) => c.name === change.column) : -1;
  const withColumns = (next: ColumnMetadata[]): TableMetadata =>
    Object.freeze({ ...metadata, columns: next.map((c) => Object.freeze({ ...c })) });
  switch (change.kind) {
    case 'addColumn': {
      if (change.column.nullable === false && table.snapshot.rowCount > 0) {
        throw new EngineError(
          'NOT_SUPPORTED',
          `Unable to add NOT NULL column '${change.column.name}' for non-empty table: ${table.qualifiedName}`,
        );
      }
      const type = change.column.type;
      table.redefine(withColumns([...columns, change.column]), (page: Page) => ({
        rowCount: page.rowCount,
        columns: [...page.columns, constantColumn(type, null, page.rowCount)],
      }));
      return;
    }
    case 'dropColumn':
      table.redefine(withColumns(columns.filter((_, i) => i !== index)), (page: Page) => ({
        rowCount: page.rowCount,
        columns: page.columns.filter((_, i) => i !== index),
      }));
      return;
    case 'renameColumn':
      table.redefine(withColumns(columns.map((c, i) => (i === index ? { ...c, name: change.to } : c))), (page) => page);
      return;
    case 'setComment': {
      const { comment: _old, ...rest } = metadata;
      table.redefine(Object.freeze(change.comment === undefined ? rest : { ...rest, comment: change.comment }));
      return;
    }
    case 'dropNotNull':
      table.redefine(
        withColumns(
          columns.map((c, i) => {
            if (i !== index) return c;
            const { nullable: _old, ...rest } = c;
            return rest;
          }),
        ),
      );
      return;
    case 'setColumnComment':
      table.redefine(
        withColumns(
          columns.map((c, i) => {
            if (i !== index) return c;
            const { comment: _old, ...rest } = c;
            return change.comment === undefined ? rest : { ...rest, comment: change.comment };
          }),
        ),
      );
      return;
  }
}
