// The session property that says whether a sort (ORDER BY, and ORDER BY ... LIMIT as TopN) over a
// scan the node's worker threads can read runs on those threads (ParallelSort): each thread sorts
// the rows of the splits it reads into one run (TopN: keeps its best rows), and the main thread
// merges the runs (MergeSorted). Switched off, the main thread sorts every row itself, as before.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { Session } from '../../../spi/session.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';

export const PARALLEL_SORT_PROPERTY: PropertyMetadata = {
  name: 'parallel_sort',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    "Whether a sort over a scan runs on the node's worker threads, each sorting its own rows, merged in the task's main thread, rather than all in the main thread",
};

export function parallelSort(session: Session): boolean {
  return booleanSessionProperty(session, PARALLEL_SORT_PROPERTY);
}
