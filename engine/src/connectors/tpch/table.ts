// A generated table: its columns, and how to generate any of them for a range of "units" — rows,
// or for tables whose rows come in groups, the group (parts for partsupp, orders for lineitem).
// Each column is generated on its own from its own streams (plus the values it derives from), so
// a page holds only the columns asked for.

import type { Column, Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import type { ColumnMetadata } from '../../spi/connector.js';
import type { Scale } from './scale.js';

export interface TpchTable {
  readonly name: string;
  readonly columns: readonly ColumnMetadata[];
  /** Units at this scale. */
  unitCount(scale: Scale): number;
  /** Rows a unit has at most. */
  readonly maxRowsPerUnit: number;
  /** Rows a unit has on average (for sizing splits). */
  readonly averageRowsPerUnit: number;
  /** The table's row count at this scale (exact, or for very large variable tables an estimate). */
  rowCount(scale: Scale): number;
  /** Rows of each unit in [start, end); tables with a fixed count per unit leave this undefined. */
  unitRowCounts?(scale: Scale, start: number, end: number): Uint8Array;
  /** The columns at `columnIndexes` for units [start, end). */
  generate(scale: Scale, start: number, end: number, columnIndexes: readonly number[]): Page;
}

/** The rows of units [start, end) a table's column generators share (derived values are computed once). */
export interface UnitRange {
  readonly rowCount: number;
}

export interface ColumnDefinition<R extends UnitRange> {
  readonly name: string;
  readonly type: SqlType;
  readonly generate: (rows: R) => Column;
}

export interface TableDefinition<R extends UnitRange> {
  readonly name: string;
  readonly maxRowsPerUnit?: number;
  readonly averageRowsPerUnit?: number;
  unitCount(scale: Scale): number;
  unitRowCounts?(scale: Scale, start: number, end: number): Uint8Array;
  /** Defaults to units times rows per unit. */
  rowCount?(scale: Scale): number;
  /** The shared state of one page. */
  range(scale: Scale, start: number, end: number): R;
  readonly columns: readonly ColumnDefinition<R>[];
}

export function defineTable<R extends UnitRange>(definition: TableDefinition<R>): TpchTable {
  const columns = definition.columns;
  return {
    name: definition.name,
    columns: columns.map(({ name, type }) => ({ name, type })),
    maxRowsPerUnit: definition.maxRowsPerUnit ?? 1,
    averageRowsPerUnit: definition.averageRowsPerUnit ?? definition.maxRowsPerUnit ?? 1,
    unitCount: (scale) => definition.unitCount(scale),
    rowCount: (scale) => definition.rowCount?.(scale) ?? definition.unitCount(scale) * (definition.maxRowsPerUnit ?? 1),
    ...(definition.unitRowCounts === undefined ? {} : { unitRowCounts: definition.unitRowCounts }),
    generate(scale, start, end, columnIndexes) {
      const rows = definition.range(scale, start, end);
      return { rowCount: rows.rowCount, columns: columnIndexes.map((i) => columns[i].generate(rows)) };
    },
  };
}

/** Memoises a derived value of a page (shared by the columns that need it). */
export function once<T>(compute: () => T): () => T {
  let value: T | undefined;
  let done = false;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value as T;
  };
}
