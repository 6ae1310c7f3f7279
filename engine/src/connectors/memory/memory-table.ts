// One memory table: its metadata and its current snapshot. Each write replaces the snapshot in a
// single synchronous step (an insert encodes its rows beforehand, yielding the event loop between
// batches): readers see the table before or after it, never between.

import { EngineError } from '../../errors/engine-error.js';
import type { Page } from '../../columnar/page.js';
import { typeName, typesEqual } from '../../types/types.js';
import type { RowPredicate, RowUpdate, TableMetadata, TableRewrite } from '../../spi/connector.js';
import {
  appendBatches,
  deleteFromSnapshot,
  reshapeSnapshot,
  rewriteSnapshot,
  updateInSnapshot,
  encodeBatches,
  emptySnapshot,
  type TableSnapshot,
} from './table-snapshot.js';

export class MemoryTable {
  private current: TableSnapshot;

  constructor(
    readonly id: number,
    private definition: TableMetadata,
  ) {
    this.current = emptySnapshot(id, definition.columns);
  }

  get metadata(): TableMetadata {
    return this.definition;
  }

  /**
   * A new definition (ALTER TABLE, COMMENT ON); with `reshape`, its columns changed and every stored
   * row reshaped to them, in one synchronous step.
   */
  redefine(definition: TableMetadata, reshape?: (page: Page) => Page): void {
    if (reshape !== undefined) this.current = reshapeSnapshot(this.current, definition.columns, reshape);
    this.definition = definition;
  }

  get snapshot(): TableSnapshot {
    return this.current;
  }

  get qualifiedName(): string {
    return `${this.metadata.catalog}.${this.metadata.schema}.${this.metadata.name}`;
  }

  /** Appends the rows of `pages` (columns in table order); returns how many. */
  async insert(pages: readonly Page[]): Promise<number> {
    const conformed = pages.filter((p) => p.rowCount > 0).map((p) => this.conform(p));
    if (conformed.length === 0) return 0;
    const batches = await encodeBatches(this.metadata.columns, conformed);
    // Other writes may have replaced the snapshot meanwhile: append to the current one.
    const next = appendBatches(this.current, batches);
    const written = next.rowCount - this.current.rowCount;
    this.current = next;
    return written;
  }

  deleteRows(predicate: RowPredicate): number {
    const { snapshot, deleted } = deleteFromSnapshot(this.current, predicate);
    this.current = snapshot;
    return deleted;
  }

  /** Each updated row's values are conformed as an insert's (a varchar relabelled to the column's type). */
  updateRows(predicate: RowPredicate, update: RowUpdate): number {
    const result = updateInSnapshot(this.current, predicate, (rows) => this.conform(update(rows)));
    this.current = result.snapshot;
    return result.updated;
  }

  rewriteRows(rewrite: TableRewrite): number {
    const result = rewriteSnapshot(this.current, (rows) => {
      const next = rewrite(rows);
      return { rows: next.rows.map((page) => this.conform(page)), changed: next.changed };
    });
    this.current = result.snapshot;
    return result.changed;
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
