// The session properties that say whether a hash join's lookup table over a big build side is
// filled by the node's worker threads (ParallelHashBuild; exec/threads/parallel-join-build), each the
// rows of its hash regions, rather than by the task's main thread. The build rows are still gathered
// in the main thread; only keys held in typed arrays (not strings) can be shared with the threads,
// and a build side of fewer than parallel_hash_build_min_rows rows is hashed in the main thread (a
// round trip to the threads costs more than it saves). Switched off, the main thread builds every table.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { Session } from '../../../spi/session.js';
import { booleanSessionProperty, integerSessionProperty } from '../../../spi/session-properties.js';
import type { SqlType } from '../../../types/types.js';
import { SHORT_DECIMAL_PRECISION } from '../../../types/types.js';

export const PARALLEL_HASH_BUILD_PROPERTY: PropertyMetadata = {
  name: 'parallel_hash_build',
  type: { kind: 'boolean' },
  // Off by default: on sf1 memory tables (q5, q7, q9, q18, q21, a machine loaded 15-20x over its
  // cores) it did not measure better; the process's CPU for q9 rose about a quarter. Session 32 sized
  // the threads' integer tables by key runs (lineitem builds had 3x the slots, ~1.7x the CPU); on again
  // (q5, q7, q9, q18, q21 alternated 6-7 times a side, load 22-32) wall 1.05x and CPU 1.06x of off: still off.
  defaultValue: false,
  description:
    "Whether a hash join's lookup table over a big build side is filled by the node's worker threads, each a hash region of it, rather than by the task's main thread",
};

/** The build rows from which on the threads fill a join's table; undefined: switched off. */
export function parallelHashBuild(session: Session): { minRows: number } | undefined {
  if (!booleanSessionProperty(session, PARALLEL_HASH_BUILD_PROPERTY)) return undefined;
  return { minRows: integerSessionProperty(session, 'parallel_hash_build_min_rows') };
}

/** The adaptive decision's name, as EXPLAIN ANALYZE records it. */
export const PARALLEL_BUILD_DECISION = 'parallel build';

/** What a join's build needs to know to fill its table on the threads. */
export interface ParallelBuildSettings {
  threads: number;
  minRows: number;
}

/**
 * Whether keys of this type are numbers held in typed arrays, which threads can share (strings,
 * binaries, long decimals and nested values are not; a column that turns out not to be is hashed in
 * the main thread).
 */
export function shareableKeyType(type: SqlType): boolean {
  switch (type.kind) {
    case 'boolean':
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'real':
    case 'double':
    case 'date':
    case 'timestamp':
    case 'interval year to month':
    case 'interval day to second':
      return true;
    case 'decimal':
      return type.precision <= SHORT_DECIMAL_PRECISION;
    default:
      return false;
  }
}
