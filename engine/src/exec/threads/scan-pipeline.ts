// A scan pipeline: the part of a plan that runs next to a table scan, split by split, in a worker
// thread — the scan's Filter/Project chain with the probes of joins probed in parallel among them,
// optionally topped by a partial aggregation, a sort of the thread's rows, or a window. It is plain
// data (channels instead of symbols, aggregate functions by name), so it can be posted to a worker,
// which runs the same operators over it as the main thread would.

import type { RowExpression } from '../../sql/planner/row-expression.js';
import type { SqlType } from '../../types/types.js';
import { filterAndProject } from '../operators/filter-and-project.js';
import { hashAggregation, type HashAggregationSpec } from '../operators/hash-aggregation.js';
import type { OperatorContext, PageStream } from '../operators/operator.js';
import { joinFilterOf, probeBuildSide, type HashJoinSpec } from '../operators/hash-join.js';
import type { BuildSide } from '../operators/join-build-side.js';
import { MemoryReservation } from '../operators/operator-support.js';
import { markProbeSide } from './probe-marking.js';
import { adaptivePartialAggregation } from './adaptive-partial.js';
import { resolveAggregateRef, type AggregateRef } from '../../functions/aggregate/aggregate-ref.js';
import type { SortKey } from '../../functions/scalar/value-ordering.js';
import { sort } from '../operators/sort.js';
import { topN } from '../operators/top-n.js';
import type { ThreadWindow } from './thread-window.js';

/** One filterAndProject operator: over pages of `inputTypes`, keep rows passing `filter`, compute `projections`. */
export interface FilterProjectStage {
  kind: 'filterProject';
  inputTypes: SqlType[];
  filter?: RowExpression;
  projections: RowExpression[];
}

/** The probe of a join against the fragment's build side `build` (made before the fragment runs). */
export interface JoinProbeStage {
  kind: 'probe';
  spec: HashJoinSpec;
  build: number;
}

export type PipelineStage = FilterProjectStage | JoinProbeStage;

export interface PartialAggregateCall {
  function: AggregateRef;
  argumentChannels: number[];
  maskChannel?: number;
}

export interface PartialAggregation {
  inputTypes: SqlType[];
  groupChannels: number[];
  aggregates: PartialAggregateCall[];
  /**
   * Whether the partial may give its work back when it does not reduce its input (adaptive-partial):
   * only when this thread runs the final step and can take over. A partial whose final step is in
   * another task (a distributed plan) always runs.
   */
  abandonable: boolean;
}

/**
 * The step of a grouped aggregation the threads finish, each on a partition of the groups: the
 * final step over the partial's output (keys first, then intermediates), or the whole aggregation
 * in one step over the stages' rows (when the partial step was found not to reduce them).
 */
export interface FinalAggregation {
  step: 'final' | 'single';
  inputTypes: SqlType[];
  groupChannels: number[];
  aggregates: { function: AggregateRef; argumentChannels: number[]; maskChannel?: number }[];
  /** A filter over the aggregation's rows (a HAVING), applied to the groups before they leave the thread. */
  having?: FilterProjectStage;
}

export interface ScanPipeline {
  /** The table columns the scan reads, in channel order. */
  columns: string[];
  /** Applied in order over the scan's pages. */
  stages: PipelineStage[];
  /** A partial aggregation over the last stage's output; its intermediates are the fragment's output. */
  aggregation?: PartialAggregation;
  /**
   * The final step of a grouped partial aggregation (or, without `aggregation`, the whole
   * aggregation in one step), which the workers run themselves, each on a partition of the groups
   * (see partitioned-final, parallel-source): then final rows are the fragment's output.
   */
  finalAggregation?: FinalAggregation;
  /**
   * The marking of a mark join's probe side, hashed in the main thread and shared as the build side
   * `side`, by the rows of the last stage (the join's build side): the fragment then outputs one
   * summary row per thread (probe-marking.ts) instead of rows. Not with an aggregation.
   */
  mark?: ProbeMarking;
  /**
   * A sort of the last stage's output: the thread sorts all the rows of its splits into one run
   * (with `count`, keeps only its best `count`), which the main thread merges with the other
   * threads' (merge-sorted-runs.ts). Not with an aggregation or a marking.
   */
  sort?: ThreadSort;
  /**
   * A window over the last stage's output: its rows are exchanged between the threads by the hash of
   * its partition keys, and each thread windows the partitions it owns (thread-window.ts). Not with
   * an aggregation, a marking or a sort.
   */
  window?: ThreadWindow;
}

export interface ThreadSort {
  types: SqlType[];
  keys: SortKey[];
  /** TopN: the rows to keep. */
  count?: number;
}

export interface ProbeMarking {
  /** The mark join: its probe keys are the shared side's keys, its build keys the stages' output's. */
  spec: HashJoinSpec;
  side: number;
  /** One per probe row, shared by every thread: set to 1 when a build row matches it. */
  matched: Uint8Array;
}

/** The stages of a fragment over `scan`, probing `builds` (the fragment's build sides, in this thread). */
export function pipelineStages(ctx: OperatorContext, fragment: ScanPipeline, scan: PageStream, builds: readonly BuildSide[]): PageStream {
  let stream = scan;
  for (const stage of fragment.stages) {
    stream =
      stage.kind === 'filterProject'
        ? filterAndProject(ctx, stream, stage.inputTypes, stage.filter, stage.projections)
        : probeStage(ctx, stream, builds[stage.build], stage.spec);
  }
  return stream;
}

/** The rows of a grouped aggregation `groups` that its HAVING keeps (all of them without one). */
export function havingOver(ctx: OperatorContext, groups: PageStream, having: FilterProjectStage | undefined): PageStream {
  return having === undefined ? groups : filterAndProject(ctx, groups, having.inputTypes, having.filter, having.projections);
}

/** The key channels of each shared build side, by the index its probe stage (or the marking) names. */
export function sharedSideKeys(fragment: ScanPipeline): number[][] {
  const keys: number[][] = [];
  for (const stage of fragment.stages) if (stage.kind === 'probe') keys[stage.build] = stage.spec.buildKeys;
  if (fragment.mark !== undefined) keys[fragment.mark.side] = fragment.mark.spec.probeKeys;
  return keys;
}

async function* probeStage(ctx: OperatorContext, probe: PageStream, side: BuildSide, spec: HashJoinSpec): PageStream {
  const reservation = new MemoryReservation(ctx.memory);
  try {
    yield* probeBuildSide(ctx, probe, side, spec, joinFilterOf(spec), reservation);
  } finally {
    reservation.release();
  }
}

/**
 * The operators of a fragment over `scan` (the pages of the splits it is given), up to its marking,
 * its sort, or its partial aggregation (which throws PartialAggregationDoesNotPay when it does not pay).
 */
export function scanPipelineStream(
  ctx: OperatorContext,
  fragment: ScanPipeline,
  scan: PageStream,
  builds: readonly BuildSide[],
): PageStream {
  const stream = pipelineStages(ctx, fragment, scan, builds);
  if (fragment.mark !== undefined) return markProbeSide(ctx, stream, builds[fragment.mark.side], fragment.mark);
  const order = fragment.sort;
  if (order !== undefined)
    return order.count === undefined ? sort(ctx, stream, order.types, order.keys) : topN(ctx, stream, order.types, order.keys, order.count);
  const aggregation = fragment.aggregation;
  if (aggregation === undefined) return stream;
  const spec: HashAggregationSpec = {
    inputTypes: aggregation.inputTypes,
    groupChannels: aggregation.groupChannels,
    aggregates: aggregation.aggregates.map((a) => ({
      function: resolveAggregateRef(a.function),
      argumentChannels: a.argumentChannels,
      distinct: false,
      maskChannel: a.maskChannel,
    })),
    step: 'partial',
  };
  return aggregation.abandonable ? adaptivePartialAggregation(ctx, stream, spec) : hashAggregation(ctx, stream, spec);
}
