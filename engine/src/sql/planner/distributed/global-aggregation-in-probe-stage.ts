// A scalar subquery's aggregation on a cluster (TPC-H q22's average balance, q11's threshold): a
// broadcast join's build side that is a global aggregation's one row gathered its partial rows to a
// stage of one task for the final step, which then replicated its row to the probe side's stage:
// two exchange hops in series, and a stage with its task, for one row. Instead the partial rows (one
// per producing task) are replicated to the probe side's stage, and every task of it runs the final
// step, and the EnforceSingleRow, Projects and Filters above it, itself. Every task must then make the
// same row: only finals whose result does not depend on the order of their input rows qualify (no
// floating-point sums, no arbitrary), under deterministic expressions.

import type { PropertyMetadata } from '../../../spi/properties.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';
import type { SqlType } from '../../../types/types.js';
import { isDeterministic } from '../deterministic-expression.js';
import type { AggregateNode, PlanNode } from '../plan.js';
import type { PlannerContext } from '../planner-context.js';

export const GLOBAL_AGGREGATION_IN_PROBE_STAGE_PROPERTY: PropertyMetadata = {
  name: 'global_aggregation_in_probe_stage',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    "Whether a broadcast join's build side that is a global aggregation (a scalar subquery) finishes in every task of the probe side's stage over its replicated partial rows, rather than in a stage of one task whose row is replicated",
};

/** Finals whose result is the same whatever order their partial rows come in (over types without rounding). */
const ORDER_INDEPENDENT_FINALS = new Set(['count', 'count_if', 'min', 'max', 'sum', 'avg', 'bool_and', 'bool_or', 'every']);

/**
 * `build` (in one task) with the GATHER of its global aggregation's partial rows turned into a
 * REPLICATE, so that it runs in each task of the probe side's stage; undefined when it is no such build side.
 */
export function globalAggregationInProbeStage(build: PlanNode, context: PlannerContext): PlanNode | undefined {
  if (!booleanSessionProperty(context.session, GLOBAL_AGGREGATION_IN_PROBE_STAGE_PROPERTY)) return undefined;
  const replicate = (node: PlanNode): PlanNode | undefined => {
    switch (node.kind) {
      case 'EnforceSingleRow': {
        const source = replicate(node.source);
        return source && { ...node, source };
      }
      case 'Project': {
        const source = node.assignments.every((a) => isDeterministic(a.expression)) ? replicate(node.source) : undefined;
        return source && { ...node, source };
      }
      case 'Filter': {
        const source = isDeterministic(node.predicate) ? replicate(node.source) : undefined;
        return source && { ...node, source };
      }
      case 'Aggregate': {
        const gather = node.source;
        if (!isOrderIndependentGlobalFinal(node) || gather.kind !== 'Exchange' || gather.type !== 'GATHER' || gather.orderBy !== undefined)
          return undefined;
        return { ...node, source: { ...gather, type: 'REPLICATE' } };
      }
      default:
        return undefined;
    }
  };
  return replicate(build);
}

function isOrderIndependentGlobalFinal(node: AggregateNode): boolean {
  return (
    node.step === 'final' &&
    node.groupingKeys.length === 0 &&
    node.aggregations.every(
      (a) =>
        ORDER_INDEPENDENT_FINALS.has(a.function.name) &&
        a.function.ordering === undefined &&
        [...a.function.argumentTypes, ...a.function.intermediateTypes, a.function.returnType].every(withoutRounding),
    )
  );
}

/** Floating-point sums depend on the order of their terms. */
function withoutRounding(type: SqlType): boolean {
  return type.kind !== 'double' && type.kind !== 'real';
}
