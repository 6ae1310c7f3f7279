// concatPages for inputs of millions of rows (a join's build side): the copy goes a page at a time,
// and the event loop gets its turns between pages.

import { yieldIfDue } from '../../columnar/cooperative.js';
import type { Turns } from './sort-cooperatively.js';
import { allocateValues, concatColumns, copyValues, hasChildColumns, type Column, type Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';

export async function concatPagesCooperatively(types: readonly SqlType[], pages: readonly Page[], ctx: Turns): Promise<Page> {
  let rowCount = 0;
  for (const p of pages) rowCount += p.rowCount;
  const columns: Column[] = types.map((type, c) => ({
    type,
    length: rowCount,
    values: allocateValues(type, rowCount),
    nulls: pages.some((p) => p.columns[c].nulls !== null) ? new Uint8Array(rowCount) : null,
  }));
  let offset = 0;
  for (const page of pages) {
    page.columns.forEach((from, c) => {
      const to = columns[c];
      if (!hasChildColumns(to.type)) copyValues(from.values, to.values, offset);
      if (to.nulls !== null && from.nulls !== null) to.nulls.set(from.nulls, offset);
    });
    offset += page.rowCount;
    await yieldIfDue(ctx.signal, ctx.stats);
  }
  // Array, map and row columns concatenate their child columns in one step.
  types.forEach((type, c) => {
    if (hasChildColumns(type))
      columns[c] = concatColumns(
        type,
        pages.map((p) => p.columns[c]),
      );
  });
  return { rowCount, columns };
}
