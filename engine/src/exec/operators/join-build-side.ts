// The build side of a join: the whole build input concatenated into one page, and the lookup table
// over its keys (IntegerJoinHash for one integer key, else JoinHash), or, without keys, a
// chain through every row: the nested-loop join.

import { DenseIntegerJoinLookup } from '../hash/dense-integer-join-lookup.js';
import { IntegerJoinHash, isIntegerKeyType } from '../hash/integer-join-hash.js';
import { JoinHash } from '../hash/join-hash.js';
import type { JoinLookup } from '../hash/join-lookup.js';
import { newInt32Array } from '../hash/shared-join-lookup.js';
import type { Column } from '../../columnar/page.js';
import type { SqlType } from '../../types/types.js';
import { emptyPage, estimatedPageBytes, type Page } from '../../columnar/page.js';
import { sharePage } from '../../columnar/shared-page.js';
import { concatPagesCooperatively } from './concat-cooperatively.js';
import type { HashJoinSpec } from './hash-join.js';
import type { OperatorContext, PageStream } from './operator.js';
import { throwIfCanceled, type MemoryReservation } from './operator-support.js';
import { fillJoinTableOnThreads, keysShareable } from '../threads/parallel-join-build.js';
import { sharedThreadPool } from '../threads/thread-pool.js';
import { PARALLEL_BUILD_DECISION, type ParallelBuildSettings } from '../../sql/planner/physical/parallel-hash-build.js';

/** The build side, ready to probe. */
export interface BuildSide {
  page: Page;
  /** null for a nested-loop join. */
  hash: JoinLookup | null;
  /** The chain of candidates after a build row (the hash's chains, or every row for nested loops). */
  next: Int32Array;
}

/**
 * The build side of `build`; `shared`: its rows and lookup table in shared memory, for worker
 * threads to probe (see parallel/shared-build-side).
 */
export async function buildSide(
  ctx: OperatorContext,
  build: PageStream,
  spec: HashJoinSpec,
  reservation: MemoryReservation,
  shared = false,
): Promise<BuildSide> {
  const pages: Page[] = [];
  let pagesBytes = 0;
  for await (const page of build) {
    throwIfCanceled(ctx);
    if (page.rowCount === 0) continue;
    const bytes = estimatedPageBytes(page);
    reservation.add(bytes);
    pagesBytes += bytes;
    pages.push(page);
  }
  const concatenated =
    pages.length === 0
      ? emptyPage(spec.buildTypes)
      : pages.length === 1
        ? pages[0]
        : await concatPagesCooperatively(spec.buildTypes, pages, ctx);
  const page = shared ? sharePage(concatenated) : concatenated;
  // The concatenated or shared copy (about as big as the pages: measuring it again would take as
  // long as the copy) replaces the pages; briefly both are held.
  if (page !== pages[0]) {
    reservation.add(pagesBytes);
    reservation.add(-pagesBytes);
  }
  const rows = page.rowCount;
  if (spec.buildKeys.length === 0) {
    reservation.add(rows * 4);
    const next = newInt32Array(rows, shared);
    for (let r = 0; r < rows; r++) next[r] = r + 1 < rows ? r + 1 : -1;
    return { page, hash: null, next };
  }
  const hash = await buildJoinLookup(
    spec.buildKeys.map((c) => spec.buildTypes[c]),
    spec.buildKeys.map((c) => page.columns[c]),
    rows,
    ctx,
    reservation,
    shared,
    spec.parallelBuild,
  );
  return { page, hash, next: hash.next };
}

/**
 * The lookup table over `rows` rows of `keys` (of `keyTypes`), its memory reserved; `parallel`: filled
 * by the node's threads (parallel-join-build) when it is big enough and its keys can be shared.
 */
export async function buildJoinLookup(
  keyTypes: readonly SqlType[],
  keys: readonly Column[],
  rows: number,
  ctx: OperatorContext,
  reservation: MemoryReservation,
  shared = false,
  parallel?: ParallelBuildSettings,
): Promise<JoinLookup> {
  // Several integer keys go to JoinHash: a table of their words per slot measured slower (TPC-H q9, q20).
  const integerKey = keyTypes.length === 1 && isIntegerKeyType(keyTypes[0]);
  const estimate = integerKey ? IntegerJoinHash.estimateBytes(rows) : JoinHash.estimateBytes(rows);
  reservation.add(estimate);
  const onThreads = parallel !== undefined && rows >= parallel.minRows && keysShareable(keys);
  // While the threads fill it: the keys copied to shared memory and an integer table's row hashes.
  const fillBytes = onThreads ? rows * 4 * (1 + 2 * keys.length) : 0;
  reservation.add(fillBytes);
  const filled = onThreads ? await fillJoinTableOnThreads(sharedThreadPool(), keyTypes, keys, rows, parallel.threads) : undefined;
  reservation.add(-fillBytes);
  if (filled !== undefined) ctx.stats?.addBackgroundCpu(filled.cpuMillis);
  if (parallel !== undefined) ctx.stats?.decide(PARALLEL_BUILD_DECISION, filled === undefined ? 'main thread' : 'threads');
  const hash: JoinLookup =
    filled?.lookup ??
    (integerKey
      ? ((await DenseIntegerJoinLookup.build(keys[0], rows, ctx, shared)) ?? (await IntegerJoinHash.build(keys[0], rows, ctx, shared)))
      : await JoinHash.build(keyTypes, keys, rows, ctx, shared));
  reservation.add(hash.sizeInBytes() - estimate);
  return hash;
}

/** The first candidate build row of each probe row (-1 for none); `probeNulls` marks NULL probe keys. */
export function firstCandidates(page: Page, side: BuildSide, spec: HashJoinSpec, probeNulls?: Uint8Array): Int32Array {
  const first = new Int32Array(page.rowCount);
  if (side.hash === null) {
    first.fill(side.page.rowCount > 0 ? 0 : -1);
    return first;
  }
  side.hash.lookup(
    spec.probeKeys.map((c) => page.columns[c]),
    page.rowCount,
    first,
    probeNulls,
  );
  return first;
}
