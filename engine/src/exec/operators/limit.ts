// LIMIT / OFFSET: passes rows through, and stops pulling its input (closing it, which closes the
// chain down to the scan) as soon as it has enough.

import { slicePage } from '../../columnar/page.js';
import type { PageStream } from './operator.js';

export async function* limit(input: PageStream, count: number, offset = 0): PageStream {
  if (count <= 0) return;
  let skip = offset;
  let remaining = count;
  // Leaving the for-await early calls return() on the input iterator.
  for await (const page of input) {
    let start = 0;
    if (skip > 0) {
      if (page.rowCount <= skip) {
        skip -= page.rowCount;
        continue;
      }
      start = skip;
      skip = 0;
    }
    const take = Math.min(remaining, page.rowCount - start);
    if (take <= 0) continue;
    yield start === 0 && take === page.rowCount ? page : slicePage(page, start, start + take);
    remaining -= take;
    if (remaining === 0) return;
  }
}
