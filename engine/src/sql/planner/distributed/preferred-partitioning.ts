// Preferred partitioning: an aggregation grouped by keys K above a step that needs its rows hashed on
// more keys G ⊇ K (the distinct rows of count(DISTINCT x) GROUP BY K are grouped by K and x; a
// MarkDistinct of a DISTINCT call marks on K and its arguments) has that step's rows repartitioned
// on K rather than G. Rows equal on G are equal on K, so they still meet in one task, and the
// aggregation by K then finishes there in one step: one exchange instead of two, and no partial
// and final steps around the second (TPC-H q16: the distinct (brand, type, size, suppkey) rows were
// repartitioned on all four, then counted partially and repartitioned on the three again). Trino's
// AddExchanges does the same with its parent's preferred partitioning.
//
// Fewer keys spread rows over fewer distinct hashes: with few groups, a few tasks would get every
// row. So K must be estimated to have many groups per node; a key whose distinct count is not
// known counts as its table's rows (estimate-rows), as Trino assumes no skew without statistics.

import type { PropertyMetadata } from '../../../spi/properties.js';
import { booleanSessionProperty } from '../../../spi/session-properties.js';
import type { PlannerContext } from '../planner-context.js';
import type { AggregateNode, PlanNode } from '../plan.js';
import type { Symbol } from '../row-expression.js';
import { estimateRows } from '../optimizer/estimate-rows.js';

export const PREFERRED_AGGREGATION_PARTITIONING_PROPERTY: PropertyMetadata = {
  name: 'preferred_aggregation_partitioning',
  type: { kind: 'boolean' },
  defaultValue: true,
  description:
    "Whether the rows of a distinct step (count(DISTINCT x) GROUP BY k, or a MarkDistinct) under an aggregation grouped by fewer keys are repartitioned on that aggregation's keys, when it has many groups per node, so that it finishes without another exchange",
};

/** Estimated groups per node below which the keys of the aggregation above are not preferred. */
const MIN_GROUPS_PER_NODE = 64;

/**
 * The keys the aggregation prefers its source's rows hashed on (its own), or none: when it has no
 * keys, too few estimated groups for `nodes`, or the session switched this off.
 */
export function preferredKeysBelow(node: AggregateNode, context: PlannerContext, nodes: number): Symbol[] {
  if (node.groupingKeys.length === 0 || node.step !== 'single' || !overDistinctStep(node.source)) return [];
  if (!booleanSessionProperty(context.session, PREFERRED_AGGREGATION_PARTITIONING_PROPERTY)) return [];
  return estimateRows(node, context) >= MIN_GROUPS_PER_NODE * Math.max(1, nodes) ? [...node.groupingKeys] : [];
}

/** Whether a grouping or a MarkDistinct lies below, through row-by-row nodes (else nothing takes the preference). */
function overDistinctStep(source: PlanNode): boolean {
  let node = source;
  while (node.kind === 'Project' || node.kind === 'Filter') node = node.source;
  return node.kind === 'Aggregate' || node.kind === 'MarkDistinct';
}

/** The keys to repartition a step needing `keys` on: the preferred ones when they are a proper, non-empty subset. */
export function partitioningKeys(keys: readonly Symbol[], preferred: readonly Symbol[]): Symbol[] {
  const subset = preferred.length > 0 && preferred.length < keys.length && preferred.every((p) => keys.some((k) => k.id === p.id));
  return subset ? [...preferred] : [...keys];
}
