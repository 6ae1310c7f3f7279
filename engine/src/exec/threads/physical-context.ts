// What the physical planner (sql/planner/physical) needs to know of this node and a session: the
// worker threads a scan may use, and which connectors read their splits there.

import type { PlanFragment } from '../../sql/planner/distributed/fragmenter.js';
import type { TableScanNode } from '../../sql/planner/plan.js';
import type { NodeRuntimeStats } from '../../sql/planner/plan-printer.js';
import { PhysicalPlanner, type PhysicalPlanningContext } from '../../sql/planner/physical/physical-planner.js';
import { printPhysicalTree } from '../../sql/planner/physical/physical-printer.js';
import type { ExecutionEnvironment } from '../local-execution-planner.js';
import { scanConnector } from '../table-scan.js';
import { parallelSettings } from './thread-settings.js';

/** `assignedSplits`: whether a scan's splits are assigned to the task as they come (a distributed task's source). */
export function physicalPlanningContext(
  env: Pick<ExecutionEnvironment, 'catalogs' | 'session'>,
  assignedSplits: (scan: TableScanNode) => boolean,
): PhysicalPlanningContext {
  const settings = parallelSettings(env.session);
  return {
    threads: settings.workers,
    minSplits: settings.minSplits,
    threadScan: (scan) => {
      const source = scanConnector(env, scan).workerSplitSource?.(scan.table);
      return source === undefined ? undefined : { generatesPages: source.generatesPages };
    },
    assignedSplits,
  };
}

/**
 * EXPLAIN's tree of a fragment: its physical plan as this node's session plans it (a fragment's
 * partitioned scans get their splits assigned as they come), with EXPLAIN ANALYZE's `stats`.
 */
export function physicalTreeOf(
  env: Pick<ExecutionEnvironment, 'catalogs' | 'session'>,
  stats?: ReadonlyMap<number, NodeRuntimeStats>,
): (f: PlanFragment) => string[] {
  return (f) => {
    const planner = new PhysicalPlanner(physicalPlanningContext(env, (scan) => f.partitionedScans.includes(scan)));
    return printPhysicalTree(planner.plan(f.root), stats);
  };
}
