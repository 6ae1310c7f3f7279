// The input of a scalar subquery: no row becomes one row of NULLs, more than one row is an error.

import { EngineError } from '../../errors/engine-error.js';
import { constantColumn, slicePage, type Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import type { PageStream } from './operator.js';

export async function* enforceSingleRow(input: PageStream, types: readonly SqlType[]): PageStream {
  let row: Page | null = null;
  for await (const page of input) {
    if (page.rowCount === 0) continue;
    if (row !== null || page.rowCount > 1) {
      throw new EngineError('SUBQUERY_MULTIPLE_ROWS', 'Scalar sub-query has returned multiple rows');
    }
    row = slicePage(page, 0, 1);
  }
  yield row ?? { rowCount: 1, columns: types.map((t) => constantColumn(t, null, 1)) };
}
