// Reads memory splits in a worker: the split's batches arrive as views of shared memory (posting
// them copies nothing); strings and decimals are decoded once per worker and kept.

import { decodedColumns } from '../../columnar/decoded-columns.js';
import type { Page } from '../../columnar/page.js';
import type { SplitReader } from '../../spi/worker-split.js';
import { sharedPageToPage, type SharedPage } from './shared-batch.js';
import { dynamicFilterRows, filteredPages } from './dynamic-filter-rows.js';

export const MEMORY_SPLIT_READER = 'memory';

export const memorySplitReader: SplitReader = {
  open: (data, columns, _session, dynamicFilter) => {
    const pages = data as SharedPage[];
    const types = pages[0]?.columns.map((c) => c.type) ?? [];
    return filteredPages(sharedPages(pages), dynamicFilterRows(columns, types, dynamicFilter));
  },
};

async function* sharedPages(pages: readonly SharedPage[]): AsyncIterable<Page> {
  for (const page of pages) yield sharedPageToPage(page, (column, decode) => decodedColumns.decode(column.key as string, decode));
}
