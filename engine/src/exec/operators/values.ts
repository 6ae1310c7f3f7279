// VALUES: literal rows as pages of at most TARGET_PAGE_ROWS rows.

import { columnFromScalars } from '../../columnar/page.js';
import type { Scalar } from '../../types/scalar.js';
import type { SqlType } from '../../types/types.js';
import type { PageStream } from './operator.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';

export async function* values(types: readonly SqlType[], rows: readonly Scalar[][]): PageStream {
  for (let start = 0; start < rows.length; start += TARGET_PAGE_ROWS) {
    const chunk = rows.slice(start, start + TARGET_PAGE_ROWS);
    yield {
      rowCount: chunk.length,
      columns: types.map((t, c) =>
        columnFromScalars(
          t,
          chunk.map((r) => r[c]),
        ),
      ),
    };
  }
}
