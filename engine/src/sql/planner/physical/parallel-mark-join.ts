// The session property that says whether a mark join (semi or anti join, EXISTS, IN) whose build
// side is a scan the node's worker threads can read streams that side past its hashed probe side
// on those threads (ParallelMarkJoin), instead of in the task's main thread. The probe side is
// still read first: when it is small (at most PROBE_FIRST_MAX_ROWS rows) it is hashed in shared
// memory and every thread marks the probe rows its build rows match; otherwise the join runs in the
// main thread as before. Switched off, such joins always run in the main thread.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { Session } from '../../../spi/session.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';

export const PARALLEL_MARK_JOIN_PROPERTY: PropertyMetadata = {
  name: 'parallel_mark_join',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    "Whether a semi or anti join (EXISTS, IN) over a scan streams that scan past its hashed probe side on the node's worker threads rather than in the task's main thread",
};

export function parallelMarkJoin(session: Session): boolean {
  return booleanSessionProperty(session, PARALLEL_MARK_JOIN_PROPERTY);
}
