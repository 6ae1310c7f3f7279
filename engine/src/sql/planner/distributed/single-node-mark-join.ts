// A semi or anti join (EXISTS, IN: a mark join) on a single-node server whose probe side is estimated
// small and whose build side is a Filter/Project chain over a scan: the build side stays in the
// probe side's task rather than being replicated to it from a stage of its own. On one node every
// stage is one task, so the task sees every build row either way; kept there, the join runs as a
// ParallelMarkJoin (physical planner): the small probe side hashed once, the big build side streamed
// past it on the scan's threads, as DuckDB builds on the smaller side. Replicated from its own stage,
// the build rows all arrive in the join's main thread, which then hashes them (TPC-H q4: 3.8 million
// lineitem keys for 57 thousand orders) or streams them past the probe side alone. A probe side
// estimated big keeps its own stage: a ParallelMarkJoin over a big probe side falls back to reading
// the build side in the main thread.

import { estimateRows } from '../optimizer/estimate-rows.js';
import type { JoinNode, PlanNode } from '../plan.js';
import type { PlannerContext } from '../planner-context.js';
import { PROBE_FIRST_MAX_ROWS } from '../physical/adaptive-thresholds.js';
import { parallelMarkJoin } from '../physical/parallel-mark-join.js';
import { filterProjectScan, probeFirstShape } from '../physical/probe-first-shape.js';

/** Whether the build side `build` (placed, spread over tasks by split) of `node` stays in its probe side's task on a single node. */
export function keepsBuildInProbeTask(node: JoinNode, probe: PlanNode, build: PlanNode, context: PlannerContext): boolean {
  if (!probeFirstShape(node) || filterProjectScan(build) === undefined || !parallelMarkJoin(context.session)) return false;
  // A join distribution asked for (BROADCAST, PARTITIONED) is kept.
  if ((context.session.properties.get('join_distribution_type')?.toUpperCase() ?? 'AUTOMATIC') !== 'AUTOMATIC') return false;
  const probeRows = estimateRows(probe, context);
  return probeRows <= PROBE_FIRST_MAX_ROWS && probeRows < estimateRows(build, context);
}
