// A distributed sort, as Trino plans one: an ORDER BY whose rows are spread over many tasks sorts
// them in each of those tasks (on its threads, as a ParallelSort, when it reads a scan), and the
// task above merges the tasks' sorted streams with a merging exchange (a GATHER with the sort's
// order, Trino's RemoteMerge): a k-way merge that streams the rows in order and holds one page per
// task, rather than one task gathering every row and sorting them alone. Switched off, the rows
// are gathered and sorted in one task, as before.

import type { PropertyMetadata } from '../../../spi/properties.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';
import type { PlannerContext } from '../planner-context.js';

export const DISTRIBUTED_SORT_PROPERTY: PropertyMetadata = {
  name: 'distributed_sort',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    'Whether an ORDER BY over rows spread over many tasks sorts them in each task and merges the sorted streams above (a merging exchange), rather than gathering every row into one task that sorts them',
};

export function distributedSort(context: PlannerContext): boolean {
  return booleanSessionProperty(context.session, DISTRIBUTED_SORT_PROPERTY);
}
