// Shared by the built-in connectors: which table columns a page source must return, and how big
// its pages may be.

import { EngineError } from '../errors/engine-error.js';
import type { ColumnMetadata } from '../spi/connector.js';

/** Rows per page a built-in connector hands out at most. */
export const MAX_PAGE_ROWS = 8192;

/** Positions of `requested` (column names, in that order) among `columns`. */
export function selectColumnIndexes(columns: readonly ColumnMetadata[], requested: readonly string[]): number[] {
  return requested.map((name) => {
    const index = columns.findIndex((c) => c.name === name);
    if (index < 0) throw new EngineError('COLUMN_NOT_FOUND', `Column '${name}' cannot be resolved`);
    return index;
  });
}
