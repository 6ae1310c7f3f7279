// One memory table: its metadata and its current snapshot. Writes are synchronous, so each one
// replaces the snapshot in a single step: readers see the table before or after it, never between.

import { EngineError } from '../../errors/engine-error.js';
import type { Page } from '../../spi/page.js';
import { typeName, typesEqual } from '../../types/types.js';
import type { RowPredicate, TableMetadata } from '../../spi/connector.js';
import { appendToSnapshot, deleteFromSnapshot, emptySnapshot, type TableSnapshot } from './table-snapshot.js';

export class MemoryTable {
  private current: TableSnapshot;

  constructor(
    readonly id: number,
    readonly metadata: TableMetadata,
  ) {
    this.current = emptySnapshot(id, metadata.columns);
  }

  get snapshot(): TableSnapshot {
    return this.current;
  }

  get qualifiedName(): string {
    return `${this.metadata.catalog}.${this.metadata.schema}.${this.metadata.name}`;
  }

  /** Appends the rows of `pages` (columns in table order); returns how many. */
  insert(pages: readonly Page[]): number {
    const conformed = pages.filter((p) => p.rowCount > 0).map((p) => this.conform(p));
    if (conformed.length === 0) return 0;
    const next = appendToSnapshot(this.current, conformed);
    const written = next.rowCount - this.current.rowCount;
    this.current = next;
    return written;
  }

  deleteRows(predicate: RowPredicate): number {
    const { snapshot, deleted } = deleteFromSnapshot(this.current, predicate);
    this.current = snapshot;
    return deleted;
  }

  /**
   * Checks a page against the table's columns. Unbounded and bounded varchar share one storage, so a
   * varchar column is relabelled to the table's varchar type; any other difference is an engine bug.
   */
  private conform(page: Page): Page {
    const columns = this.metadata.columns;
    if (page.columns.length !== columns.length) {
      throw new EngineError(
        'GENERIC_INTERNAL_ERROR',
        `Insert into '${this.qualifiedName}' got ${page.columns.length} columns, the table has ${columns.length}`,
      );
    }
    return {
      rowCount: page.rowCount,
      columns: page.columns.map((column, i) => {
        const target = columns[i].type;
        if (typesEqual(column.type, target)) return column;
        if (column.type.kind === 'varchar' && target.kind === 'varchar') return { ...column, type: target };
        throw new EngineError(
          'GENERIC_INTERNAL_ERROR',
          `Insert into '${this.qualifiedName}' got ${typeName(column.type)} for column '${columns[i].name}' of type ${typeName(target)}`,
        );
      }),
    };
  }
}
