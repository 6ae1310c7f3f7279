// A grouped aggregation on a single node (a server of role single, which never has other nodes):
// every stage there runs as one task, so rows spread over a stage's tasks by split are all in its
// one task already, and the aggregation finishes there, its partial step on the scan's threads and
// its final step in the task's main thread, rather than across a repartition to a FIXED_HASH stage
// of one task. The joins above it then stay in its scan's fragment, where their dynamic filters
// reach that scan through the grouping keys (a filter never crosses an exchange, see
// optimizer/dynamic-filters.ts): TPC-H q20's partsupp keys filter lineitem before its grouped sums,
// as they do over memory tables, whose scans are all in one fragment. A cluster keeps the
// repartition: its nodes may change between planning and scheduling, and each takes a task.

import type { PropertyMetadata } from '../../../spi/properties.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';
import type { PlannerContext } from '../planner-context.js';

export const SINGLE_NODE_AGGREGATION_PROPERTY: PropertyMetadata = {
  name: 'single_node_aggregation',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    'Whether a grouped aggregation over a scan on a single-node server finishes in the task of its scan (partial step on its threads, final step in its main thread) rather than across a repartition to another stage',
};

/** Whether grouped aggregations finish in their scan's task: on a single node, unless the session switched it off. */
export function aggregatesInScanTask(context: PlannerContext, singleNode: boolean): boolean {
  return singleNode && booleanSessionProperty(context.session, SINGLE_NODE_AGGREGATION_PROPERTY);
}
