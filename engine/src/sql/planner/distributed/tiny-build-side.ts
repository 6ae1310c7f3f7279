// Tiny build sides on a cluster: a broadcast join's build side that reads only tiny tables (TPC-H's
// region and nation: estimated at most TINY_TABLE_MAX_ROWS rows each, from the connector's
// statistics) through Filters, Projects and such joins of their own is not replicated from a stage
// of its own: it stays in the probe side's fragment, and every task of that fragment reads all of
// its tables' splits itself (listed in the task, not assigned by the scheduler), as a REPLICATE
// exchange would have given it every row. That removes a stage and an exchange hop per tiny table:
// on coordinator + 2 workers TPC-H q02 ran region -> nation -> supplier as a chain of stages, each
// waiting for the one below (region's one row came out ~660 ms after its task started under load).
// Trino reads system tables this way; any remotely accessible table does here.

import type { PropertyMetadata } from '../../../spi/properties.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';
import type { PlanNode, TableScanNode } from '../plan.js';
import { mapSources } from '../optimizer/rewrite-plan.js';
import type { PlannerContext } from '../planner-context.js';

/** The most rows a table may be estimated at to be read whole in every task of its join's fragment. */
export const TINY_TABLE_MAX_ROWS = 1000;

export const TINY_BUILD_SIDE_IN_PROBE_STAGE_PROPERTY: PropertyMetadata = {
  name: 'tiny_build_side_in_probe_stage',
  type: { kind: 'boolean' },
  defaultValue: true,
  description: `Whether a broadcast join's build side over tables of at most ${TINY_TABLE_MAX_ROWS} estimated rows is read whole by every task of the probe side's stage, rather than replicated from a stage of its own`,
};

/**
 * The build side with its scans marked replicated (every task of the fragment reads all their
 * splits), when it reads only tiny tables through nodes that give the same rows in one task over all
 * splits as over the tasks together; undefined otherwise. `build`: the placed build side, spread
 * over tasks by split and without exchanges.
 */
export function tinyBuildSide(build: PlanNode, context: PlannerContext): PlanNode | undefined {
  if (!booleanSessionProperty(context.session, TINY_BUILD_SIDE_IN_PROBE_STAGE_PROPERTY) || !readsOnlyTinyTables(build, context))
    return undefined;
  const mark = (node: PlanNode): PlanNode => (node.kind === 'TableScan' ? replicatedScan(node) : mapSources(node, mark));
  return mark(build);
}

function replicatedScan(scan: TableScanNode): TableScanNode {
  return { ...scan, replicated: true };
}

function readsOnlyTinyTables(node: PlanNode, context: PlannerContext): boolean {
  switch (node.kind) {
    case 'TableScan': {
      const rows = context.metadata.tableStatistics(node.table)?.rowCount;
      return rows !== undefined && rows <= TINY_TABLE_MAX_ROWS && node.splitSampleRatio === undefined;
    }
    case 'Filter':
    case 'Project':
      return readsOnlyTinyTables(node.source, context);
    case 'Join':
      // A join kept whole in a task (its build side replicated, nothing beyond an exchange) answers
      // each probe row alone: over all splits in one task it gives the rows it gave over them all.
      return node.distribution === 'REPLICATED' && readsOnlyTinyTables(node.left, context) && readsOnlyTinyTables(node.right, context);
    default:
      return false;
  }
}
