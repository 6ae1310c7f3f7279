// The session property that says whether a window with PARTITION BY over a scan the node's worker
// threads can read runs on those threads (ParallelWindow): each thread sends its rows to the thread
// of their partition keys' hash, sorts and windows the partitions it owns, and the main thread
// gathers the rows. Switched off, the main thread sorts and windows every row itself, as before.
// On by default: on tpch sf1 orders (memory table and Parquet, one node, 2 threads, a machine at
// load 30-50 from other work) the server's CPU per query was the same or lower with it on (rank()
// by o_custkey: 2.96 s on / 3.21 s off, Parquet 4.26 / 4.62 s, medians of 3), wall times were within
// the load's noise (0.68x-1.53x), and the event loop's longest delay during the query fell from
// 2.9-6.5 s (the window computed in the main thread) to 0.10-0.11 s.

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
