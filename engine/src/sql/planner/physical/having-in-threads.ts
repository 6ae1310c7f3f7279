// A HAVING run on the threads: a Filter directly above a grouped final aggregation that the threads
// finish, each on a partition of the groups, is applied by each thread to the groups it finished,
// before they are gathered in the main thread. For a filter that keeps few groups (TPC-H q18 keeps
// 624 of 1.5 million) this saves posting the other groups to the main thread and filtering them there.

import { isDeterministic } from '../deterministic-expression.js';
import type { FilterNode, PlanNode } from '../plan.js';
import { referencedSymbols } from '../row-expression.js';
import type { ParallelScan } from './physical-plan.js';

/** `filter` as the filter on the groups of the parallel scan `below`, undefined when it cannot run in its threads. */
export function havingInThreads(filter: FilterNode, below: ParallelScan): ParallelScan | undefined {
  const aggregation = below.aggregation;
  if (aggregation?.final !== filter.source || aggregation.finalStep !== 'partitioned across threads') return undefined;
  // Every row the filter sees must be one the aggregation made, and the filter the same wherever it runs.
  const outputs = new Set(aggregation.final.outputs.map((s) => s.id));
  if (!isDeterministic(filter.predicate) || [...referencedSymbols(filter.predicate).keys()].some((id) => !outputs.has(id)))
    return undefined;
  return {
    ...below,
    node: filter,
    aggregation: { ...aggregation, having: filter },
    // The groups kept are gathered above the filter instead of above the aggregation.
    exchanges: below.exchanges.map((e) => (e.type === 'GATHER' ? { ...e, below: filter } : e)),
    inMainThread: { kind: 'Operator', node: filter, sources: [below.inMainThread] },
  };
}

/** Whether `node` is a Filter that havingInThreads may put on the threads of its source's parallel scan. */
export function isHavingCandidate(node: PlanNode): node is FilterNode {
  return node.kind === 'Filter' && node.source.kind === 'Aggregate' && node.source.step === 'final';
}
