import { concatPages, slicePage, type Page } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';

/**
 * The rows of `pages`, in order, regrouped into pages of exactly `maxRows` rows (the last may have
 * fewer). Lazily, a page at a time, so that a caller can give the event loop a turn between them.
 */
export function* rechunkPages(types: readonly SqlType[], pages: Iterable<Page>, maxRows: number): Generator<Page> {
  let pending: Page[] = [];
  let pendingRows = 0;
  const flush = (): Page => {
    const page = pending.length === 1 ? pending[0] : concatPages(types, pending);
    pending = [];
    pendingRows = 0;
    return page;
  };
  for (const page of pages) {
    let start = 0;
    while (start < page.rowCount) {
      const take = Math.min(maxRows - pendingRows, page.rowCount - start);
      pending.push(start === 0 && take === page.rowCount ? page : slicePage(page, start, start + take));
      pendingRows += take;
      start += take;
      if (pendingRows === maxRows) yield flush();
    }
  }
  if (pendingRows > 0) yield flush();
}
