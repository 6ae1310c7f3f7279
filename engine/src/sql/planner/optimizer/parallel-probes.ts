// Parallel probes: a hash join whose probe side is a table scan that can run on the node's worker
// threads (through Filters, Projects and other such joins) is probed in those threads. The build
// side is made once, in the task's main thread, and shared with every thread (see
// exec/threads/shared-build-side.ts); each thread streams its splits through the probe, so the
// join's work spreads like the scan's. Marked here, so EXPLAIN shows it (`probe = parallel`); the
// executor follows the mark whenever it runs the scan on threads.
//
// Strings (and other values not held in typed arrays: binaries, long decimals, nested values)
// cannot live in shared memory: each thread gets its own copy of such build columns, cloned in
// the main thread once per thread (a dictionary when they repeat), and every output row carrying
// one is cloned again on its way back. On TPC-H sf1 (q10: customer's 150,000 names, addresses and
// comments) the main thread spent about 350 ms per query posting those copies, so a build side
// with such columns is shared only when it is estimated small (MAX_COPIED_BUILD_VALUES). Build
// columns nothing above the join uses (a filter's column, say, which a Filter passes on) are
// dropped from the build side first, so they do not count.
//
// Where its rows go into an aggregation in the same threads, or its scan makes its pages there (a
// generated or decoded table), a join is probed in parallel wherever it stands. Without them it pays
// only when the joins keep few of the scan's rows (FEW_ROWS_BACK_SHARE), and that reason counts only
// outside the build side of a join probed in parallel, so that such pipelines never nest.
//
// Inner, left and mark joins (semi, anti, IN, EXISTS) answer each probe row from the build side
// alone. Right and full joins also emit the build rows no probe row matched, which needs every
// thread's matches: they stay in the main thread.

import type { PropertyMetadata } from '../../../spi/properties.js';
import type { PlannerContext } from '../planner-context.js';
import { booleanSessionProperty, integerSessionProperty } from '../../../spi/session-properties.js';
import { probeChainScan } from '../fragment-scan.js';
import type { JoinNode, PlanNode } from '../plan.js';
import { mapSources } from './rewrite-plan.js';
import { nodeReferences } from '../plan-symbols.js';
import { estimateRows } from './estimate-rows.js';
import { SHORT_DECIMAL_PRECISION, type SqlType } from '../../../types/types.js';
import type { Symbol } from '../row-expression.js';
import { hasPartialForm } from './split-aggregation.js';
import { assertNever } from '../assert-never.js';

/** The session property that switches the rule off (for diagnosis and comparison). */
export const PARALLEL_JOIN_PROBE_PROPERTY: PropertyMetadata = {
  name: 'parallel_join_probe',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    "Whether a hash join whose probe side is a table scan on the node's worker threads is probed in those threads, against a build side shared with them",
};

export function markParallelProbes(root: PlanNode, context: PlannerContext): PlanNode {
  if (integerSessionProperty(context.session, 'parallel_min_splits') === 0) return root;
  if (!booleanSessionProperty(context.session, PARALLEL_JOIN_PROBE_PROPERTY)) return root;
  return visit(root, allOf(root), TOP, context);
}

/**
 * Where a subtree stands: `reduced`, whether its rows go into an aggregation that runs in the same
 * threads (its partial step), so that few rows come back from them; `underParallelProbe`, whether it
 * is in (or under) the build side of a join probed in parallel, whose pipeline it feeds.
 */
interface Place {
  reduced: boolean;
  underParallelProbe: boolean;
}

const TOP: Place = { reduced: false, underParallelProbe: false };

/** `node` with its joins marked. `required`: the ids of the symbols of its outputs that something above it uses. */
function visit(node: PlanNode, required: ReadonlySet<number>, place: Place, context: PlannerContext): PlanNode {
  const unreduced: Place = { ...place, reduced: false };
  switch (node.kind) {
    case 'Project':
      return mapSources(node, (source) => visit(source, new Set(nodeReferences(node).keys()), place, context));
    case 'Aggregate': {
      const reduced = node.step === 'partial' || hasPartialForm(node);
      return mapSources(node, (source) => visit(source, new Set(nodeReferences(node).keys()), { ...place, reduced }, context));
    }
    // Below a Filter or a Join a build side may lose columns: their outputs follow their sources'.
    case 'Filter': {
      const source = visit(node.source, new Set([...required, ...nodeReferences(node).keys()]), place, context);
      return { ...node, source, outputs: source.outputs };
    }
    case 'Join':
      return visitJoin(node, required, place, context);
    case 'TableScan':
    case 'Values':
    case 'RecursiveUnion':
    case 'Sort':
    case 'TopN':
    case 'Limit':
    case 'Window':
    case 'SetOperation':
    case 'EnforceSingleRow':
    case 'GroupId':
    case 'AssignUniqueId':
    case 'MarkDistinct':
    case 'Unnest':
    case 'Apply':
    case 'Exchange':
    case 'RemoteSource':
    case 'TableWriter':
    case 'TableFinish':
      return mapSources(node, (source) => visit(source, allOf(source), unreduced, context));
    default:
      return assertNever(node);
  }
}

/**
 * The join marked, its probe side first (whether it goes to the threads decides this join), then
 * its build side. Few rows coming back (keepsFewOfItsScan) count only outside the build side of a
 * join probed in parallel: there, in a left-deep chain of small scans (sqllogictest select5: up to
 * 64 tables), every join became a parallel pipeline inside the build side of the one above, which
 * gains nothing (a build side is made before the threads probe) and made plans nest parallel nodes
 * as deep as the chain.
 */
function visitJoin(node: JoinNode, required: ReadonlySet<number>, place: Place, context: PlannerContext): JoinNode {
  const used = new Set([...required, ...nodeReferences(node).keys()]);
  const candidate = isCandidate(node, used, context);
  const fewRowsBack = place.reduced || (!place.underParallelProbe && keepsFewOfItsScan(node, context));
  // The probe side stays in this join's threads only when the join goes there too.
  const left = visit(node.left, used, { ...place, reduced: fewRowsBack && candidate }, context);
  const parallel = candidate && probesInParallel(left, fewRowsBack, context);
  const right = visit(node.right, used, { reduced: false, underParallelProbe: place.underParallelProbe || parallel }, context);
  const join = withSides(node, left, right);
  return parallel ? sharedBuild(join, used, context) : join;
}

/**
 * Most values (estimated build rows times used columns) of build columns that cannot be shared for
 * which a join is still probed in parallel: below q10's customer columns (4 x 150,000, see above),
 * above q5's nation names and q12's ship modes (375,000 and 75,000 estimated; few distinct values,
 * which travel as a dictionary).
 */
export const MAX_COPIED_BUILD_VALUES = 500_000;

function allOf(node: PlanNode): Set<number> {
  return new Set(node.outputs.map((s) => s.id));
}

/** Whether the join's kind and build side allow probing it in parallel (whatever its probe side). */
function isCandidate(node: JoinNode, used: ReadonlySet<number>, context: PlannerContext): boolean {
  if ((node.type !== 'inner' && node.type !== 'left' && node.type !== 'mark') || node.nearest !== undefined) return false;
  // A build side estimated bigger than the probe side: its build in the main thread outweighs the
  // probe, and a mark join there hashes a small probe side instead (mark-join-probe-first; TPC-H
  // q4's EXISTS over lineitem measured 5x slower probed in parallel on sf1 memory tables).
  if (estimateRows(node.right, context) > estimateRows(node.left, context)) return false;
  const copied = keptBuildColumns(node, used).filter((s) => !isSharedType(s.type)).length;
  return copied === 0 || copied * estimateRows(node.right, context) <= MAX_COPIED_BUILD_VALUES;
}

/**
 * Whether the probe side is a scan on threads, and it pays to probe there: when the rows go on into
 * a partial aggregation in the same threads (or the joins keep few of the scan's rows: `reduced`),
 * or when the scan makes its pages in the threads anyway (a generated or decoded table). Otherwise
 * every probe row travels back to the main thread, where a memory table's scan would have read it
 * for nothing (q5's orders-customer join on sf1 memory tables, whose rows go back to build the
 * lineitem join's table, measured slower in threads).
 */
function probesInParallel(probe: PlanNode, reduced: boolean, context: PlannerContext): boolean {
  const scan = probeChainScan(probe);
  if (scan === undefined) return false;
  const splits = context.catalogs.get(scan.table.catalog)?.workerSplitSource?.(scan.table);
  return splits !== undefined && (reduced || splits.generatesPages);
}

/**
 * Share of its scan's rows at most that an inner join over a scan pipeline is estimated to keep for
 * few of them to come back from the threads, as from a partial aggregation there: q21's lineitem
 * joined with one nation's suppliers (1/25) then with finished orders, whose 6M rows the main thread
 * otherwise scanned and tested against the dynamic filters alone, ahead of its EXISTS joins. q5's
 * orders-customer join (all of its ~15% of orders come back) stays above it.
 */
export const FEW_ROWS_BACK_SHARE = 0.1;

function keepsFewOfItsScan(node: JoinNode, context: PlannerContext): boolean {
  if (node.type !== 'inner') return false;
  let scan: PlanNode = node.left;
  while (scan.kind === 'Filter' || scan.kind === 'Project' || scan.kind === 'Join') scan = scan.kind === 'Join' ? scan.left : scan.source;
  return scan.kind === 'TableScan' && estimateRows(node, context) <= FEW_ROWS_BACK_SHARE * estimateRows(scan, context);
}

/** The build columns a join keeps: those that can be shared, and those something uses. */
function keptBuildColumns(node: JoinNode, used: ReadonlySet<number>): Symbol[] {
  return node.right.outputs.filter((s) => isSharedType(s.type) || used.has(s.id));
}

/** The join probed in parallel, without the build columns nothing uses that cannot be shared. */
function sharedBuild(node: JoinNode, used: ReadonlySet<number>, context: PlannerContext): JoinNode {
  return { ...withSides(node, node.left, context.factory.restrict(node.right, keptBuildColumns(node, used))), parallelProbe: true };
}

function withSides(node: JoinNode, left: PlanNode, right: PlanNode): JoinNode {
  const outputs = node.type === 'mark' ? [...left.outputs, node.mark!.symbol] : [...left.outputs, ...right.outputs];
  return { ...node, left, right, outputs };
}

/** Whether values of the type are held in typed arrays, which threads share (see columnar/shared-page). */
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
