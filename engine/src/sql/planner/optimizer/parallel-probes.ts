// Parallel probes: a hash join whose probe side is a table scan that can run on the node's worker
// threads (through Filters, Projects and other such joins) is probed in those threads. The build
// side is made once, in the task's main thread, and shared with every thread (see
// exec/parallel/shared-build-side.ts); each thread streams its splits through the probe, so the
// join's work spreads like the scan's. Marked here, so EXPLAIN shows it (`probe = parallel`); the
// executor follows the mark whenever it runs the scan on threads.
//
// Inner, left and mark joins (semi, anti, IN, EXISTS) answer each probe row from the build side
// alone. Right and full joins also emit the build rows no probe row matched, which needs every
// thread's matches: they stay in the main thread.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { PlannerContext } from '../planner-context.js';
import { integerSessionProperty } from '../../../spi/session-properties.js';
import { probeChainScan } from '../fragment-scan.js';
import type { JoinNode, PlanNode } from '../plan.js';
import { rewriteBottomUp } from './rewrite-plan.js';

/** The session property that switches the rule off (for diagnosis and comparison). */
export const PARALLEL_JOIN_PROBE_PROPERTY: PropertyMetadata = {
  name: 'parallel_join_probe',
  type: { kind: 'boolean' },
  defaultValue: true,
  description: "Whether a hash join whose probe side is a table scan on the node's worker threads is probed in those threads, against a build side shared with them",
};

export function markParallelProbes(root: PlanNode, context: PlannerContext): PlanNode {
  if (integerSessionProperty(context.session, 'parallel_min_splits') === 0) return root;
  if (context.session.properties.get(PARALLEL_JOIN_PROBE_PROPERTY.name)?.toLowerCase() === 'false') return root;
  return rewriteBottomUp(root, (node) => (node.kind === 'Join' && probesInParallel(node, context) ? { ...node, parallelProbe: true } : node));
}

function probesInParallel(node: JoinNode, context: PlannerContext): boolean {
  if (node.type !== 'inner' && node.type !== 'left' && node.type !== 'mark') return false;
  const scan = probeChainScan(node.left);
  if (scan === undefined) return false;
  return context.catalogs.get(scan.table.catalog)?.workerSplitSource?.(scan.table) !== undefined;
}
