// Reading a mark join's sides ahead, to learn which is smaller: the probe side up to
// PROBE_FIRST_MAX_ROWS, then, when that was all of it, the build side up to as many rows. A build
// side with more rows than a small probe side is streamed past the hashed probe rows
// (mark-join-probe-first); otherwise the join runs as usual over the rows read ahead and the rest.
// (Inner joins hashing a small probe side measured no faster on TPC-H, q9 slower: their output
// gathers probe columns in chain order from one big concatenated page.)

import { estimatedPageBytes, type Page } from '../../columnar/page.js';
import type { JoinLookup } from '../hash/join-lookup.js';
import { sharePage } from '../../columnar/shared-page.js';
import { concatPagesCooperatively } from './concat-cooperatively.js';
import type { HashJoinSpec } from './hash-join.js';
import { buildJoinLookup } from './join-build-side.js';
import type { OperatorContext, PageStream } from './operator.js';
import { throwIfCanceled, type MemoryReservation } from './operator-support.js';

/** Probe rows up to which the probe side counts as small (some megabytes; read ahead, then hashed). */
export { PROBE_FIRST_MAX_ROWS } from '../../sql/planner/physical/adaptive-thresholds.js';

/** A side of a join read ahead: its first pages (all of it when `complete`), and the whole side again as `stream`. */
export interface ReadAhead {
  pages: Page[];
  rows: number;
  complete: boolean;
  /** The pages read ahead (each released once passed on), then the rest. */
  stream: PageStream;
}

/** Reads `input` until its end or until more than `maxRows` rows. */
export async function readAhead(
  ctx: OperatorContext,
  input: PageStream,
  maxRows: number,
  reservation: MemoryReservation,
): Promise<ReadAhead> {
  const iterator = input[Symbol.asyncIterator]();
  const pages: Page[] = [];
  const bytes: number[] = [];
  let rows = 0;
  let complete = false;
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) {
      complete = true;
      break;
    }
    throwIfCanceled(ctx);
    if (next.value.rowCount === 0) continue;
    pages.push(next.value);
    bytes.push(estimatedPageBytes(next.value));
    reservation.add(bytes[bytes.length - 1]);
    rows += next.value.rowCount;
    if (rows > maxRows) break;
  }
  // A queue of its own, emptied as pages pass on, so that a page passed on is no longer held here.
  const replay = pages.map((page, i) => ({ page, bytes: bytes[i] }));
  const stream = async function* (): PageStream {
    for (let next = replay.shift(); next !== undefined; next = replay.shift()) {
      yield next.page;
      reservation.add(-next.bytes);
    }
    if (complete) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) return;
      yield next.value;
    }
  };
  return { pages, rows, complete, stream: stream() };
}

/** A small probe side as one page, and the lookup table over its keys. */
export interface HashedProbe {
  page: Page;
  lookup: JoinLookup;
}

/** `shared`: the page and its table in shared memory, for worker threads to mark (exec/threads/parallel-mark-join). */
export async function hashProbeSide(
  ctx: OperatorContext,
  pages: readonly Page[],
  spec: HashJoinSpec,
  reservation: MemoryReservation,
  shared = false,
): Promise<HashedProbe> {
  const concatenated = pages.length === 1 ? pages[0] : await concatPagesCooperatively(spec.probeTypes, [...pages], ctx);
  const page = shared ? sharePage(concatenated) : concatenated;
  const lookup = await buildJoinLookup(
    spec.probeKeys.map((c) => spec.probeTypes[c]),
    spec.probeKeys.map((c) => page.columns[c]),
    page.rowCount,
    ctx,
    reservation,
    shared,
  );
  return { page, lookup };
}
