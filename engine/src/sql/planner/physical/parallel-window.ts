// The session property that says whether a window with PARTITION BY over a scan the node's worker
// threads can read runs on those threads (ParallelWindow): each thread sends its rows to the thread
// of their partition keys' hash, sorts and windows the partitions it owns, and the main thread
// gathers the rows. Switched off, the main thread sorts and windows every row itself, as before.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { Session } from '../../../spi/session.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';

export const PARALLEL_WINDOW_PROPERTY: PropertyMetadata = {
  name: 'parallel_window',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    "Whether a window with PARTITION BY over a scan runs on the node's worker threads, each on the partitions of its key hash, rather than all in the main thread",
};

export function parallelWindow(session: Session): boolean {
  return booleanSessionProperty(session, PARALLEL_WINDOW_PROPERTY);
}
