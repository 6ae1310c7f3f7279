// Joins: consumes the whole build side into a JoinHash (open addressing over the concatenated build
// page), then streams the probe side page by page. Keys match by SQL `=` (NULL never matches); the
// residual filter decides among key-equal candidates. Without keys it is a nested-loop join (every
// build row is a candidate). 'mark' emits the probe row plus whether some build row matches, with
// the three-valued semantics of IN when null-aware (EXISTS, IN, NOT IN, semi and anti joins); a
// mark join whose probe side is small hashes that side instead (mark-join-probe-first).

import { BOOLEAN, type SqlType } from '../../types/types.js';
import type { RowExpression } from '../../sql/planner/row-expression.js';
import { constantColumn, takeColumn, type Column, type Page } from '../../spi/page.js';
import { takeColumnOrNull } from './gather-rows.js';
import { buildSide, firstCandidates, type BuildSide } from './join-build-side.js';
import { JoinFilter } from './join-filter.js';
import { markProbePage } from './mark-join.js';
import { markJoinProbeFirst, probeFirstApplies, readProbeHead } from './mark-join-probe-first.js';
import { TARGET_PAGE_ROWS, type OperatorContext, type PageStream } from './operator.js';
import { MemoryReservation, PageCompactor, throwIfCanceled } from './operator-support.js';

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
}

export async function* hashJoin(ctx: OperatorContext, probe: PageStream, build: PageStream, spec: HashJoinSpec): PageStream {
  const reservation = new MemoryReservation(ctx.memory);
  try {
    const filter = spec.filter === undefined ? null : new JoinFilter(spec.filter, spec.probeTypes.length, [...spec.probeTypes, ...spec.buildTypes]);
    if (probeFirstApplies(spec, filter)) {
      const head = await readProbeHead(ctx, probe, reservation);
      if (head.rest === null) {
        yield* markJoinProbeFirst(ctx, head.pages, build, spec, filter, reservation);
        return;
      }
      probe = head.rest;
    }
    const side = await buildSide(ctx, build, spec, reservation);
    const buildRows = side.page.rowCount;
    if (buildRows === 0 && (spec.type === 'inner' || spec.type === 'right')) return;
    const outputTypes = [...spec.probeOutput.map((c) => spec.probeTypes[c]), ...(spec.type === 'mark' ? [BOOLEAN] : spec.buildOutput.map((c) => spec.buildTypes[c]))];
    const compactor = new PageCompactor(outputTypes);
    const buildMatched = spec.type === 'right' || spec.type === 'full' ? new Uint8Array(buildRows) : null;
    reservation.add(buildMatched === null ? 0 : buildRows);
    const pairs = new PairBatches();
    for await (const page of probe) {
      throwIfCanceled(ctx);
      if (page.rowCount === 0) continue;
      const outputs = spec.type === 'mark' ? [markProbePage(ctx, page, side, spec, filter)] : joinProbePage(ctx, page, side, spec, filter, buildMatched, pairs);
      for (const out of outputs) for (const ready of compactor.add(out)) yield ready;
    }
    if (buildMatched !== null) {
      for (const out of unmatchedBuildRows(side.page, buildMatched, spec)) for (const ready of compactor.add(out)) yield ready;
    }
    yield* compactor.finish();
  } finally {
    reservation.release();
  }
}

/** Where the walk over a probe page's candidate pairs stands: probe row `row`, its candidate `candidate` next. */
interface PairCursor {
  row: number;
  candidate: number;
}

/** Candidate pairs (probe row, build row) of a probe page, a batch at a time into reused arrays. */
class PairBatches {
  readonly probeRows = new Int32Array(TARGET_PAGE_ROWS);
  readonly buildRows = new Int32Array(TARGET_PAGE_ROWS);

  /** The next pairs (at most TARGET_PAGE_ROWS) from the cursor on, in probe order; how many. */
  fill(first: Int32Array, next: Int32Array, cursor: PairCursor): number {
    const probeRows = this.probeRows;
    const buildRows = this.buildRows;
    const n = first.length;
    let row = cursor.row;
    let candidate = cursor.candidate;
    let count = 0;
    while (count < TARGET_PAGE_ROWS) {
      if (candidate === -1) {
        if (++row >= n) break;
        candidate = first[row];
        continue;
      }
      probeRows[count] = row;
      buildRows[count] = candidate;
      count++;
      candidate = next[candidate];
    }
    cursor.row = row;
    cursor.candidate = candidate;
    return count;
  }

  /** Keeps the first `count` pairs for which the filter is TRUE; how many are left. */
  keepPassing(filter: JoinFilter, probe: Page, build: Page, count: number): number {
    const result = filter.apply(probe, build, this.probeRows, this.buildRows, count);
    if (result.type.kind === 'unknown') return 0;
    const values = result.values as Uint8Array;
    const nulls = result.nulls;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      if (values[i] !== 1 || (nulls !== null && nulls[i] === 1)) continue;
      this.probeRows[kept] = this.probeRows[i];
      this.buildRows[kept] = this.buildRows[i];
      kept++;
    }
    return kept;
  }
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
  const cursor: PairCursor = { row: 0, candidate: first[0] };
  for (;;) {
    const found = pairs.fill(first, side.next, cursor);
    if (found === 0) break;
    const kept = filter === null ? found : pairs.keepPassing(filter, page, side.page, found);
    if (probeMatched !== null) for (let i = 0; i < kept; i++) probeMatched[pairs.probeRows[i]] = 1;
    if (buildMatched !== null) for (let i = 0; i < kept; i++) buildMatched[pairs.buildRows[i]] = 1;
    if (kept > 0) yield outputPage(page, side.page, pairs.probeRows, pairs.buildRows, kept, spec);
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

/** probeOutput columns at probeRows, then buildOutput columns at buildRows (-1 = NULL). */
function outputPage(probe: Page, build: Page, probeRows: Int32Array, buildRows: Int32Array, count: number, spec: HashJoinSpec): Page {
  const columns: Column[] = spec.probeOutput.map((c) => takeColumn(probe.columns[c], probeRows, count));
  for (const c of spec.buildOutput) columns.push(takeColumnOrNull(build.columns[c], buildRows, count));
  return { rowCount: count, columns };
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
