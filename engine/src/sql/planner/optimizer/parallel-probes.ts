// Parallel probes: a hash join whose probe side is a table scan that can run on the node's worker
// threads (through Filters, Projects and other such joins) is probed in those threads. The build
// side is made once, in the task's main thread, and shared with every thread (see
// exec/parallel/shared-build-side.ts); each thread streams its splits through the probe, so the
// join's work spreads like the scan's. Marked here, so EXPLAIN shows it (`probe = parallel`); the
// executor follows the mark whenever it runs the scan on threads.
//
// Strings (and other values not held in typed arrays: binaries, long decimals, nested values)
// cannot live in shared memory: each thread gets its own copy of such build columns, cloned in
// the main thread once per thread (a dictionary when they repeat), and every output row carrying
// one is cloned again on its way back. Measured on TPC-H sf1 (q10: customer's 150,000 names,
// addresses and comments) that costs more than the parallel probe saves, so a build side with such
// columns is shared only when it is estimated small (MAX_COPIED_BUILD_VALUES). Build columns nothing above the join uses
// (a filter's column, say, which a Filter passes on) are dropped from the build side first, so
// they do not count.
//
// Inner, left and mark joins (semi, anti, IN, EXISTS) answer each probe row from the build side
// alone. Right and full joins also emit the build rows no probe row matched, which needs every
// thread's matches: they stay in the main thread.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { PlannerContext } from '../planner-context.js';
import { integerSessionProperty } from '../../../spi/session-properties.js';
import { probeChainScan } from '../fragment-scan.js';
import type { JoinNode, PlanNode } from '../plan.js';
import { mapSources } from './rewrite-plan.js';
import { nodeReferences } from '../plan-symbols.js';
import { estimateRows } from './estimate-rows.js';
import { SHORT_DECIMAL_PRECISION, type SqlType } from '../../../types/types.js';

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
  return visit(root, allOf(root), context);
}

/** `node` with its joins marked; `required`: the ids of the symbols of its outputs that something above it uses. */
function visit(node: PlanNode, required: ReadonlySet<number>, context: PlannerContext): PlanNode {
  switch (node.kind) {
    case 'Project':
    case 'Aggregate':
      return mapSources(node, (source) => visit(source, new Set(nodeReferences(node).keys()), context));
    // Below a Filter or a Join a build side may lose columns: their outputs follow their sources'.
    case 'Filter': {
      const source = visit(node.source, new Set([...required, ...nodeReferences(node).keys()]), context);
      return { ...node, source, outputs: source.outputs };
    }
    case 'Join': {
      const used = new Set([...required, ...nodeReferences(node).keys()]);
      const join = withSides(node, visit(node.left, used, context), visit(node.right, used, context));
      return probesInParallel(join, context) ? sharedBuild(join, used, context) : join;
    }
    default:
      return mapSources(node, (source) => visit(source, allOf(source), context));
  }
}

/**
 * Most values (estimated build rows times used columns) of build columns that cannot be shared for
 * which a join is still probed in parallel. Measured on TPC-H sf1 memory tables, best of 3 against
 * the main thread: q5 (n_name, 375,000 estimated) 2.3x faster and q12 (l_shipmode, 75,000) 1.2x
 * faster in parallel; q10 (4 customer strings, 600,000) 1.35x slower.
 */
export const MAX_COPIED_BUILD_VALUES = 500_000;

function allOf(node: PlanNode): Set<number> {
  return new Set(node.outputs.map((s) => s.id));
}

function probesInParallel(node: JoinNode, context: PlannerContext): boolean {
  if (node.type !== 'inner' && node.type !== 'left' && node.type !== 'mark') return false;
  const scan = probeChainScan(node.left);
  if (scan === undefined) return false;
  return context.catalogs.get(scan.table.catalog)?.workerSplitSource?.(scan.table) !== undefined;
}

/** The join probed in parallel, without the build columns nothing uses that cannot be shared; or as it is when those it uses are too many. */
function sharedBuild(node: JoinNode, used: ReadonlySet<number>, context: PlannerContext): JoinNode {
  const kept = node.right.outputs.filter((s) => isSharedType(s.type) || used.has(s.id));
  const copied = kept.filter((s) => !isSharedType(s.type)).length;
  if (copied > 0 && copied * estimateRows(node.right, context) > MAX_COPIED_BUILD_VALUES) return node;
  return { ...withSides(node, node.left, context.factory.restrict(node.right, kept)), parallelProbe: true };
}

function withSides(node: JoinNode, left: PlanNode, right: PlanNode): JoinNode {
  const outputs = node.type === 'mark' ? [...left.outputs, node.mark!.symbol] : [...left.outputs, ...right.outputs];
  return { ...node, left, right, outputs };
}

/** Whether values of the type are held in typed arrays, which threads share (see exec/shared-page). */
function isSharedType(type: SqlType): boolean {
  switch (type.kind) {
    case 'varchar':
    case 'char':
    case 'varbinary':
    case 'array':
    case 'map':
    case 'row':
      return false;
    case 'decimal':
      return type.precision <= SHORT_DECIMAL_PRECISION;
    default:
      return true;
  }
}
