// Joins: consumes the whole build side into a JoinHash (open addressing over the concatenated build
// page), then streams the probe side page by page. Keys match by SQL `=` (NULL never matches); the
// residual filter decides among key-equal candidates. Without keys it is a nested-loop join (every
// build row is a candidate). 'mark' emits the probe row plus whether some build row matches, with
// the three-valued semantics of IN when null-aware (EXISTS, IN, NOT IN, semi and anti joins). A
// mark join whose probe side turns out small and smaller than the build side hashes the probe side
// instead and streams the build side (probe-head, mark-join-probe-first).

import { BOOLEAN, type SqlType } from '../../types/types.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { constantColumn, takeColumn, type Column, type Page } from '../../columnar/page.js';
import { outputPage, PairBatches } from './join-pairs.js';
import { buildSide, firstCandidates, type BuildSide } from './join-build-side.js';
import { JoinFilter } from './join-filter.js';
import { markProbePage } from './mark-join.js';
import { markJoinProbeFirst, markProbeFirstApplies } from './mark-join-probe-first.js';
import { hashProbeSide, PROBE_FIRST_MAX_ROWS, readAhead } from './probe-head.js';
import type { OperatorContext, PageStream } from './operator.js';
import { TARGET_PAGE_ROWS } from '../../columnar/page.js';
import { MemoryReservation, PageCompactor, throwIfCanceled } from './operator-support.js';
import type { ParallelBuildSettings } from '../../sql/planner/physical/parallel-hash-build.js';

export type JoinType = 'inner' | 'left' | 'right' | 'full' | 'mark';

export interface HashJoinSpec {
  type: JoinType;
  probeTypes: readonly SqlType[];
  buildTypes: readonly SqlType[];
  probeKeys: number[];
  buildKeys: number[];
  /** Over the probe channels followed by the build channels (build channel c is probeTypes.length + c). */
  filter?: RowExpression;
  probeOutput: number[];
  buildOutput: number[];
  /** For 'mark': IN semantics (an unmatched row is NULL, not FALSE, when a NULL could have matched). */
  markNullAware?: boolean;
  /** Its lookup table filled by the node's threads (a ParallelHashBuild under the join). */
  parallelBuild?: ParallelBuildSettings;
}

/** `probeRead`: called with the whole probe side when a mark join read it first, before it reads its build side. */
export async function* hashJoin(
  ctx: OperatorContext,
  probe: PageStream,
  build: PageStream,
  spec: HashJoinSpec,
  probeRead?: (probe: readonly Page[]) => void,
): PageStream {
  const reservation = new MemoryReservation(ctx.memory);
  try {
    const filter = joinFilterOf(spec);
    if (markProbeFirstApplies(spec, filter)) {
      const probeAhead = await readAhead(ctx, probe, PROBE_FIRST_MAX_ROWS, reservation);
      if (probeAhead.complete && probeAhead.rows === 0) return;
      probe = probeAhead.stream;
      if (probeAhead.complete) {
        probeRead?.(probeAhead.pages);
        const buildAhead = await readAhead(ctx, build, probeAhead.rows, reservation);
        build = buildAhead.stream;
        if (!buildAhead.complete) {
          // The build side has more rows than the probe side: hash the probe side.
          const hashed = await hashProbeSide(ctx, probeAhead.pages, spec, reservation);
          const compactor = new PageCompactor(joinOutputTypes(spec));
          for await (const out of markJoinProbeFirst(ctx, probeAhead.pages, hashed, build, spec, filter, reservation)) {
            for (const ready of compactor.add(out)) yield ready;
          }
          yield* compactor.finish();
          return;
        }
      }
    }
    const side = await buildSide(ctx, build, spec, reservation);
    yield* probeBuildSide(ctx, probe, side, spec, filter, reservation);
  } finally {
    reservation.release();
  }
}

/** The residual filter of a join over its key-equal pairs, if it has one. */
export function joinFilterOf(spec: HashJoinSpec): JoinFilter | null {
  return spec.filter === undefined ? null : new JoinFilter(spec.filter, spec.probeTypes.length, [...spec.probeTypes, ...spec.buildTypes]);
}

export function joinOutputTypes(spec: HashJoinSpec): SqlType[] {
  return [
    ...spec.probeOutput.map((c) => spec.probeTypes[c]),
    ...(spec.type === 'mark' ? [BOOLEAN] : spec.buildOutput.map((c) => spec.buildTypes[c])),
  ];
}

/**
 * The join of every probe page with a ready build side (the build side may be shared with other
 * threads probing it too: it is only read, except for the matched build rows of right and full joins).
 */
export async function* probeBuildSide(
  ctx: OperatorContext,
  probe: PageStream,
  side: BuildSide,
  spec: HashJoinSpec,
  filter: JoinFilter | null,
  reservation: MemoryReservation,
): PageStream {
  const compactor = new PageCompactor(joinOutputTypes(spec));
  const buildRows = side.page.rowCount;
  if (buildRows === 0 && (spec.type === 'inner' || spec.type === 'right')) return;
  const buildMatched = spec.type === 'right' || spec.type === 'full' ? new Uint8Array(buildRows) : null;
  reservation.add(buildMatched === null ? 0 : buildRows);
  const pairs = new PairBatches();
  for await (const page of probe) {
    throwIfCanceled(ctx);
    if (page.rowCount === 0) continue;
    const outputs =
      spec.type === 'mark'
        ? [markProbePage(ctx, page, side, spec, filter)]
        : joinProbePage(ctx, page, side, spec, filter, buildMatched, pairs);
    for (const out of outputs) for (const ready of compactor.add(out)) yield ready;
  }
  if (buildMatched !== null) {
    for (const out of unmatchedBuildRows(side.page, buildMatched, spec)) for (const ready of compactor.add(out)) yield ready;
  }
  yield* compactor.finish();
}

/** The output pages of one probe page for inner and outer joins. */
function* joinProbePage(
  ctx: OperatorContext,
  page: Page,
  side: BuildSide,
  spec: HashJoinSpec,
  filter: JoinFilter | null,
  buildMatched: Uint8Array | null,
  pairs: PairBatches,
): Generator<Page> {
  const n = page.rowCount;
  const first = firstCandidates(page, side, spec);
  const probeOuter = spec.type === 'left' || spec.type === 'full';
  const probeMatched = probeOuter ? new Uint8Array(n) : null;
  const cursor = pairs.start(first);
  for (;;) {
    const found = pairs.fill(first, side.next, cursor);
    if (found === 0) break;
    const kept =
      filter === null
        ? found
        : pairs.keepPassing(found, (count) => filter.apply(page, side.page, pairs.streamedRows, pairs.hashedRows, count));
    if (probeMatched !== null) for (let i = 0; i < kept; i++) probeMatched[pairs.streamedRows[i]] = 1;
    if (buildMatched !== null) for (let i = 0; i < kept; i++) buildMatched[pairs.hashedRows[i]] = 1;
    if (kept > 0) yield outputPage(page, side.page, pairs.streamedRows, pairs.hashedRows, kept, spec);
    if (found < TARGET_PAGE_ROWS) break;
    throwIfCanceled(ctx);
  }
  if (probeMatched !== null) {
    const unmatched = new Int32Array(n);
    let u = 0;
    for (let i = 0; i < n; i++) if (probeMatched[i] === 0) unmatched[u++] = i;
    if (u > 0) yield outputPage(page, side.page, unmatched, new Int32Array(u).fill(-1), u, spec);
  }
}

/** RIGHT / FULL: the build rows nothing matched, with NULL probe columns. */
function* unmatchedBuildRows(build: Page, matched: Uint8Array, spec: HashJoinSpec): Generator<Page> {
  const positions: number[] = [];
  for (let r = 0; r < build.rowCount; r++) if (matched[r] === 0) positions.push(r);
  for (let start = 0; start < positions.length; start += TARGET_PAGE_ROWS) {
    const rows = Int32Array.from(positions.slice(start, start + TARGET_PAGE_ROWS));
    const n = rows.length;
    const columns: Column[] = spec.probeOutput.map((c) => constantColumn(spec.probeTypes[c], null, n));
    for (const c of spec.buildOutput) columns.push(takeColumn(build.columns[c], rows, n));
    yield { rowCount: n, columns };
  }
}
