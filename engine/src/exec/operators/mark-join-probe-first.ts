// A mark join (semi/anti joins, EXISTS, IN) whose probe side turns out small: the probe rows are
// read first (probe-head), hashed, and the build side streams past them, marking the probe rows it matches. A
// semi join's subquery side (the build) is often the big one (TPC-H q4: 3.8 million lineitem rows
// for 58 thousand orders), and hashing the small side instead keeps the table in cache and skips
// building one over millions of rows. When the probe side is not small, the join runs as usual
// over the rows already read followed by the rest.
//
// Marks are as markProbePage's: a key-equal build row whose filter is TRUE makes TRUE. Covered:
// EXISTS-style marks (NULL filters and NULL keys never match) with or without a filter, and
// null-aware (IN) marks without a filter on one key column, where an unmatched row is NULL when
// the build side is not empty and either its key or some build key is NULL. Other null-aware marks
// need every build row at hand and run as usual.

import { BOOLEAN } from '../../types/types.js';
import type { Column, Page } from '../../columnar/page.js';
import type { HashJoinSpec } from './hash-join.js';
import { isTrue, type JoinFilter } from './join-filter.js';
import type { OperatorContext, PageStream } from './operator.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';
import { throwIfCanceled, type MemoryReservation } from './operator-support.js';
import type { HashedProbe } from './probe-head.js';

export function markProbeFirstApplies(spec: HashJoinSpec, filter: JoinFilter | null): boolean {
  if (spec.type !== 'mark' || spec.probeKeys.length === 0) return false;
  return spec.markNullAware !== true || (filter === null && spec.probeKeys.length === 1);
}

/** The probe pages (all of the probe side, also hashed) each with its mark, after the whole build side went by. */
export async function* markJoinProbeFirst(
  ctx: OperatorContext,
  pages: readonly Page[],
  hashed: HashedProbe,
  build: PageStream,
  spec: HashJoinSpec,
  filter: JoinFilter | null,
  reservation: MemoryReservation,
): PageStream {
  const { page: probe, lookup } = hashed;
  const matched = new Uint8Array(probe.rowCount);
  reservation.add(probe.rowCount);
  const passage = newBuildPassage();
  for await (const page of build) {
    throwIfCanceled(ctx);
    markByBuildPage(ctx, hashed, page, spec, filter, matched, passage);
  }
  yield* markedProbePages(pages, matched, passage, lookup.nullKeyRows, spec);
}

/** What the build rows streamed past a hashed probe side told it: how many went by, and whether one had a NULL key. */
export interface BuildPassage {
  rows: number;
  nullKey: boolean;
  /** Lookup buffers reused from page to page (millions of build rows stream by): only their first n entries count. */
  firstOfRows: Int32Array;
  nullKeysOfRows: Uint8Array;
}

export function newBuildPassage(): BuildPassage {
  return { rows: 0, nullKey: false, firstOfRows: new Int32Array(0), nullKeysOfRows: new Uint8Array(0) };
}

/** Marks the probe rows a build page matches (several threads may mark one shared `matched` at once: they only set 1s). */
export function markByBuildPage(
  ctx: OperatorContext,
  hashed: HashedProbe,
  page: Page,
  spec: HashJoinSpec,
  filter: JoinFilter | null,
  matched: Uint8Array,
  passage: BuildPassage,
): void {
  const n = page.rowCount;
  if (n === 0) return;
  passage.rows += n;
  const { page: probe, lookup } = hashed;
  if (passage.firstOfRows.length < n) {
    passage.firstOfRows = new Int32Array(n);
    passage.nullKeysOfRows = new Uint8Array(n);
  }
  const first = passage.firstOfRows.subarray(0, n);
  const nullKeys = passage.nullKeysOfRows.subarray(0, n);
  lookup.lookup(
    spec.buildKeys.map((c) => page.columns[c]),
    n,
    first,
    nullKeys,
  );
  if (!passage.nullKey && nullKeys.includes(1)) passage.nullKey = true;
  if (filter === null) markChains(first, lookup.next, matched);
  else markPassingPairs(ctx, probe, page, first, lookup.next, filter, matched);
}

/** The probe pages, each with its mark, once the whole build side went by. */
export function* markedProbePages(
  pages: readonly Page[],
  matched: Uint8Array,
  passage: BuildPassage,
  probeNullKeys: Int32Array,
  spec: HashJoinSpec,
): Generator<Page> {
  const unmatchedIsNull = spec.markNullAware === true && passage.rows > 0;
  let offset = 0;
  for (const page of pages) {
    const n = page.rowCount;
    const values = matched.slice(offset, offset + n);
    let nulls: Uint8Array | null = null;
    if (unmatchedIsNull) {
      for (let i = 0; i < n; i++) if (values[i] === 0 && passage.nullKey) (nulls ??= new Uint8Array(n))[i] = 1;
      for (const r of probeNullKeys) if (r >= offset && r < offset + n) (nulls ??= new Uint8Array(n))[r - offset] = 1;
    }
    const columns: Column[] = spec.probeOutput.map((c) => page.columns[c]);
    columns.push({ type: BOOLEAN, length: n, values, nulls });
    yield { rowCount: n, columns };
    offset += n;
  }
}

/** Without a filter every probe row in a matched chain matches; a marked head means a marked chain. */
function markChains(first: Int32Array, next: Int32Array, matched: Uint8Array): void {
  for (let r = 0; r < first.length; r++) {
    const head = first[r];
    if (head === -1 || matched[head] === 1) continue;
    for (let p = head; p !== -1; p = next[p]) matched[p] = 1;
  }
}

/** The pairs a filter is evaluated on at once (probe and build row of each), reused across pages. */
const probeRows = new Int32Array(TARGET_PAGE_ROWS);
const buildRows = new Int32Array(TARGET_PAGE_ROWS);

/** With a filter, a key-equal pair matches when the filter is TRUE for it (evaluated in batches). */
function markPassingPairs(
  ctx: OperatorContext,
  probe: Page,
  build: Page,
  first: Int32Array,
  next: Int32Array,
  filter: JoinFilter,
  matched: Uint8Array,
): void {
  let count = 0;
  const flush = (): void => {
    throwIfCanceled(ctx);
    const result = filter.apply(probe, build, probeRows, buildRows, count);
    for (let i = 0; i < count; i++) if (isTrue(result, i)) matched[probeRows[i]] = 1;
    count = 0;
  };
  for (let r = 0; r < first.length; r++) {
    for (let p = first[r]; p !== -1; p = next[p]) {
      if (matched[p] === 1) continue;
      probeRows[count] = p;
      buildRows[count] = r;
      if (++count === TARGET_PAGE_ROWS) flush();
    }
  }
  if (count > 0) flush();
}
