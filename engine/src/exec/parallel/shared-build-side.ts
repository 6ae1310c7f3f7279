// The build sides of the joins a source fragment probes, made once in the main thread and shared
// with every worker thread of the run. The rows and the lookup table are built in shared memory
// (buildSide with `shared`), so a thread receives views of the same buffers, not a copy, and probes
// them read only; only string, long decimal and binary columns (which cannot live in shared
// memory) are copied to each thread, and each thread counts that copy in its memory.
//
// One table for all threads rather than one per thread: at TPC-H sf1 the orders build side of q3,
// q5, q10 and q18 (hundreds of thousands to 1.5M rows) takes the main thread about as long to hash
// as a thread takes to probe its share of lineitem; building it again in every thread would spend
// that time once per thread and multiply the memory.

import { lookupFromShared } from '../hash/shared-join-lookup-revival.js';
import type { SharedJoinLookup } from '../hash/shared-join-lookup.js';
import type { BuildSide } from '../operators/join-build-side.js';
import type { HashJoinSpec } from '../operators/hash-join.js';
import { decodePage, encodePage, type EncodedPage } from './page-transfer.js';

export interface SharedBuildSide {
  page: EncodedPage;
  lookup: SharedJoinLookup | null;
  /** The chain through every row, for a join without keys (a nested loop). */
  next: Int32Array;
}

/** A build side made with `shared` for one thread, and the buffers to transfer with it. */
export function shareBuildSide(side: BuildSide): { shared: SharedBuildSide; transfer: ArrayBuffer[] } {
  const { page, transfer } = encodePage(side.page);
  return { shared: { page, lookup: side.hash === null ? null : side.hash.share(), next: side.next }, transfer };
}

/** This thread's view of a shared build side. */
export function buildSideFromShared(shared: SharedBuildSide, spec: HashJoinSpec): BuildSide {
  const page = decodePage(shared.page);
  const hash =
    shared.lookup === null
      ? null
      : lookupFromShared(
          shared.lookup,
          spec.buildKeys.map((c) => page.columns[c]),
        );
  return { page, hash, next: hash === null ? shared.next : hash.next };
}
