// A mark join (semi or anti join, EXISTS, IN) run as ParallelMarkJoin (sql/planner/physical): the
// probe side is read first, in the main thread; when it is small (PROBE_FIRST_MAX_ROWS) it is
// hashed in shared memory and the build side, a scan pipeline, streams past it on the worker
// threads, each marking the probe rows its splits' rows match in one shared array of marks (a mark
// is only ever set, so threads need no lock). The main thread then emits the probe rows with their
// marks, as mark-join-probe-first does in one thread. TPC-H q21's two EXISTS over lineitem ran
// all in the main thread before, the whole table streaming there. A big probe side, or a table of
// too few splits, runs the join in the main thread instead.

import type { Split } from '../../spi/connector.js';
import type { TableConstraint } from '../../spi/connector.js';
import type { PreparedSplit } from '../../spi/worker-split.js';
import { estimatedPageBytes, type Page } from '../../columnar/page.js';
import type { AdaptiveDecisionName } from '../../sql/planner/physical/physical-plan.js';
import { PROBE_FIRST_MAX_ROWS } from '../../sql/planner/physical/adaptive-thresholds.js';
import { joinOutputTypes, type HashJoinSpec } from '../operators/hash-join.js';
import { markedProbePages, newBuildPassage } from '../operators/mark-join-probe-first.js';
import type { PageStream } from '../operators/operator.js';
import { MemoryReservation, PageCompactor } from '../operators/operator-support.js';
import { hashProbeSide, readAhead } from '../operators/probe-head.js';
import { parallelSource, type ParallelEnvironment } from './parallel-source.js';
import { addSummary } from './probe-marking.js';
import type { ScanPipeline } from './scan-pipeline.js';
import type { ThreadPool } from './thread-pool.js';
import type { AssignedSplits } from '../local-execution-planner.js';
import { mapSplits } from '../table-scan.js';

export interface ParallelMarkJoinSpec {
  join: HashJoinSpec;
  /** The build side's scan pipeline (Filter/Project stages over the scan), for the threads. */
  fragment: ScanPipeline;
  /** The build side's table's splits; and one made ready for a worker thread. */
  splits(): Promise<Split[]>;
  prepare(split: Split): PreparedSplit;
  /**
   * In a distributed task: the build side's splits as the coordinator assigns them (a few at a
   * time), which the threads take as they come; `splits` is not asked then.
   */
  assigned?: AssignedSplits;
  workers: number;
  /** Splits from which on the threads pay. */
  minSplits: number;
  dynamicFilter?: () => TableConstraint | undefined;
  /** Called with the whole probe side once it was read first (small), before the build side is read. */
  probeRead?: (probe: readonly Page[]) => void;
  /** The join in the main thread over `probe` (its rows read ahead, then the rest), the build side's splits given when listed. */
  inMainThread(probe: PageStream, splits: readonly Split[] | undefined): PageStream;
  decide(decision: AdaptiveDecisionName, choice: string): void;
}

export async function* parallelMarkJoin(
  env: ParallelEnvironment,
  probe: PageStream,
  spec: ParallelMarkJoinSpec,
  pool?: ThreadPool,
): PageStream {
  const ctx = env.operator;
  const reservation = new MemoryReservation(ctx.memory);
  try {
    const ahead = await readAhead(ctx, probe, PROBE_FIRST_MAX_ROWS, reservation);
    if (ahead.complete && ahead.rows === 0) {
      spec.decide('probe first', 'the probe side is empty: no rows');
      return;
    }
    if (!ahead.complete) {
      spec.decide('probe first', `main thread (the probe side has more than ${PROBE_FIRST_MAX_ROWS} rows)`);
      yield* spec.inMainThread(ahead.stream, undefined);
      return;
    }
    spec.probeRead?.(ahead.pages);
    const source = await buildSplits(ctx, spec);
    if (source.inMainThread !== undefined) {
      spec.decide('threads', `main thread (${source.inMainThread})`);
      yield* spec.inMainThread(ahead.stream, source.splits);
      return;
    }
    spec.decide('probe first', `${ahead.rows} probe rows hashed, the build side streamed past them`);
    spec.decide('threads', source.threads);
    const hashed = await hashProbeSide(ctx, ahead.pages, spec.join, reservation, true);
    const rows = hashed.page.rowCount;
    // The shared copy of the probe rows, beside the pages read ahead (emitted at the end), and the marks.
    reservation.add(estimatedPageBytes(hashed.page) + rows);
    const matched = new Uint8Array(new SharedArrayBuffer(rows));
    const side = spec.fragment.stages.filter((s) => s.kind === 'probe').length;
    const fragment: ScanPipeline = { ...spec.fragment, mark: { spec: spec.join, side, matched } };
    const passage = newBuildPassage();
    const summaries = parallelSource(
      env,
      {
        fragment,
        splits: source.splits?.map((split) => spec.prepare(split)) ?? [],
        more: spec.assigned === undefined ? undefined : mapSplits(spec.assigned, spec.prepare),
        workers: spec.workers,
        ready: [{ page: hashed.page, hash: hashed.lookup, next: hashed.lookup.next }],
        dynamicFilter: spec.dynamicFilter,
      },
      pool,
    );
    for await (const page of summaries) addSummary(page, passage);
    const compactor = new PageCompactor(joinOutputTypes(spec.join));
    for (const page of markedProbePages(ahead.pages, matched, passage, hashed.lookup.nullKeyRows, spec.join))
      for (const ready of compactor.add(page)) yield ready;
    yield* compactor.finish();
  } finally {
    reservation.release();
  }
}

/**
 * The build side's splits for the threads: listed (all of the table's), or assigned as they come
 * once `minSplits` of them arrived; `inMainThread` says why not on the threads.
 */
async function buildSplits(
  ctx: ParallelEnvironment['operator'],
  spec: ParallelMarkJoinSpec,
): Promise<{ splits?: Split[]; threads: string; inMainThread?: string }> {
  const blockedOn = <T>(work: Promise<T>): Promise<T> => ctx.stats?.blockedOn(work) ?? work;
  if (spec.assigned !== undefined) {
    const enough = await blockedOn(spec.assigned.atLeast(spec.minSplits));
    const threads = `${spec.workers} threads (${spec.minSplits} splits arrived)`;
    return enough ? { threads } : { threads, inMainThread: `fewer than ${spec.minSplits} splits` };
  }
  const splits = await blockedOn(spec.splits());
  const threads = `${Math.min(spec.workers, splits.length)} threads (${splits.length} splits)`;
  return splits.length < spec.minSplits ? { splits, threads, inMainThread: `${splits.length} splits` } : { splits, threads };
}
