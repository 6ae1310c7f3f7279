// What the physical planner (sql/planner/physical) needs to know of the node that runs a plan and of
// a session: the worker threads a scan may use, and which connectors read their splits there. The
// coordinator plans every fragment here, once, for the nodes its tasks go to (their announced worker
// threads); a worker maps the plan it is sent and never plans.

import type { PlanFragment } from '../../sql/planner/distributed/fragmenter.js';
import { type PlanNode, sources, type TableScanNode } from '../../sql/planner/plan.js';
import type { NodeRuntimeStats } from '../../sql/planner/plan-printer.js';
import { PhysicalPlanIndex } from '../../sql/planner/physical/physical-plan-index.js';
import { PhysicalPlanner, type PhysicalPlanningContext } from '../../sql/planner/physical/physical-planner.js';
import { printPhysicalTree } from '../../sql/planner/physical/physical-printer.js';
import type { PhysicalNode } from '../../sql/planner/physical/physical-plan.js';
import { validatePhysicalPlan } from '../../sql/planner/physical/physical-plan-validator.js';
import { VALIDATE_PLANS_ENV } from '../../sql/planner/plan-query.js';
import type { ExecutionEnvironment } from '../local-execution-planner.js';
import { scanConnector } from '../table-scan.js';
import { parallelSettings } from './thread-settings.js';
import { partitionedAggregation } from '../../sql/planner/physical/partitioned-aggregation.js';
import { parallelMarkJoin } from '../../sql/planner/physical/parallel-mark-join.js';
import { parallelSort } from '../../sql/planner/physical/parallel-sort.js';
import { type CommonSubplans, findCommonSubplans, materializeCommonTableExpressions } from '../../sql/planner/physical/common-subplans.js';
import { type FragmentsWithCommonSubplans, sharesAcrossFragments } from '../../sql/planner/distributed/fragment-common-subplans.js';
import { parallelWindow } from '../../sql/planner/physical/parallel-window.js';
import { parallelHashBuild } from '../../sql/planner/physical/parallel-hash-build.js';

type PlanningEnvironment = Pick<ExecutionEnvironment, 'catalogs' | 'session'>;

/**
 * `assignedSplits`: whether a scan's splits are assigned to the task as they come (a distributed task's source);
 * `nodeThreads`: the worker threads of the node that runs the plan (default: this node's).
 */
export function physicalPlanningContext(
  env: PlanningEnvironment,
  assignedSplits: (scan: TableScanNode) => boolean,
  nodeThreads?: number,
): PhysicalPlanningContext {
  const settings = parallelSettings(env.session, nodeThreads);
  return {
    threads: settings.workers,
    minSplits: settings.minSplits,
    partitionedFinal: partitionedAggregation(env.session),
    parallelMarkJoin: parallelMarkJoin(env.session),
    parallelSort: parallelSort(env.session),
    parallelWindow: parallelWindow(env.session),
    parallelHashBuild: parallelHashBuild(env.session),
    threadScan: (scan) => {
      const source = scanConnector(env, scan).workerSplitSource?.(scan.table);
      return source === undefined ? undefined : { generatesPages: source.generatesPages };
    },
    assignedSplits,
  };
}

/** The physical plan of a whole plan run on this node (a single node's query, with every split listed here). */
export function localPhysicalPlan(env: PlanningEnvironment, root: PlanNode): PhysicalPlanIndex {
  const context = physicalPlanningContext(env, () => false);
  return validated(new PhysicalPlanner(withCommonSubplans(env, context, root)).plan(root), 'the query');
}

/**
 * The physical plan of a fragment, for nodes of `nodeThreads` worker threads (default: this node's):
 * its partitioned scans get their splits assigned as they come.
 */
export function fragmentPhysicalPlan(
  env: PlanningEnvironment,
  fragment: PlanFragment,
  nodeThreads?: number,
  acrossFragments?: FragmentsWithCommonSubplans,
): PhysicalPlanIndex {
  const context = physicalPlanningContext(env, (scan) => fragment.partitionedScans.includes(scan), nodeThreads);
  const shared =
    acrossFragments !== undefined && sharesAcrossFragments(acrossFragments.root, fragment)
      ? withCommonSubplansAcrossFragments(context, fragment, acrossFragments.commonSubplans)
      : withCommonSubplans(env, context, fragment.root);
  return validated(new PhysicalPlanner(shared).plan(fragment.root), `fragment ${fragment.id}`);
}

/** `context` with the common subplans of a single node's fragments (fragment-common-subplans.ts). */
function withCommonSubplansAcrossFragments(
  context: PhysicalPlanningContext,
  fragment: PlanFragment,
  commonSubplans: CommonSubplans,
): PhysicalPlanningContext {
  const here = new Set<PlanNode>();
  const visit = (node: PlanNode): void => {
    here.add(node);
    sources(node).forEach(visit);
  };
  visit(fragment.root);
  return { ...context, commonSubplans, producedHere: (producer) => here.has(producer) };
}

/**
 * `context` with the plan's identical aggregations to run once (materialize_common_table_expressions),
 * leaving out those over splits assigned as they come: each copy's scan is given its own.
 */
function withCommonSubplans(env: PlanningEnvironment, context: PhysicalPlanningContext, root: PlanNode): PhysicalPlanningContext {
  if (!materializeCommonTableExpressions(env.session)) return context;
  return { ...context, commonSubplans: findCommonSubplans([root], (scan) => !context.assignedSplits(scan)) };
}

/** `root` checked by the physical plan validator when plan validation is on (ENGINE_VALIDATE_PLANS=1). */
function validated(root: PhysicalNode, what: string): PhysicalPlanIndex {
  if (process.env[VALIDATE_PLANS_ENV] === '1') validatePhysicalPlan(root, what);
  return new PhysicalPlanIndex(root);
}

/** EXPLAIN's tree of a fragment: its physical plan as the query runs it (`planOf`), with EXPLAIN ANALYZE's `stats`. */
export function physicalTreeOf(
  stats: ReadonlyMap<number, NodeRuntimeStats> | undefined,
  planOf: (f: PlanFragment) => PhysicalPlanIndex,
): (f: PlanFragment) => string[] {
  return (f) => printPhysicalTree(planOf(f).root, stats);
}
