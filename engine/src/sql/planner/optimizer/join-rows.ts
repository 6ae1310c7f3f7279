// Rows of an inner equi-join, as Trino's JoinStatsRule estimates them: |L| * |R| / max(ndv(l), ndv(r))
// over the keys (each row of the side with fewer distinct keys meets its key's rows on the other
// side). The distinct counts are the key columns' tables' (a filter below keeps a share of each
// key's rows, not fewer keys' worth of matches). A key whose count is not known is taken as the
// key of a key-foreign key join: on the side of the smaller table, unique (its table's rows); on
// the other, no more distinct than the key it references, so such a join keeps the foreign side's
// rows times the share of the key side's rows its filters kept.

import type { PlannerContext } from '../planner-context.js';
import type { JoinNode } from '../plan.js';
import { columnOrigin, type ColumnOrigin } from './column-origin.js';

/** Undefined when a key's table is not known (a computed key, a key of unknown counts). */
export function innerJoinRows(node: JoinNode, left: number, right: number, context: PlannerContext): number | undefined {
  const keys = node.criteria.map((c) => ({
    left: columnOrigin(node.left, c.left, context),
    right: columnOrigin(node.right, c.right, context),
  }));
  const distinct = keys.map((k) => keyDistinct(k.left, k.right));
  if (distinct.some((d) => d === undefined)) return undefined;
  const known = distinct as number[];
  // Several keys: their combinations are at most the rows of the smaller side's table (a key of all of them).
  const tables = [keys.map((k) => k.left?.tableRows), keys.map((k) => k.right?.tableRows)].map((rows) =>
    rows.every((r) => r !== undefined) ? Math.max(...rows) : Number.POSITIVE_INFINITY,
  );
  const product = known.reduce((p, d) => p * d, 1);
  const divisor = Math.max(...known, Math.min(product, ...tables));
  return (left * right) / Math.max(1, divisor);
}

/** max(ndv(l), ndv(r)) of one key pair, unknown counts taken as a key-foreign key join's. */
function keyDistinct(left: ColumnOrigin | undefined, right: ColumnOrigin | undefined): number | undefined {
  const l = left?.statistics.distinctValuesCount;
  const r = right?.statistics.distinctValuesCount;
  if (l !== undefined && r !== undefined) return Math.max(l, r);
  const [lRows, rRows] = [left?.tableRows, right?.tableRows];
  if (l !== undefined) return rRows !== undefined && rRows < (left?.tableRows ?? Number.POSITIVE_INFINITY) ? Math.max(l, rRows) : l;
  if (r !== undefined) return lRows !== undefined && lRows < (right?.tableRows ?? Number.POSITIVE_INFINITY) ? Math.max(r, lRows) : r;
  return lRows === undefined || rRows === undefined ? undefined : Math.min(lRows, rRows);
}
